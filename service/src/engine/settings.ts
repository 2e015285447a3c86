/** The engine's settings helpers, as the service's routers import them (see `./index.ts`). */
export { checkTypoWordSizes, KNOWN_SETTINGS, validateSettingValue } from 'svc-search/engine';
