/**
 * The search side of Personalization: from a query's parameters (after rules and the key's forced
 * parameters) to the engine's `SearchOptions`. A query is personalised when `enablePersonalization` is
 * true, it has a user (`userToken` — a secured key's wins — else the `X-Service-UserToken` header), a
 * strategy is set with an impact above 0 (or the query's own `personalizationImpact`), and that user has
 * profile scores. Otherwise the answer is `undefined` and the search runs exactly as it always did.
 */
import type { SearchOptions } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { Personalizer } from './personalizer.js';

/** `personalizationImpact` of a query: an integer from 0 to 100 (as a number or its decimal text). */
function impactParameter(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^\d{1,3}$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > 100) {
    throw new ServiceError(
      400,
      `Invalid value for parameter "personalizationImpact": expected an integer between 0 and 100, got ${JSON.stringify(value)}`,
    );
  }
  return number;
}

function enabled(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

/**
 * @param raw the query's parameters as the engine will get them
 * @param headerUserToken the request's `X-Service-UserToken`, if any
 * @example
 * index.search(toSearchParams(raw), await personalizationOptions(services.personalizer, raw, origin?.userToken));
 */
export async function personalizationOptions(
  personalizer: Personalizer,
  raw: Record<string, unknown>,
  headerUserToken?: string,
): Promise<SearchOptions | undefined> {
  if (!enabled(raw.enablePersonalization)) return undefined;
  const impact = impactParameter(raw.personalizationImpact);
  const userToken = typeof raw.userToken === 'string' && raw.userToken ? raw.userToken : headerUserToken;
  if (!userToken) return undefined;
  const personalization = await personalizer.forSearch(userToken, impact);
  return personalization ? { personalization } : undefined;
}
