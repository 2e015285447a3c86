/**
 * What the Analytics API records of a search: called by the search pipeline (`Search` in `search/search.ts`) for every
 * search it answers, unless the search has `analytics: false`. See `docs/notes/analytics.md`.
 */
import { buildFilterTree, parseSearchParams, type FilterNode } from '../engine/index.js';
import type { KeyInfo } from '../keys/types.js';
import type { AnalyticsFilter, FilterOperator } from '../storage/types.js';
import type { AnalyticsLog } from './log.js';

/** Where a search came from, read from the HTTP request. */
export interface SearchOrigin {
  /** Peer address of the connection. */
  ip?: string;
  /** First address of `X-Forwarded-For` (used only with the admin key: a backend searching for a user). */
  forwardedFor?: string;
  /** `X-Service-UserToken` header. */
  userToken?: string;
  /** The country a proxy in front of the service found for the client (ISO 3166-1 alpha-2, upper case). */
  country?: string;
}

/**
 * Headers a proxy sets with the client's country: Cloudflare's `CF-IPCountry`, else `X-Country-Code`, or
 * the one header named by `createService({ countryHeader })` / `--country-header`. A client can send them
 * itself: they mean something only behind a proxy that sets (overwrites) them.
 */
export const DEFAULT_COUNTRY_HEADERS = ['cf-ipcountry', 'x-country-code'] as const;

function analyticsOff(value: unknown): boolean {
  return value === false || value === 'false' || value === 0 || value === '0';
}

const NEGATED: Record<FilterOperator, FilterOperator> = {
  ':': '!=',
  '=': '!=',
  '!=': '=',
  '<': '>=',
  '<=': '>',
  '>': '<=',
  '>=': '<',
};

/**
 * The filters of a request as `{attribute, operator, value}`: `attr:value` → `:`, numeric comparisons
 * keep their operator, `attr:a TO b` → `>= a` and `<= b`, a negated facet value → `!=`, a negated
 * comparison → the opposite operator (`NOT price < 10` → `price >= 10`); a negated range is left out.
 * Duplicates (the same filter twice in one request) count once.
 *
 * @example
 * filtersOf({ facetFilters: [['brand:Hon', 'brand:Acme']], numericFilters: ['price<100'] })
 * // [{ attribute: 'brand', operator: ':', value: 'Hon' }, { …'Acme' }, { attribute: 'price', operator: '<', value: '100' }]
 */
export function filtersOf(input: Record<string, unknown>): AnalyticsFilter[] {
  let tree: FilterNode | null;
  try {
    const params = parseSearchParams({
      filters: input.filters,
      facetFilters: input.facetFilters,
      numericFilters: input.numericFilters,
      tagFilters: input.tagFilters,
    }) as Record<string, unknown>;
    tree = buildFilterTree(params);
  } catch {
    return [];
  }
  const out: AnalyticsFilter[] = [];
  const seen = new Set<string>();
  const add = (attribute: string, operator: FilterOperator, value: string) => {
    const id = JSON.stringify([attribute, operator, value]);
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ attribute, operator, value });
  };
  const walk = (node: FilterNode, negated: boolean): void => {
    switch (node.type) {
      case 'and':
      case 'or':
        for (const child of node.children) walk(child, negated);
        return;
      case 'not':
        walk(node.child, !negated);
        return;
      case 'facet':
        add(node.attribute, negated ? '!=' : ':', node.value);
        return;
      case 'numeric':
        add(node.attribute, negated ? NEGATED[node.op] : node.op, String(node.value));
        return;
      case 'range':
        if (negated) return;
        add(node.attribute, '>=', String(node.from));
        add(node.attribute, '<=', String(node.to));
    }
  };
  if (tree) walk(tree, false);
  return out;
}

function stringList(value: unknown): string[] {
  try {
    const parsed = (parseSearchParams({ analyticsTags: value }) as Record<string, unknown>).analyticsTags;
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string' && tag !== '') : [];
  } catch {
    return [];
  }
}

