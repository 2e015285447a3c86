/**
 * Query rules applied to a search (document 1, Rules): conditions on the query words and rule contexts,
 * consequences that edit the parameters, pin or hide records and add `userData`. The same code serves the
 * service and the browser worker (`svc-search/local`), so a rule behaves alike in both.
 */
import { parseFilters } from './filters.js';
import { normalizeText, tokenize } from './normalize.js';
import { parseSearchParams } from './params.js';
import type { IndexCore } from './index-core.js';

/** Raw search parameters as a request gives them (before `parseSearchParams`). */
export type RawParams = Record<string, unknown>;

/** One query rule (document 1, Rules), as stored and as exported. */
export interface Rule {
  objectID: string;
  conditions?: Array<{
    pattern?: string;
    anchoring?: 'is' | 'startsWith' | 'endsWith' | 'contains';
    context?: string;
    alternatives?: boolean;
  }>;
  consequence: {
    params?: Record<string, unknown>;
    promote?: Array<{ objectID?: string; objectIDs?: string[]; position: number }>;
    hide?: Array<{ objectID: string }>;
    userData?: unknown;
    filterPromotes?: boolean;
  };
  description?: string;
  enabled?: boolean;
  validity?: Array<{ from: number; until: number }>;
  [field: string]: unknown;
}

const FILTER_LISTS = ['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters'];

/** A boolean parameter as the API accepts it (`true`, `'true'`, `1`, `'1'`). */
function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

function words(text: string): string[] {
  return tokenize(text);
}

function startsWith(haystack: string[], needle: string[], at = 0): boolean {
  return needle.every((word, i) => haystack[at + i] === word);
}

function patternMatches(
  query: string[],
  pattern: string[],
  anchoring: NonNullable<NonNullable<Rule['conditions']>[number]['anchoring']>,
): boolean {
  switch (anchoring) {
    case 'is':
      return query.length === pattern.length && startsWith(query, pattern);
    case 'startsWith':
      return startsWith(query, pattern);
    case 'endsWith':
      return query.length >= pattern.length && startsWith(query, pattern, query.length - pattern.length);
    case 'contains':
      for (let at = 0; at + pattern.length <= query.length; at++) if (startsWith(query, pattern, at)) return true;
      return false;
  }
}

function ruleApplies(rule: Rule, query: string[], contexts: string[], now: number): boolean {
  if (rule.enabled === false) return false;
  if (rule.validity?.length && !rule.validity.some((range) => now >= range.from && now <= range.until)) return false;
  if (!rule.conditions || rule.conditions.length === 0) return true;
  return rule.conditions.some((condition) => {
    if (condition.context !== undefined && !contexts.includes(condition.context)) return false;
    if (condition.pattern === undefined) return true;
    return patternMatches(query, words(condition.pattern), condition.anchoring ?? 'contains');
  });
}

function editQuery(query: string, edits: Array<{ type: string; delete: string; insert?: string }>): string {
  let out = query.split(/\s+/).filter(Boolean);
  for (const edit of edits) {
    const target = normalizeText(edit.delete);
    out = out.flatMap((word) =>
      normalizeText(word) === target ? (edit.type === 'replace' ? [edit.insert!] : []) : [word],
    );
  }
  return out.join(' ');
}

function listOf(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  const parsed = parseSearchParams({ [name]: value })[name];
  return Array.isArray(parsed) ? parsed : [];
}

export interface AppliedRules {
  raw: RawParams;
  /** Pinned records must match the query's filters (`filterPromotes` of an applied rule). */
  filterPromotes: boolean;
  /** The query's filters after the rules, before hidden and pinned records were excluded. */
  filters?: string;
  pins: Array<{ objectID: string; position: number }>;
  userData: unknown[];
  appliedRules: Array<{ objectID: string }>;
}

/**
 * Applies the index's rules to the raw parameters of a query.
 *
 * @example
 * const { raw, pins, userData } = applyRules(catalogRules, { query: 'cheap chair', ruleContexts: ['shop'] });
 */
