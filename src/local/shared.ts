/**
 * What the local engine's modules share (`engine-host.ts`, `on-demand.ts` and the Recommend chunk `recommend.ts`): the
 * Recommend request, boolean parameters, the engine's refusal with its HTTP status and queryIDs.
 */
import { type SearchParams, parseSearchParams } from '../engine/params.js';
import type { RawParams } from '../engine/rules.js';

/** One Recommend request (document 2). */
export interface LocalRecommendRequest {
  indexName: string;
  model: string;
  threshold?: number;
  maxRecommendations?: number;
  objectID?: string;
  facetName?: string;
  facetValue?: string;
  queryParameters?: RawParams;
  fallbackParameters?: RawParams;
}

/**
 * A boolean parameter as the API accepts it (`true`, `'true'`, `1`, `'1'`).
 *
 * @example
 * flag('true') // true; flag(undefined) // false
 */
export function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

/** The engine's refusal of a request, with the HTTP status the service would answer. */
export class LocalError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'LocalError';
  }
}

/** Search parameters of the wire's raw parameters. */
export function toSearchParams(raw: RawParams): SearchParams {
  return parseSearchParams(raw);
}

/** 32 hexadecimal digits, as the service's queryIDs. */
export function newQueryID(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
