/**
 * Search section of document 1: search one index (POST and GET), multi-index search with strategies,
 * search for facet values, browse with a cursor. Searches asked with `clickAnalytics` get a `queryID`
 * and are written to the search log so Insights events can refer to them.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { abTestRoute } from '../abtests/search.js';
import { recordSearch, searchOrigin, type SearchOrigin } from '../analytics/record.js';
import type { KeyInfo, ServiceContext } from '../context.js';
import type { Index } from '../engine/index.js';
import { validateSettingValue } from '../engine/settings.js';
import { personalizationOptions } from '../personalization/search.js';
import { isTransportParameter, requireRight } from './auth.js';
import { asObject, requestsOf } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';
import {
  applyKeyParams,
  bothAllow,
  checkTypoParams,
  forcedByKey,
  decodeParams,
  flag,
  rawParams,
  toSearchParams,
  type RawParams,
} from './params.js';
import { checkResponseFields, withResponseFields } from './response-fields.js';
import { applyRules, searchWithPins, type PinnedSearchResponse } from './rules.js';

/**
 * A new queryID: 32 hexadecimal characters.
 *
 * @example
 * newQueryID() // 'c0ffee…' (32 chars)
 */
export function newQueryID(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Parameters of a GET query string, parsed like a `params` string: the credentials and the client's agent
 * (whatever their case) are not search parameters; `params` (a URL-encoded string of more parameters) and
 * the browse `cursor` are kept as they are.
 */
function queryParams(c: Context): RawParams {
  const search = new URL(c.req.url).searchParams;
  const kept: RawParams = {};
  for (const name of ['params', 'cursor']) {
    const value = search.get(name);
    if (value !== null) kept[name] = value;
    search.delete(name);
  }
  for (const name of [...search.keys()]) if (isTransportParameter(name)) search.delete(name);
  return { ...decodeParams(search.toString()), ...kept };
}

/**
 * `unretrievableAttributes` is bypassed for the admin key and keys with `seeUnretrievableAttributes`
 * (document 1, rights): the engine always leaves them out, so they are put back from the stored record
 * when the query's `attributesToRetrieve` asks for them.
 */
function revealUnretrievable(
  index: Index,
  key: KeyInfo,
  raw: RawParams,
  hits: Array<Record<string, unknown> & { objectID: string }>,
): void {
  if (!key.isAdmin && !key.acl.includes('seeUnretrievableAttributes')) return;
  const settings = index.getSettings() as { unretrievableAttributes?: string[]; attributesToRetrieve?: string[] };
  const hidden = settings.unretrievableAttributes ?? [];
  if (hidden.length === 0 || hits.length === 0) return;
  const wanted = (toSearchParams({ attributesToRetrieve: raw.attributesToRetrieve }).attributesToRetrieve as
    | string[]
    | undefined) ??
    settings.attributesToRetrieve ?? ['*'];
  const shown = hidden.filter(
    (name) => (wanted.includes('*') && !wanted.includes(`-${name}`)) || wanted.includes(name),
  );
  for (const hit of hits) {
    const record = index.getObject(hit.objectID);
    if (!record) continue;
    for (const name of shown) {
      if (Object.hasOwn(record, name))
        Object.defineProperty(hit, name, {
          value: structuredClone(record[name]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
}

/**
 * A key that forces `attributesToRetrieve` hides the other attributes in `_highlightResult` and
 * `_snippetResult` too (the engine highlights every searchable attribute; a highlight would show the value
 * the key withholds).
 */
function hideWithheldHighlights(key: KeyInfo, hits: Array<Record<string, unknown>>): void {
  if (key.forcedParams.length === 0 || hits.length === 0) return;
  const forced = forcedByKey(key).attributesToRetrieve;
  if (forced === undefined) return;
  const retrieve = toSearchParams({ attributesToRetrieve: forced }).attributesToRetrieve as string[];
  for (const hit of hits) {
    for (const field of ['_highlightResult', '_snippetResult']) {
      const results = hit[field] as Record<string, unknown> | undefined;
      if (!results) continue;
      for (const name of Object.keys(results)) {
        const kept = bothAllow(retrieve, [name]);
        if (kept.includes(name)) continue;
        const nested = results[name];
        const children = kept.filter((path) => path.startsWith(`${name}.`)).map((path) => path.split('.')[1]!);
        if (children.length > 0 && nested && typeof nested === 'object' && !Array.isArray(nested)) {
          results[name] = Object.fromEntries(Object.entries(nested).filter(([child]) => children.includes(child)));
        } else {
          delete results[name];
        }
      }
    }
  }
}

/**
 * Runs one search with the key's forced parameters and logs it when `clickAnalytics` is on.
 * Exported for the other routers (Recommend) that search on behalf of a request.
 *
 * @example
 * const response = runSearch(ctx, 'products', ctx.indices.require('products'), { query: 'chair', clickAnalytics: true }, key);
 */
export function runSearch(
  ctx: ServiceContext,
  indexName: string,
  index: Index,
  input: RawParams,
  key: KeyInfo,
  origin?: SearchOrigin,
) {
  // A/B test (document 2): on the first index of an active test, the user's variant decides where the
  // search runs and with which customSearchParameters.
  const own = input; // the user's own parameters, as Analytics records them
  const abTest = abTestRoute(ctx, indexName, index, input, key, origin);
  if (abTest) ({ indexName, index, input } = abTest);
  // Rules first (they read the user's query and ruleContexts), the key's forced parameters last (a rule
  // cannot widen what the key allows).
  const rules = applyRules(internalsOf(ctx).catalog.rules(indexName), input);
  const raw = applyKeyParams(rules.raw, key, index);
  checkTypoParams(raw, index);
  const renderingContent = renderingContentOf(raw, index);
  const fields = toSearchParams({ responseFields: raw.responseFields }).responseFields;
  checkResponseFields(fields);
  // Personalization: the user's profile when the query asks for it (undefined otherwise: unchanged search).
  const personal = personalizationOptions(ctx, raw, origin?.userToken);
  const engineSearch = (params: RawParams) =>
    index.search(toSearchParams(applyKeyParams(params, key, index)), personal) as unknown as PinnedSearchResponse;
  const response = (rules.pins.length > 0
    ? searchWithPins(index, raw, rules.pins, engineSearch, {
        filterPromotes: rules.filterPromotes,
        filters: rules.filters,
      })
    : index.search(toSearchParams(raw), personal)) as unknown as Record<string, unknown> & {
    hits: Array<{ objectID: string }>;
    page: number;
    hitsPerPage: number;
    query: string;
  };
  revealUnretrievable(index, key, raw, response.hits as Array<Record<string, unknown> & { objectID: string }>);
  hideWithheldHighlights(key, response.hits);
  if (rules.userData.length > 0) response.userData = rules.userData;
  if (renderingContent) response.renderingContent = renderingContent;
  if (rules.appliedRules.length > 0) response.appliedRules = rules.appliedRules;
  if (flag(raw.clickAnalytics)) {
    const queryID = newQueryID();
    response.queryID = queryID;
    const entry = {
      queryID,
      indexName,
      query: response.query ?? '',
      page: response.page ?? 0,
      hitsPerPage: response.hitsPerPage ?? response.hits.length,
      objectIDs: response.hits.map((hit) => hit.objectID),
      createdAt: Date.now(),
    } as Parameters<ServiceContext['searchLog']['record']>[0];
    if (typeof raw.userToken === 'string' && raw.userToken) entry.userToken = raw.userToken;
    ctx.searchLog.record(entry);
  }
  if (abTest) {
    response.abTestID = abTest.abTestID;
    response.abTestVariantID = abTest.abTestVariantID;
  }
  // Analytics (document 2): every search unless `analytics: false`, queued off the answer's path.
  const assigned = abTest ? { abTestID: abTest.abTestID, abTestVariantID: abTest.abTestVariantID } : undefined;
  recordSearch(ctx, { indexName, input: own, raw, response, key, ...(origin ? { origin } : {}), abTest: assigned });
  (response as Record<symbol, unknown>)[RESPONSE_FIELDS] = fields;
  return response;
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
  const setting = (index.getSettings() as { renderingContent?: Record<string, unknown> | null }).renderingContent;
  return setting ?? undefined;
}

/** The `responseFields` a search ran with, kept on its answer until it is sent (`shaped`). */
const RESPONSE_FIELDS = Symbol('responseFields');

/** The answer of {@link runSearch} with only the fields its `responseFields` names. */
function shaped<T extends object>(response: T): T {
  return withResponseFields(response, (response as Record<symbol, unknown>)[RESPONSE_FIELDS]);
}

function facetSearch(index: Index, facetName: string, input: RawParams, key: KeyInfo) {
  const raw = applyKeyParams(input, key, index);
  checkTypoParams(raw, index);
  const facetQuery = raw.facetQuery ?? '';
  if (typeof facetQuery !== 'string') throw new HttpError(400, '`facetQuery` must be a string');
  let maxFacetHits = 10;
  if (raw.maxFacetHits !== undefined) {
    maxFacetHits = Number(raw.maxFacetHits);
    if (!Number.isInteger(maxFacetHits) || maxFacetHits < 1 || maxFacetHits > 100) {
      throw new HttpError(400, '`maxFacetHits` must be an integer from 1 to 100');
    }
  }
  // page and hitsPerPage are ignored by facet value search.
  const { facetQuery: _q, maxFacetHits: _m, page: _p, hitsPerPage: _h, facet: _f, type: _t, ...rest } = raw;
  return index.searchForFacetValues(facetName, facetQuery, toSearchParams(rest), maxFacetHits);
}

function skipped(indexName: string, raw: RawParams) {
  const hitsPerPage = Number(raw.hitsPerPage ?? 20);
  return {
    hits: [],
    page: 0,
    nbHits: 0,
    nbPages: 0,
    hitsPerPage: Number.isFinite(hitsPerPage) ? hitsPerPage : 20,
    processingTimeMS: 0,
    query: typeof raw.query === 'string' ? raw.query : '',
    params: new URLSearchParams(
      Object.entries(raw).map(([name, value]): [string, string] => [
        name,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    ).toString(),
    index: indexName,
    processed: false,
  };
}

export function register(app: Hono, ctx: ServiceContext): void {
  app.post('/1/indexes/:all{\\*}/queries', async (c) => {
    // Credentials and the search right before the body is read (an empty `requests` too), then each index.
    const key = ctx.authorize(c, 'search');
    const body = asObject(await ctx.readJson(c));
    const requests = requestsOf(body);
    const strategy = body.strategy ?? 'none';
    if (strategy !== 'none' && strategy !== 'stopIfEnoughMatches') {
      throw new HttpError(400, '`strategy` must be "none" or "stopIfEnoughMatches"');
    }
    // Check every request (auth, index, parameters) before running any.
    const prepared = requests.map((request, position) => {
      const item = asObject(request, `requests[${position}]`);
      const { indexName, type, facet, ...rest } = item;
      if (typeof indexName !== 'string' || !indexName)
        throw new HttpError(400, `requests[${position}].indexName must be a non-empty string`);
      requireRight(key, 'search', indexName);
      const index = ctx.indices.require(indexName);
      if (type !== undefined && type !== 'default' && type !== 'facet') {
        throw new HttpError(400, `requests[${position}].type must be "default" or "facet"`);
      }
      if (type === 'facet' && (typeof facet !== 'string' || !facet)) {
        throw new HttpError(400, `requests[${position}].facet must name the facet to search`);
      }
      return { indexName, index, key, raw: rawParams(rest), facet: type === 'facet' ? (facet as string) : undefined };
    });
    let enough = false;
    const origin = searchOrigin(c, ctx);
    const results = prepared.map(({ indexName, index, key, raw, facet }) => {
      if (enough) return skipped(indexName, raw);
      if (facet !== undefined) return { ...facetSearch(index, facet, raw, key), index: indexName };
      const response = runSearch(ctx, indexName, index, raw, key, origin);
      // stopIfEnoughMatches: a query runs only while every earlier one returned fewer hits than its hitsPerPage.
      if (strategy === 'stopIfEnoughMatches' && (response.nbHits as number) >= response.hitsPerPage) enough = true;
      return shaped({ ...response, index: indexName }); // the spread keeps the RESPONSE_FIELDS symbol
    });
    return c.json({ results });
  });

  app.post('/1/indexes/:indexName/query', async (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'search', indexName);
    const body = asObject(await ctx.readJson(c));
    const index = ctx.indices.require(indexName);
    return c.json(shaped(runSearch(ctx, indexName, index, rawParams(body), key, searchOrigin(c, ctx))));
  });

  app.post('/1/indexes/:indexName/facets/:facetName/query', async (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'search', indexName);
    const body = asObject(await ctx.readJson(c));
    const index = ctx.indices.require(indexName);
    return c.json(facetSearch(index, c.req.param('facetName'), rawParams(body), key));
  });

  // The engine's cursor carries the browse parameters; the service signs it (bound to the index and to
  // the parameters the key forces) so that a forged or borrowed cursor cannot lift a secured key's filters.
  const cursorSecret = createHmac('sha256', ctx.adminKey).update('svc-search browse cursor').digest();
  const cursorMac = (engineCursor: string, indexName: string, key: KeyInfo) =>
    createHmac('sha256', cursorSecret)
      .update(`${indexName}\u0000${JSON.stringify(key.forcedParams)}\u0000${key.userToken ?? ''}\u0000${engineCursor}`)
      .digest('base64url')
      .slice(0, 22);

  const browse = async (c: Context, read: () => RawParams | Promise<RawParams>) => {
    const indexName = c.req.param('indexName')!;
    const key = ctx.authorize(c, 'browse', indexName); // before the body is read
    const input = await read();
    const index = ctx.indices.require(indexName);
    const { cursor, ...rest } = input;
    if (cursor !== undefined && typeof cursor !== 'string') throw new HttpError(400, '`cursor` must be a string');
    let engineCursor: string | undefined;
    if (cursor) {
      const dot = cursor.lastIndexOf('.');
      engineCursor = cursor.slice(0, dot);
      const mac = Buffer.from(cursor.slice(dot + 1));
      const expected = Buffer.from(cursorMac(engineCursor, indexName, key));
      if (dot < 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
        throw new HttpError(400, 'Invalid cursor: pass the cursor of the previous browse answer unchanged');
      }
    }
    const raw = applyKeyParams(rawParams(rest), key, index);
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
    if (response.cursor) response.cursor = `${response.cursor}.${cursorMac(response.cursor, indexName, key)}`;
    return c.json(withResponseFields(response, fields));
  };
  app.post('/1/indexes/:indexName/browse', (c) => browse(c, async () => asObject(await ctx.readJson(c))));
  app.get('/1/indexes/:indexName/browse', (c) => browse(c, () => queryParams(c)));

  app.get('/1/indexes/:indexName', (c) => {
    const indexName = c.req.param('indexName');
    const key = ctx.authorize(c, 'search', indexName);
    const index = ctx.indices.require(indexName);
    return c.json(shaped(runSearch(ctx, indexName, index, rawParams(queryParams(c)), key, searchOrigin(c, ctx))));
  });
}
