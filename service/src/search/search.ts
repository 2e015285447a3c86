/**
 * The search pipeline (document 1, "Search"; document 2, A/B tests and Personalization): what every search
 * of an index goes through, whatever asked for it (a search route, a multi-query, Recommend's fallback).
 *
 * 1. A/B test routing: on the first index of an active test, the user's variant decides where the search runs
 *    and with which `customSearchParameters` (`abtests/search.ts`).
 * 2. Rules (`rules/apply.ts`): they read the user's query and `ruleContexts`.
 * 3. The key's forced parameters (`key-params.ts`), last, so a rule cannot widen what the key allows.
 * 4. Personalization: the user's profile when the query asks for it.
 * 5. The engine, with pinned records around it when a rule promotes some (`rules/pins.ts`).
 * 6. What the key may see of the hits (`visibility.ts`), `userData` and `appliedRules` of the rules, the
 *    `renderingContent` (the query's, a rule consequence's, else the index setting's).
 * 7. The search log (with `clickAnalytics`: a `queryID` Insights events can refer to) and the Analytics log.
 */
import { randomBytes } from 'node:crypto';
import type { SearchForFacetValuesResponse, SearchResponse } from 'svc-search/protocol';
import type { AbTests } from '../abtests/service.js';
import { abTestRoute } from '../abtests/search.js';
import type { AnalyticsLog } from '../analytics/log.js';
import { recordSearch, type SearchOrigin } from '../analytics/record.js';
import type { Index } from '../engine/index.js';
import { validateSettingValue } from '../engine/settings.js';
import { ServiceError } from '../errors.js';
import type { Catalog } from '../indices/catalog.js';
import type { KeyInfo } from '../keys/types.js';
import type { Personalizer } from '../personalization/personalizer.js';
import { personalizationOptions } from '../personalization/search.js';
import { applyRules } from '../rules/apply.js';
import { type PinnedSearchResponse, searchWithPins } from '../rules/pins.js';
import type { SearchLogEntry, SearchLogStore } from '../storage/types.js';
import { applyKeyParams, checkTypoParams, flag, type RawParams, toSearchParams } from './key-params.js';
import { checkResponseFields, skippedAnswer, withResponseFields } from '../engine/index.js';
import { hideWithheldHighlights, revealUnretrievable } from './visibility.js';

/**
 * A new queryID: 32 hexadecimal characters.
 *
 * @example
 * newQueryID() // 'c0ffee…' (32 chars)
 */
export function newQueryID(): string {
  return randomBytes(16).toString('hex');
}

export type SearchAnswer = Record<string, unknown> & {
  hits: Array<Record<string, unknown> & { objectID: string }>;
  page: number;
  hitsPerPage: number;
  query: string;
  nbHits?: unknown;
};

/** The `responseFields` a search ran with, kept on its answer until it is sent (`shaped`). */
const RESPONSE_FIELDS = Symbol('responseFields');

/**
 * The answer of {@link Search.run} with only the fields its `responseFields` names.
 *
 * @example
 * c.json(shaped(await services.search.run('products', raw, key)))
 */
export function shaped<T extends object>(response: T): T {
  return withResponseFields(response, (response as Record<symbol, unknown>)[RESPONSE_FIELDS]);
}

/** One request of a multi-query, checked (index, key) before any runs. */
export interface MultiQueryRequest {
  indexName: string;
  raw: RawParams;
  /** Set for a facet value search (`type: 'facet'`). */
  facet?: string | undefined;
}

export interface SearchDependencies {
  catalog: Catalog;
  abTests: AbTests;
  personalizer: Personalizer;
  searchLog: SearchLogStore;
  analyticsLog: AnalyticsLog;
  now: () => number;
}

/**
 * @example
 * const answer = await services.search.run('products', { query: 'chair', clickAnalytics: true }, key, origin);
 */
export class Search {
  readonly #deps: SearchDependencies;

  constructor(deps: SearchDependencies) {
    this.#deps = deps;
  }

  /** Runs one search of `indexName` (404 when it does not exist) with the key's forced parameters, and logs it. */
  async run(indexName: string, input: RawParams, key: KeyInfo, origin?: SearchOrigin): Promise<SearchAnswer> {
    const { catalog, abTests, personalizer, searchLog, analyticsLog, now } = this.#deps;
    let index = catalog.require(indexName);
    const own = input; // the user's own parameters, as Analytics records them
    const abTest = abTestRoute(abTests, catalog, indexName, index, input, key, origin);
    if (abTest) ({ indexName, index, input } = abTest);
    const rules = applyRules(catalog.rules(indexName), input);
    const raw = applyKeyParams(rules.raw, key, index);
    checkTypoParams(raw, index);
    const renderingContent = renderingContentOf(raw, index);
    const fields = toSearchParams({ responseFields: raw.responseFields }).responseFields;
    checkResponseFields(fields);
    // Personalization: the user's profile when the query asks for it (undefined otherwise: unchanged search).
    const personal = await personalizationOptions(personalizer, raw, origin?.userToken);
    const engineSearch = (params: RawParams) =>
      index.search(toSearchParams(applyKeyParams(params, key, index)), personal) as unknown as PinnedSearchResponse;
    const response = (rules.pins.length > 0
      ? searchWithPins(index, raw, rules.pins, engineSearch, {
          filterPromotes: rules.filterPromotes,
          filters: rules.filters,
        })
      : index.search(toSearchParams(raw), personal)) as unknown as SearchAnswer;
    revealUnretrievable(index, key, raw, response.hits);
    hideWithheldHighlights(key, response.hits);
    if (rules.userData.length > 0) response.userData = rules.userData;
    if (renderingContent) response.renderingContent = renderingContent;
    if (rules.appliedRules.length > 0) response.appliedRules = rules.appliedRules;
    if (flag(raw.clickAnalytics)) {
      const queryID = newQueryID();
      response.queryID = queryID;
      const entry: SearchLogEntry = {
        queryID,
        indexName,
        query: response.query ?? '',
        page: response.page ?? 0,
        hitsPerPage: response.hitsPerPage ?? response.hits.length,
        objectIDs: response.hits.map((hit) => hit.objectID),
        createdAt: Date.now(),
      };
      if (typeof raw.userToken === 'string' && raw.userToken) entry.userToken = raw.userToken;
      await searchLog.record(entry);
    }
    if (abTest) {
      response.abTestID = abTest.abTestID;
      response.abTestVariantID = abTest.abTestVariantID;
    }
    // Analytics (document 2): every search unless `analytics: false`, queued off the answer's path.
    const assigned = abTest ? { abTestID: abTest.abTestID, abTestVariantID: abTest.abTestVariantID } : undefined;
    recordSearch(analyticsLog, now(), {
      indexName,
      input: own,
      raw,
      response,
      key,
      ...(origin ? { origin } : {}),
      abTest: assigned,
    });
    (response as Record<symbol, unknown>)[RESPONSE_FIELDS] = fields;
    return response;
  }