function address(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

export interface RecordedSearch {
  indexName: string;
  /** The request's own parameters (the user's query and filters). */
  input: Record<string, unknown>;
  /** The parameters the search ran with (after rules and the key's forced parameters). */
  raw: Record<string, unknown>;
  response: {
    hits: Array<{ objectID: string }>;
    nbHits?: unknown;
    page?: unknown;
    hitsPerPage?: unknown;
    queryID?: unknown;
  };
  key: KeyInfo;
  origin?: SearchOrigin;
  /** The A/B test variant the search was assigned to (`abtests/`), if any. */
  abTest?: { abTestID: number; abTestVariantID: number } | undefined;
}

/**
 * Records one answered search for Analytics, unless it has `analytics: false` (its own or forced by
 * the key). The user is the search's `userToken` (a secured key's wins), else the `X-Service-UserToken`
 * header, else the client IP (with the admin key, the first `X-Forwarded-For` address when given).
 *
 * @example
 * recordSearch(services.analyticsLog, services.now(), { indexName, input, raw, response, key, origin });
 */
export function recordSearch(log: AnalyticsLog, ts: number, search: RecordedSearch): void {
  try {
    record(log, ts, search);
  } catch (error) {
    // Analytics never fails a search.
    console.error('[svc-search] analytics: a search could not be recorded', error);
  }
}

/** Who searched, as Analytics counts users (and A/B tests split them). */
export interface SearchUser {
  /** The search's userToken, else the `X-Service-UserToken` header, else the client IP. */
  userKey: string;
  /** True when `userKey` is the client IP (no user token was given). */
  anonymous: boolean;
}

/**
 * The user of a search: its `userToken` (pass the one it runs with, so a secured key's wins), else the
 * `X-Service-UserToken` header, else — the anonymous stand-in — the client IP (`::ffff:` removed; with
 * the admin key, the first `X-Forwarded-For` address, for a backend searching on a user's behalf).
 *
 * @example
 * searchUser('alice', key, origin) // { userKey: 'alice', anonymous: false }
 * searchUser(undefined, key, { ip: '::ffff:10.0.0.7' }) // { userKey: '10.0.0.7', anonymous: true }
 */
export function searchUser(userToken: unknown, key: KeyInfo, origin: SearchOrigin = {}): SearchUser {
  const token = typeof userToken === 'string' && userToken ? userToken : origin.userToken;
  if (token) return { userKey: token, anonymous: false };
  return { userKey: address((key.isAdmin && origin.forwardedFor) || origin.ip || 'unknown'), anonymous: true };
}

function record(log: AnalyticsLog, ts: number, search: RecordedSearch): void {
  const { input, raw, response, key, origin = {} } = search;
  if (analyticsOff(raw.analytics)) return;
  const { userKey, anonymous } = searchUser(raw.userToken, key, origin);
  const page = Number(response.page ?? 0);
  const hitsPerPage = Number(response.hitsPerPage ?? response.hits.length);
  log.record({
    indexName: search.indexName,
    ts,
    query: typeof input.query === 'string' ? input.query : '',
    nbHits: Number(response.nbHits ?? 0) || 0,
    userKey,
    anonymous,
    ...(typeof response.queryID === 'string' ? { queryID: response.queryID } : {}),
    page: Number.isFinite(page) ? page : 0,
    hitsPerPage: Number.isFinite(hitsPerPage) ? hitsPerPage : response.hits.length,
    objectIDs: response.hits.map((hit) => hit.objectID),
    filters: filtersOf(input),
    tags: stringList(raw.analyticsTags),
    ...(search.abTest ? { abTestID: search.abTest.abTestID, abTestVariantID: search.abTest.abTestVariantID } : {}),
    ...(origin.country ? { country: origin.country } : {}),
  });
}
