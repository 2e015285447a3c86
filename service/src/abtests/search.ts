/**
 * The search side of A/B tests: a search on the first (control) index of an active test is assigned a
 * variant by its user; variant 2 runs on the second index with its customSearchParameters. Searches on
 * any other index — the second index of a test included — are never redirected (document 2, "A/B test
 * status"). The search pipeline (`Search` in `search/search.ts`) calls `abTestRoute` first and, when it answers,
 * searches where it says, adds `abTestID` / `abTestVariantID` to the answer and records the variant with
 * the Analytics search.
 */
import { searchUser, type SearchOrigin } from '../analytics/record.js';
import type { Index } from '../engine/index.js';
import type { KeyInfo } from '../keys/types.js';
import type { Catalog } from '../indices/catalog.js';
import { type AbTests, variantFor } from './service.js';

export interface AbTestRoute {
  abTestID: number;
  /** 1 (the first index) or 2. */
  abTestVariantID: 1 | 2;
  /** Where the search runs. */
  indexName: string;
  index: Index;
  /** The search's parameters with the variant's customSearchParameters over them. */
  input: Record<string, unknown>;
}

/**
 * @example
 * const route = abTestRoute(services.abTests, services.catalog, 'products', index, input, key, origin);
 * if (route) ({ indexName, index, input } = route);
 */
export function abTestRoute(
  abTests: AbTests,
  catalog: Catalog,
  indexName: string,
  index: Index,
  input: Record<string, unknown>,
  key: KeyInfo,
  origin?: SearchOrigin,
): AbTestRoute | undefined {
  const test = abTests.activeOn(indexName);
  if (!test) return undefined;
  // The user Analytics counts: the token the search will run with (a secured key's, the key's forced
  // one, the query's), else the X-Service-UserToken header, else the client IP.
  const forcedToken = key.forcedParams.map((layer) => new URLSearchParams(layer).get('userToken')).findLast(Boolean);
  const userToken = key.userToken ?? forcedToken ?? input.userToken;
  const variantID = variantFor(test, searchUser(userToken, key, origin).userKey);
  const variant = test.variants[variantID - 1]!;
  const target = variant.index === indexName ? index : catalog.get(variant.index);
  // The second index was deleted after the test began: the search runs as if there were no test.
  if (!target) return undefined;
  return {
    abTestID: test.abTestID,
    abTestVariantID: variantID,
    indexName: variant.index,
    index: target,
    input: variant.customSearchParameters ? { ...input, ...structuredClone(variant.customSearchParameters) } : input,
  };
}
