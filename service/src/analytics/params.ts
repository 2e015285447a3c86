/**
 * The common parameters of the Analytics API (document 2, "Analytics common parameters"): `index`
 * (required), `startDate` / `endDate` (YYYY-MM-DD, UTC, inclusive; default the last 8 days including
 * today), `limit` / `offset`, and `tags` (an expression over `analyticsTags`).
 */
import { ServiceError } from '../errors.js';
import type { OrderBy, Period, TagExpression } from '../storage/types.js';

export type { Period, TagExpression } from '../storage/types.js';

export const DAY_MS = 86_400_000;
/** The longest period one call may cover (ten years of daily `dates`). */
export const MAX_PERIOD_DAYS = 3660;
/** "Analytics top lists: most frequent 1000". */
export const TOP_LIMIT = 1000;

/**
 * `YYYY-MM-DD` of a time, in UTC.
 *
 * @example
 * dayOf(Date.UTC(2026, 10, 22, 23, 59)) // '2026-11-22'
 */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function parseDay(name: string, text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(ms) || dayOf(ms) !== text || Number(match[1]) < 1970) {
    throw new ServiceError(400, `${name}: must be a date of the form YYYY-MM-DD (UTC), got ${JSON.stringify(text)}`);
  }
  return ms;
}

/**
 * The period of `startDate` / `endDate`; defaults: seven days ago 00:00 UTC to today 23:59:59.999 UTC.
 * 400 for a malformed or impossible date, an end before the start, or more than `MAX_PERIOD_DAYS` days.
 *
 * @example
 * parsePeriod(undefined, '2026-11-22', now) // 2026-11-15 00:00 → 2026-11-23 00:00
 */
export function parsePeriod(startDate: string | undefined, endDate: string | undefined, now: number): Period {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const start = startDate === undefined || startDate === '' ? today - 7 * DAY_MS : parseDay('startDate', startDate);
  const end = endDate === undefined || endDate === '' ? today : parseDay('endDate', endDate);
  if (end < start) throw new ServiceError(400, `endDate (${dayOf(end)}) is before startDate (${dayOf(start)})`);
  const count = (end - start) / DAY_MS + 1;
  if (count > MAX_PERIOD_DAYS)
    throw new ServiceError(400, `The period from startDate to endDate is limited to ${MAX_PERIOD_DAYS} days`);
  const days: string[] = [];
  for (let day = start; day <= end; day += DAY_MS) days.push(dayOf(day));
  return { from: start, to: end + DAY_MS, days };
}

/**
 * A non-negative integer parameter.
 *
 * @example
 * parseCount('limit', '20', 10, 1000) // 20
 */
export function parseCount(
  name: string,
  text: string | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'a non-negative integer' : `an integer from 0 to ${max}`;
    throw new ServiceError(400, `${name}: must be ${range}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * A boolean parameter (`true` / `false`).
 *
 * @example
 * parseBoolean('clickAnalytics', 'true', false) // true
 */
export function parseBoolean(name: string, text: string | undefined, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ServiceError(400, `${name}: must be true or false, got ${JSON.stringify(text)}`);
}

/** A parsed `tags` expression. */

/**
 * Parses `tags`: tags joined with `AND` / `OR` (upper case; `AND` binds tighter), parentheses, and
 * `"quoted tags"` for tags with spaces or parentheses. A search matches a tag when its `analyticsTags`
 * contain it exactly. `undefined` when the parameter is absent or blank; 400 when malformed.
 *
 * @example
 * parseTags('mobile OR (desktop AND "logged in")')
 */
export function parseTags(text: string | undefined): TagExpression | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const tokens: Array<{ kind: 'tag' | 'and' | 'or' | '(' | ')'; value: string }> = [];
  const fail = (message: string): never => {
    throw new ServiceError(400, `tags: ${message} in ${JSON.stringify(text)}`);
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char, value: char });
      i += 1;
    } else if (char === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) fail('unclosed quote');
      tokens.push({ kind: 'tag', value: text.slice(i + 1, close) });
      i = close + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s()"]/.test(text[j]!)) j += 1;
      const word = text.slice(i, j);
      tokens.push({ kind: word === 'AND' ? 'and' : word === 'OR' ? 'or' : 'tag', value: word });
      i = j;
    }
  }
  let at = 0;
  const factor = (): TagExpression => {
    const token = tokens[at];
    if (!token) return fail('a tag is missing at the end');
    if (token.kind === 'tag') {
      at += 1;
      return { tag: token.value };
    }
    if (token.kind === '(') {
      at += 1;
      const inner = expression();
      if (tokens[at]?.kind !== ')') fail('")" is missing');
      at += 1;
      return inner;
    }
    return fail(`unexpected "${token.value}"`);
  };
  const term = (): TagExpression => {
    const parts = [factor()];
    while (tokens[at]?.kind === 'and') {
      at += 1;
      parts.push(factor());
    }
    return parts.length === 1 ? parts[0]! : { and: parts };
  };
  const expression = (): TagExpression => {
    const parts = [term()];
    while (tokens[at]?.kind === 'or') {
      at += 1;
      parts.push(term());
    }
    return parts.length === 1 ? parts[0]! : { or: parts };
  };
  const parsed = expression();
  if (at < tokens.length) fail(`expected AND or OR before "${tokens[at]!.value}"`);
  return parsed;
}

/** The `orderBy` values of `/2/searches`. */
export const ORDER_BY: readonly OrderBy[] = [
  'searchCount',
  'clickThroughRate',
  'conversionRate',
  'averageClickPosition',
];
