/**
 * How `<svc-search>` reads its Insights attributes: its property converters, and the first-paint script
 * (src/prepaint), which reads them before the element is defined, so that its first search asks what the
 * element's will (no Lit here: the script runs before it loads).
 */

/**
 * `insights`: on unless the value is exactly `"false"`.
 *
 * @example
 * insightsEnabledFrom('false') // false; insightsEnabledFrom(null) // true
 */
export const insightsEnabledFrom = (value: string | null): boolean => value !== 'false';

/**
 * `insights-consent`: absent means granted (the default); present, only `""`, `"true"` and `"granted"` grant
 * it. Any other value (`"false"`, `"denied"`, a typo) denies: a consent switch fails closed.
 *
 * @example
 * consentFrom('denied') // false; consentFrom(null) // true; consentFrom('granted') // true
 */
export const consentFrom = (value: unknown): boolean =>
  value == null || value === true || (typeof value === 'string' && /^(true|granted|)$/i.test(value.trim()));