export function applyRules(rules: Rule[], input: RawParams, now = Date.now() / 1000): AppliedRules {
  const result: AppliedRules = { raw: input, filterPromotes: false, pins: [], userData: [], appliedRules: [] };
  if (rules.length === 0 || (input.enableRules !== undefined && !flag(input.enableRules))) return result;
  const raw: RawParams = { ...input };
  const query = typeof raw.query === 'string' ? raw.query : '';
  const queryWords = words(query);
  const contexts = listOf(raw.ruleContexts, 'ruleContexts').map(String);
  const hidden: string[] = [];
  for (const rule of rules) {
    if (!ruleApplies(rule, queryWords, contexts, now)) continue;
    result.appliedRules.push({ objectID: rule.objectID });
    const { params, promote, hide, userData, filterPromotes } = rule.consequence;
    if (userData !== undefined) result.userData.push(userData);
    if (filterPromotes) result.filterPromotes = true;
    for (const item of hide ?? []) hidden.push(item.objectID);
    for (const item of promote ?? []) {
      const ids = item.objectID !== undefined ? [item.objectID] : (item.objectIDs ?? []);
      for (const [i, objectID] of ids.entries()) result.pins.push({ objectID, position: item.position + i });
    }
    for (const [name, value] of Object.entries(params ?? {})) {
      if (name === 'query') {
        if (typeof value === 'string') raw.query = value;
        else {
          const q = value as { edits?: Array<{ type: string; delete: string; insert?: string }>; remove?: string[] };
          const edits = [...(q.edits ?? []), ...(q.remove ?? []).map((word) => ({ type: 'remove', delete: word }))];
          raw.query = editQuery(typeof raw.query === 'string' ? raw.query : '', edits);
        }
      } else if (name === 'filters') {
        const own = typeof raw.filters === 'string' ? raw.filters.trim() : '';
        if (own) parseFilters(own);
        raw.filters = own ? `(${value as string}) AND (${own})` : value;
      } else if (FILTER_LISTS.includes(name)) {
        raw[name] = [...listOf(raw[name], name), ...listOf(value, name)];
      } else {
        raw[name] = value;
      }
    }
  }
  const pinnedIds = new Set<string>();
  result.pins = result.pins.filter(
    (pin) => !hidden.includes(pin.objectID) && !pinnedIds.has(pin.objectID) && pinnedIds.add(pin.objectID),
  );
  if (typeof raw.filters === 'string' && raw.filters.trim()) result.filters = raw.filters;
  const excluded = [...hidden, ...result.pins.map((pin) => pin.objectID)];
  if (excluded.length > 0) {
    const exclusion = excluded.map((id) => `NOT objectID:${JSON.stringify(id)}`).join(' AND ');
    const own = typeof raw.filters === 'string' ? raw.filters.trim() : '';
    if (own) parseFilters(own);
    raw.filters = own ? `(${own}) AND ${exclusion}` : exclusion;
  }
  result.raw = raw;
  return result;
}

export type PinnedSearchResponse = Record<string, unknown> & {
  hits: Array<Record<string, unknown> & { objectID: string }>;
  nbHits: number;
};
type Response = PinnedSearchResponse;

/**
 * Runs a search with pinned records: the organic results fill the positions the pins leave free.
 * `search` runs the engine with the given (raw) parameters.
 */
export function searchWithPins(
  index: IndexCore,
  raw: RawParams,
  pins: Array<{ objectID: string; position: number }>,
  search: (raw: RawParams) => Response,
  promoteFilters: { filterPromotes: boolean; filters?: string } = { filterPromotes: false },
): Response {
  const existing = pins
    .filter((pin) => index.getObject(pin.objectID) !== undefined)
    .sort((a, b) => a.position - b.position);
  if (existing.length === 0 || raw.offset !== undefined || raw.length !== undefined) return search(raw);
  const settings = index.getSettings() as { hitsPerPage: number; paginationLimitedTo: number };
  const hitsPerPage =
    raw.hitsPerPage !== undefined
      ? Number(parseSearchParams({ hitsPerPage: raw.hitsPerPage }).hitsPerPage)
      : settings.hitsPerPage;
  const page = raw.page !== undefined ? Number(parseSearchParams({ page: raw.page }).page) : 0;
  const start = page * hitsPerPage;
  const end = start + hitsPerPage;
  const before = existing.filter((pin) => pin.position < start).length;
  const inPage = existing.filter((pin) => pin.position >= start && pin.position < end);
  const { page: _page, hitsPerPage: _hpp, ...rest } = raw;
  const organic = search({ ...rest, offset: start - before, length: Math.max(0, hitsPerPage - inPage.length) });
  // A pinned record shows with its highlight when it matches the query, else with the empty query; it
  // ignores the query's filters unless filterPromotes (the search callback still applies the key's).
  const pinnedHit = (objectID: string) => {
    const { filters: _f, facetFilters: _ff, numericFilters: _nf, tagFilters: _tf, facets: _facets, ...base } = rest;
    const only: RawParams = { ...base, filters: `objectID:${JSON.stringify(objectID)}`, hitsPerPage: 1, page: 0 };
    if (promoteFilters.filterPromotes) {
      Object.assign(only, { facetFilters: _ff, numericFilters: _nf, tagFilters: _tf });
      if (promoteFilters.filters) only.filters = `(${promoteFilters.filters}) AND ${only.filters as string}`;
    }
    return search(only).hits[0] ?? search({ ...only, query: '' }).hits[0];
  };
  const hits: Response['hits'] = [];
  let next = 0;
  for (let position = start; position < end; position++) {
    const pin = inPage.find((item) => item.position === position);
    const hit = pin ? pinnedHit(pin.objectID) : organic.hits[next++];
    if (hit) hits.push(hit);
    else if (!pin) break;
  }
  const nbHits = organic.nbHits + existing.length;
  const response: Response = {
    ...organic,
    hits,
    nbHits,
    page,
    hitsPerPage,
    nbPages: hitsPerPage > 0 ? Math.ceil(Math.min(nbHits, settings.paginationLimitedTo) / hitsPerPage) : 0,
  };
  delete response.offset;
  delete response.length;
  return response;
}
