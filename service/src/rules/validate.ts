/**
 * A rule body (document 1, Rules), validated before it is stored: 400 naming the field. A rule applies when
 * one of its conditions matches (`apply.ts`); its consequence's search parameters are checked as a search's.
 */
import { parseFilters, parseSearchParams } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import type { Rule } from '../storage/types.js';

export const ANCHORINGS = ['is', 'startsWith', 'endsWith', 'contains'] as const;

/** The body must be a JSON object (400 naming it otherwise). */
function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError(400, `${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function fail(where: string, message: string): never {
  throw new ServiceError(400, `${where}: ${message}`);
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
      parseSearchParams(params);
      if (typeof params.filters === 'string' && params.filters.trim()) parseFilters(params.filters);
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