  /** Search for facet values (document 1) with the key's forced parameters. */
  facetValues(indexName: string, facetName: string, input: RawParams, key: KeyInfo): SearchForFacetValuesResponse {
    const index = this.#deps.catalog.require(indexName);
    return facetSearch(index, facetName, input, key);
  }

  /**
   * A multi-query: every request checked before (by the caller), run in order; with `stopIfEnoughMatches`
   * a query runs only while every earlier one returned fewer hits than its hitsPerPage.
   */
  async multi(
    requests: readonly MultiQueryRequest[],
    strategy: 'none' | 'stopIfEnoughMatches',
    key: KeyInfo,
    origin?: SearchOrigin,
  ): Promise<Array<Record<string, unknown>>> {
    let enough = false;
    const results: Array<Record<string, unknown>> = [];
    for (const { indexName, raw, facet } of requests) {
      if (enough) results.push(skippedAnswer(indexName, raw));
      else if (facet !== undefined) results.push({ ...this.facetValues(indexName, facet, raw, key), index: indexName });
      else {
        const response = await this.run(indexName, raw, key, origin);
        if (strategy === 'stopIfEnoughMatches' && (response.nbHits as number) >= response.hitsPerPage) enough = true;
        results.push(shaped({ ...response, index: indexName })); // the spread keeps the RESPONSE_FIELDS symbol
      }
    }
    return results;
  }

  /** Browse (document 1): the engine's answer with what the key may see; the cursor is the caller's to sign. */
  browse(
    indexName: string,
    input: RawParams,
    key: KeyInfo,
    engineCursor: string | undefined,
  ): { response: SearchResponse & { cursor?: string }; fields: unknown } {
    const index = this.#deps.catalog.require(indexName);
    const raw = applyKeyParams(input, key, index);
    checkTypoParams(raw, index);
    const fields = toSearchParams({ responseFields: raw.responseFields }).responseFields;
    checkResponseFields(fields);
    const response = index.browse(toSearchParams(raw), engineCursor);
    revealUnretrievable(
      index,
      key,
      raw,
      response.hits as unknown as Array<Record<string, unknown> & { objectID: string }>,
    );
    hideWithheldHighlights(key, response.hits as unknown as Array<Record<string, unknown>>);
    return { response, fields };
  }
}

/**
 * The `renderingContent` of a search answer: the query's (or a rule consequence's, which replaced it in
 * `raw`), else the index setting's; validated (400 naming the path). An extension beyond the API documents,
 * as the hosted API answers it.
 */
function renderingContentOf(raw: RawParams, index: Index): Record<string, unknown> | undefined {
  if (raw.renderingContent !== undefined && raw.renderingContent !== null) {
    const given = toSearchParams({ renderingContent: raw.renderingContent }).renderingContent;
    return validateSettingValue('renderingContent', given) as Record<string, unknown>;
  }
  // One setting copied, not all of them (`getSettings` deep-copies every setting: 3 % of the service's
  // CPU per search at 1M records, where the HTTP layer's own share is about a quarter).
  const setting = index.getSetting('renderingContent') as Record<string, unknown> | null | undefined;
  return setting ?? undefined;
}

function facetSearch(index: Index, facetName: string, input: RawParams, key: KeyInfo) {
  const raw = applyKeyParams(input, key, index);
  checkTypoParams(raw, index);
  const facetQuery = raw.facetQuery ?? '';
  if (typeof facetQuery !== 'string') throw new ServiceError(400, '`facetQuery` must be a string');
  let maxFacetHits = 10;
  if (raw.maxFacetHits !== undefined) {
    maxFacetHits = Number(raw.maxFacetHits);
    if (!Number.isInteger(maxFacetHits) || maxFacetHits < 1 || maxFacetHits > 100) {
      throw new ServiceError(400, '`maxFacetHits` must be an integer from 1 to 100');
    }
  }
  // page and hitsPerPage are ignored by facet value search.
  const { facetQuery: _q, maxFacetHits: _m, page: _p, hitsPerPage: _h, facet: _f, type: _t, ...rest } = raw;
  return index.searchForFacetValues(facetName, facetQuery, toSearchParams(rest), maxFacetHits);
}
