/**
 * Applying the rules of an index to a search (document 1, Rules). A rule applies when one of its conditions
 * matches (pattern with anchoring `is`/`startsWith`/`endsWith`/`contains` on the normalised query words,
 * and/or a `context` among the query's `ruleContexts`; no conditions = always), it is enabled, within its
 * validity, and the query has not turned rules off (`enableRules=false`). Consequences: `params` (filters
 * ANDed, filter lists concatenated, a `query` string or `edits` replacing the query, other parameters
 * replacing the query's), `promote` (pinned positions, `pins.ts`), `hide`, `userData` (returned in
 * `userData`); `appliedRules` lists the rules used. A consequence's `params.renderingContent` replaces the
 * query's and the index's (the answer's `renderingContent`, `search/search.ts`).
 */
import { normalizeText, parseFilters, parseSearchParams, tokenize } from '../engine/index.js';
import { flag, type RawParams } from '../search/key-params.js';
import type { Rule } from '../storage/types.js';
import type { ANCHORINGS } from './validate.js';

const FILTER_LISTS = ['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters'];

export function words(text: string): string[] {
  return tokenize(text);
}

function startsWith(haystack: string[], needle: string[], at = 0): boolean {
  return needle.every((word, i) => haystack[at + i] === word);
}

function patternMatches(query: string[], pattern: string[], anchoring: (typeof ANCHORINGS)[number]): boolean {
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
