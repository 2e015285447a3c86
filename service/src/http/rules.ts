/**
 * Rules section of document 1: save, batch (with `clearExistingRules`), get, delete, clear and search
 * rules, each write with `forwardToReplicas`; and applying them to searches. A rule applies when one of
 * its conditions matches (pattern with anchoring `is`/`startsWith`/`endsWith`/`contains` on the
 * normalised query words, and/or a `context` among the query's `ruleContexts`; no conditions = always),
 * it is enabled, within its validity, and the query has not turned rules off (`enableRules=false`).
 * Consequences: `params` (filters ANDed, filter lists concatenated, a `query` string or `edits`
 * replacing the query, other parameters replacing the query's), `promote` (pinned positions), `hide`,
 * `userData` (returned in `userData`); `appliedRules` lists the rules used. A consequence's
 * `params.renderingContent` replaces the query's and the index's (the answer's `renderingContent`).
 */
import type { Context, Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { escapeHtml, normalizeText, parseFilters, parseSearchParams, tokenize, type Index } from '../engine/index.js';
import type { Rule } from '../storage/catalog.js';
import { validateIndexName } from '../storage/catalog.js';
import { validateSettingValue } from '../engine/settings.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';
import { flag, type RawParams } from './params.js';

const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'] as const;
const FILTER_LISTS = ['facetFilters', 'numericFilters', 'tagFilters', 'optionalFilters'];

// ---- validation -------------------------------------------------------------------------------------------

function fail(where: string, message: string): never {
  throw new HttpError(400, `${where}: ${message}`);
}

/**
 * Validates a rule body (400 naming the field).
 *
 * @example
 * validateRule({ objectID: 'r1', conditions: [{ pattern: 'cheap', anchoring: 'contains' }], consequence: { params: { filters: 'price < 20' } } })
 */
export function validateRule(input: unknown, where = 'The rule', objectID?: string): Rule {
  const rule = { ...asObject(input, where) } as Record<string, unknown>;
  if (objectID !== undefined) rule.objectID = objectID;
  if (typeof rule.objectID !== 'string' || rule.objectID === '') fail(where, 'objectID must be a non-empty string');
  if (rule.conditions !== undefined) {
    if (!Array.isArray(rule.conditions)) fail(where, 'conditions must be an array');
    rule.conditions.forEach((condition: unknown, i: number) => {
      const at = `${where}.conditions[${i}]`;
      const c = asObject(condition, at);
      if (c.pattern !== undefined && typeof c.pattern !== 'string') fail(at, 'pattern must be a string');
      if (c.anchoring !== undefined && !ANCHORINGS.includes(c.anchoring as never))
        fail(at, `anchoring must be one of ${ANCHORINGS.join(', ')}`);
      if (c.pattern !== undefined && c.anchoring === undefined) fail(at, 'a pattern needs an anchoring');
      if (c.context !== undefined && (typeof c.context !== 'string' || !/^[A-Za-z0-9_-]+$/.test(c.context))) {
        fail(at, 'context must be letters, digits, - or _');
      }
      if (c.alternatives !== undefined && typeof c.alternatives !== 'boolean')
        fail(at, 'alternatives must be a boolean');
      if (c.pattern === undefined && c.context === undefined) fail(at, 'a condition needs a pattern or a context');
    });
  }
  const consequence = asObject(rule.consequence, `${where}.consequence`);
  if (consequence.params !== undefined) {
    const { query, ...params } = asObject(consequence.params, `${where}.consequence.params`);
    try {
      const parsed = parseSearchParams(params);
      if (typeof params.filters === 'string' && params.filters.trim()) parseFilters(params.filters);
      if (parsed.renderingContent != null) validateSettingValue('renderingContent', parsed.renderingContent);
    } catch (error) {
      fail(`${where}.consequence.params`, (error as Error).message);
    }
    if (query !== undefined && typeof query !== 'string') {
      const q = asObject(query, `${where}.consequence.params.query`);
      if (q.edits !== undefined) {
        if (!Array.isArray(q.edits)) fail(`${where}.consequence.params.query`, 'edits must be an array');
        for (const edit of q.edits as unknown[]) {
          const e = asObject(edit, `${where}.consequence.params.query.edits[]`);
          if (e.type !== 'remove' && e.type !== 'replace')
            fail(`${where}.consequence.params.query.edits[]`, 'type must be remove or replace');
          if (typeof e.delete !== 'string')
            fail(`${where}.consequence.params.query.edits[]`, 'delete must be a string');
          if (e.type === 'replace' && typeof e.insert !== 'string')
            fail(`${where}.consequence.params.query.edits[]`, 'replace needs an insert string');
        }
      }
      if (q.remove !== undefined && (!Array.isArray(q.remove) || q.remove.some((word) => typeof word !== 'string'))) {
        fail(`${where}.consequence.params.query`, 'remove must be an array of words');
      }
    }
  }
  if (consequence.promote !== undefined) {
    if (!Array.isArray(consequence.promote)) fail(`${where}.consequence`, 'promote must be an array');
    for (const promote of consequence.promote as unknown[]) {
      const p = asObject(promote, `${where}.consequence.promote[]`);
      if (!Number.isInteger(p.position) || (p.position as number) < 0)
        fail(`${where}.consequence.promote[]`, 'position must be a non-negative integer');
      const single = typeof p.objectID === 'string' && p.objectID !== '';
      const several =
        Array.isArray(p.objectIDs) &&
        p.objectIDs.length > 0 &&
        p.objectIDs.every((id) => typeof id === 'string' && id !== '');
      if (single === several)
        fail(`${where}.consequence.promote[]`, 'give either objectID or a non-empty objectIDs array');
    }
  }
  if (consequence.hide !== undefined) {
    if (!Array.isArray(consequence.hide)) fail(`${where}.consequence`, 'hide must be an array');
    for (const hide of consequence.hide as unknown[]) {
      const h = asObject(hide, `${where}.consequence.hide[]`);
      if (typeof h.objectID !== 'string' || h.objectID === '')
        fail(`${where}.consequence.hide[]`, 'objectID must be a non-empty string');
    }
  }
  if (consequence.filterPromotes !== undefined && typeof consequence.filterPromotes !== 'boolean')
    fail(`${where}.consequence`, 'filterPromotes must be a boolean');
  if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') fail(where, 'enabled must be a boolean');
  if (rule.description !== undefined && typeof rule.description !== 'string')
    fail(where, 'description must be a string');
  if (rule.validity !== undefined) {
    if (!Array.isArray(rule.validity)) fail(where, 'validity must be an array of {from, until}');
    for (const range of rule.validity as unknown[]) {
      const r = asObject(range, `${where}.validity[]`);
      if (typeof r.from !== 'number' || typeof r.until !== 'number')
        fail(`${where}.validity[]`, 'from and until must be Unix timestamps (seconds)');
    }
  }
  return rule as Rule;
}

// ---- applying rules to a search ---------------------------------------------------------------------------

function words(text: string): string[] {
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
      ids.forEach((objectID, i) => result.pins.push({ objectID, position: item.position + i }));
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
  index: Index,
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

// ---- routes ---------------------------------------------------------------------------------------------

function highlight(
  text: string,
  queryWords: string[],
): { value: string; matchLevel: 'none' | 'partial' | 'full'; matchedWords: string[] } {
  const matched: string[] = [];
  const value = text
    .split(/(\s+)/)
    .map((part) => {
      const word = normalizeText(part);
      const hit = queryWords.find((queryWord) => word.startsWith(queryWord) && queryWord !== '');
      if (!hit) return escapeHtml(part);
      if (!matched.includes(hit)) matched.push(hit);
      return `<em>${escapeHtml(part)}</em>`;
    })
    .join('');
  const matchLevel = matched.length === 0 ? 'none' : matched.length === queryWords.length ? 'full' : 'partial';
  return { value, matchLevel, matchedWords: matched };
}

export function register(app: Hono, ctx: ServiceContext): void {
  const { catalog } = internalsOf(ctx);
  const now = () => new Date().toISOString();
  const forward = (c: Context) => {
    const value = c.req.query('forwardToReplicas');
    if (value !== undefined && value !== 'true' && value !== 'false')
      throw new HttpError(400, 'forwardToReplicas must be true or false');
    return value === 'true';
  };
  const target = (c: Context, right: 'settings' | 'editSettings') => {
    const indexName = c.req.param('indexName')!;
    ctx.authorize(c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };

  app.post('/1/indexes/:indexName/rules/batch', async (c) => {
    const indexName = target(c, 'editSettings');
    const body = await ctx.readJson(c);
    if (!Array.isArray(body)) throw new HttpError(400, 'The body must be a JSON array of rules');
    const rules = body.map((rule, i) => validateRule(rule, `rules[${i}]`));
    const clearValue = c.req.query('clearExistingRules');
    if (clearValue !== undefined && clearValue !== 'true' && clearValue !== 'false')
      throw new HttpError(400, 'clearExistingRules must be true or false');
    const forwardToReplicas = forward(c);
    const { taskID } = catalog.write(indexName, 'rules', () =>
      catalog.saveRules(indexName, rules, clearValue === 'true', forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/rules/clear', (c) => {
    const indexName = target(c, 'editSettings');
    const forwardToReplicas = forward(c);
    const { taskID } = catalog.write(indexName, 'rules', () => catalog.clearRules(indexName, forwardToReplicas));
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/rules/search', async (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const body = asObject(await ctx.readJson(c));
    const query = body.query ?? '';
    if (typeof query !== 'string') throw new HttpError(400, '`query` must be a string');
    const page = body.page ?? 0;
    const hitsPerPage = body.hitsPerPage ?? 20;
    if (!Number.isInteger(page) || (page as number) < 0)
      throw new HttpError(400, '`page` must be a non-negative integer');
    if (!Number.isInteger(hitsPerPage) || (hitsPerPage as number) < 1 || (hitsPerPage as number) > 1000)
      throw new HttpError(400, '`hitsPerPage` must be an integer from 1 to 1000');
    if (body.anchoring !== undefined && !ANCHORINGS.includes(body.anchoring as never))
      throw new HttpError(400, `\`anchoring\` must be one of ${ANCHORINGS.join(', ')}`);
    if (body.context !== undefined && typeof body.context !== 'string')
      throw new HttpError(400, '`context` must be a string');
    if (body.enabled !== undefined && body.enabled !== null && typeof body.enabled !== 'boolean')
      throw new HttpError(400, '`enabled` must be a boolean');
    const queryWords = words(query);
    const matching = catalog.rules(indexName).filter((rule) => {
      if (typeof body.enabled === 'boolean' && (rule.enabled !== false) !== body.enabled) return false;
      if (body.anchoring !== undefined && !rule.conditions?.some((condition) => condition.anchoring === body.anchoring))
        return false;
      if (body.context !== undefined && !rule.conditions?.some((condition) => condition.context === body.context))
        return false;
      if (queryWords.length === 0) return true;
      const text = [
        rule.objectID,
        rule.description ?? '',
        ...(rule.conditions ?? []).map((condition) => condition.pattern ?? ''),
      ].join(' ');
      const ruleWords = words(text);
      return queryWords.every((queryWord) => ruleWords.some((word) => word.startsWith(queryWord)));
    });
    const from = (page as number) * (hitsPerPage as number);
    const hits = matching.slice(from, from + (hitsPerPage as number)).map((rule) => ({
      ...rule,
      _highlightResult: {
        objectID: highlight(rule.objectID, queryWords),
        ...(rule.description !== undefined ? { description: highlight(rule.description, queryWords) } : {}),
        ...(rule.conditions
          ? {
              conditions: rule.conditions.map((condition) =>
                condition.pattern !== undefined ? { pattern: highlight(condition.pattern, queryWords) } : {},
              ),
            }
          : {}),
      },
    }));
    return c.json({
      hits,
      nbHits: matching.length,
      page,
      nbPages: Math.ceil(matching.length / (hitsPerPage as number)),
    });
  });

  app.put('/1/indexes/:indexName/rules/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    const objectID = c.req.param('objectID');
    const rule = validateRule(await ctx.readJson(c), 'The rule', objectID);
    const forwardToReplicas = forward(c);
    const { taskID } = catalog.write(indexName, 'rules', () =>
      catalog.saveRules(indexName, [rule], false, forwardToReplicas),
    );
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.get('/1/indexes/:indexName/rules/:objectID', (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const rule = catalog.getRule(indexName, c.req.param('objectID'));
    if (!rule) throw new HttpError(404, `Rule ${c.req.param('objectID')} does not exist in index ${indexName}`);
    return c.json(rule);
  });

  app.delete('/1/indexes/:indexName/rules/:objectID', (c) => {
    const indexName = target(c, 'editSettings');
    const objectID = c.req.param('objectID');
    catalog.require(indexName);
    if (!catalog.getRule(indexName, objectID))
      throw new HttpError(404, `Rule ${objectID} does not exist in index ${indexName}`);
    const forwardToReplicas = forward(c);
    const { taskID } = catalog.write(indexName, 'rules', () =>
      catalog.deleteRule(indexName, objectID, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });
}
