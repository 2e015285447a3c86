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
import { escapeHtml, normalizeText, parseFilters, parseSearchParams, tokenize } from '../engine/index.js';
import type { Rule } from '../storage/catalog.js';
import { validateIndexName } from '../storage/catalog.js';
import { validateSettingValue } from '../engine/settings.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';

const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'] as const;

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

export { applyRules, searchWithPins, type AppliedRules, type PinnedSearchResponse } from '../engine/index.js';

function words(text: string): string[] {
  return tokenize(text);
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
