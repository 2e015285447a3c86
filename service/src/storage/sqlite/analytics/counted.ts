/**
 * The counted searches of a scope, from the recorded searches (`analytics_searches`) and the stored Insights
 * events (`insights_events`) — the ground every Analytics figure is computed from (`reports.ts`).
 *
 * Definitions:
 * - A counted search: a recorded search of the index in the period (by the time it was answered), that
 *   matches `tags`, and that is the last of its typing series — or, when folded into a later search, one
 *   the user clicked or converted on anyway.
 * - A tracked search: a counted search answered with a queryID (`clickAnalytics`).
 * - A click: one objectID of a click event that carries the queryID of a tracked search (so "Filter
 *   Applied" clicks, which have filters instead of objectIDs, are not result clicks); its position is the
 *   event's position for that objectID. A conversion: one objectID of a conversion event with the queryID
 *   (an event with filters instead counts once). Events count when they come at most one hour after their
 *   search (the conversion window of the document, "Events").
 * - Events belong to the day of their search, so a period's rates compare like with like.
 */
import type Database from 'better-sqlite3';
import { INSIGHTS_LIMITS } from 'svc-search/protocol';
import type { FilterOperator, Page, Scope, TagExpression } from '../../types.js';

export const DAY_MS = 86_400_000;
/** "Analytics top lists: most frequent 1000". */
export const TOP_LIMIT = 1000;

interface Click {
  objectID: string;
  position: number | null;
}

/** One counted search with the events that refer to it. */
export interface CountedSearch {
  id: number;
  ts: number;
  day: string;
  query: string;
  nbHits: number;
  userKey: string;
  queryID: string | null;
  /** Only when asked for (`parts.filters`). */
  filters: Array<[string, FilterOperator, string]>;
  hasFilters: boolean;
  /** Only when asked for (`parts.objectIDs`). */
  objectIDs: string[];
  clicks: Click[];
  /** One entry per converted objectID (`null` for a conversion event with filters). */
  conversions: Array<string | null>;
}

/** Click positions: 1 to 10 one by one, then 11–20, then 21 and beyond (`-1`: the end of the list). */
export const POSITION_BUCKETS: Array<[number, number]> = [
  [1, 1],
  [2, 2],
  [3, 3],
  [4, 4],
  [5, 5],
  [6, 6],
  [7, 7],
  [8, 8],
  [9, 9],
  [10, 10],
  [11, 20],
  [21, -1],
];

function bucketOf(position: number): number {
  return position <= 10 ? position - 1 : position <= 20 ? 10 : 11;
}

/** Click and conversion counters of a set of searches. */
export class ClickStats {
  tracked = 0;
  clickedSearches = 0;
  clickCount = 0;
  convertedSearches = 0;
  conversionCount = 0;
  positionSum = 0;
  positionCount = 0;
  readonly buckets = new Array<number>(POSITION_BUCKETS.length).fill(0);

  add(search: CountedSearch): void {
    if (search.queryID === null) return;
    this.tracked += 1;
    if (search.clicks.length > 0) this.clickedSearches += 1;
    if (search.conversions.length > 0) this.convertedSearches += 1;
    this.clickCount += search.clicks.length;
    this.conversionCount += search.conversions.length;
    for (const click of search.clicks) {
      if (click.position === null) continue;
      this.positionSum += click.position;
      this.positionCount += 1;
      this.buckets[bucketOf(click.position)]! += 1;
    }
  }

  /** Tracked searches with at least one click ÷ tracked searches; null without tracked searches. */
  get clickThroughRate(): number | null {
    return this.tracked === 0 ? null : this.clickedSearches / this.tracked;
  }

  get conversionRate(): number | null {
    return this.tracked === 0 ? null : this.convertedSearches / this.tracked;
  }

  /** Mean position of the clicks; null without a click. */
  get averageClickPosition(): number | null {
    return this.positionCount === 0 ? null : this.positionSum / this.positionCount;
  }

  get clickPositions(): Array<{ position: [number, number]; clickCount: number }> {
    return POSITION_BUCKETS.map((position, i) => ({ position, clickCount: this.buckets[i]! }));
  }
}

/** `a / b`, or null when there is nothing to divide by. */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/** The top list rule: the `TOP_LIMIT` first items, then `offset` / `limit` within them. */
export function topList<T>(sorted: T[], page: Page): T[] {
  const top = sorted.slice(0, TOP_LIMIT);
  return page.limit === 0 ? top.slice(page.offset) : top.slice(page.offset, page.offset + page.limit);
}

export function byCountThen<T extends { count: number }>(key: (item: T) => string) {
  return (a: T, b: T) => b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/**
 * The SQL condition of a tag expression on the JSON array column `column`, with its parameters.
 *
 * @example
 * tagsSql({ tag: 'mobile' }, 'a.tags') // { sql: 'EXISTS (SELECT 1 FROM json_each(a.tags) WHERE value = ?)', params: ['mobile'] }
 */
export function tagsSql(expression: TagExpression | undefined, column: string): { sql: string; params: string[] } {
  if (!expression) return { sql: '1', params: [] };
  if ('tag' in expression)
    return { sql: `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`, params: [expression.tag] };
  const parts = ('and' in expression ? expression.and : expression.or).map((part) => tagsSql(part, column));
  return {
    sql: `(${parts.map((part) => part.sql).join('and' in expression ? ' AND ' : ' OR ')})`,
    params: parts.flatMap((part) => part.params),
  };
}

/**
 * An Insights event that counts for a search (on `insights_events e` joined to `analytics_searches a`):
 * a result click (with objectIDs) or a conversion within one hour of the search, on either side (the
 * document's conversion window; an event stamped by a client whose clock runs behind can precede it).
 */
const COUNTED_EVENT = `(e.event_type = 'conversion' OR (e.event_type = 'click' AND e.object_ids IS NOT NULL))
  AND e.timestamp <= a.ts + ${INSIGHTS_LIMITS.conversionWindowMs}
  AND e.timestamp >= a.ts - ${INSIGHTS_LIMITS.conversionWindowMs}`;

/** Reads counted searches; the reports extend it. */
export class CountedSearches {
  constructor(protected readonly db: Database.Database) {}

  /** The WHERE clause of the counted searches of a scope (on `analytics_searches a`). */
  protected where(scope: Scope): { sql: string; params: Array<string | number> } {
    const tags = tagsSql(scope.tags, 'a.tags');
    const params: Array<string | number> = [scope.index, scope.period.from, scope.period.to, ...tags.params];
    let sql = `a.index_name = ? AND a.ts >= ? AND a.ts < ?
      AND (a.superseded = 0 OR (a.query_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM insights_events e WHERE e.query_id = a.query_id AND ${COUNTED_EVENT})))
      AND ${tags.sql}`;
    if (scope.search !== undefined) {
      sql += ' AND a.query = ?';
      params.push(scope.search);
    }
    if (scope.abTest !== undefined) {
      sql += ' AND a.ab_test_id = ? AND a.ab_test_variant = ?';
      params.push(scope.abTest.id, scope.abTest.variant);
    }
    return { sql, params };
  }

  /**
   * The counted searches of a scope, oldest first; with their events, filters and shown objectIDs only
   * when asked (parsing them is most of the cost on large periods).
   */
  protected searches(
    scope: Scope,
    withEvents: boolean,
    parts: { filters?: boolean; objectIDs?: boolean } = {},
  ): CountedSearch[] {
    const { sql, params } = this.where(scope);
    const rows = this.db
      .prepare(
        `SELECT a.id, a.ts, a.query, a.nb_hits, a.user_key, a.query_id,
           ${parts.filters ? 'a.filters' : "'[]'"}, ${parts.objectIDs ? 'a.object_ids' : "'[]'"}
         FROM analytics_searches a WHERE ${sql} ORDER BY a.ts, a.id`,
      )
      .raw(true)
      .all(...params) as Array<[number, number, string, number, string, string | null, string, string]>;
    const { from, days } = scope.period;
    const searches = rows.map(
      ([id, ts, query, nbHits, userKey, queryID, filters, objectIDs]): CountedSearch => ({
        id,
        ts,
        day: days[Math.floor((ts - from) / DAY_MS)]!,
        query,
        nbHits,
        userKey,
        queryID,
        filters: parts.filters ? (JSON.parse(filters) as Array<[string, FilterOperator, string]>) : [],
        hasFilters: parts.filters ? filters !== '[]' : false,
        objectIDs: parts.objectIDs ? (JSON.parse(objectIDs) as string[]) : [],
        clicks: [],
        conversions: [],
      }),
    );
    if (!withEvents) return searches;
    const byId = new Map(searches.map((search) => [search.id, search]));
    const events = this.db
      .prepare(
        `SELECT a.id AS sid, e.event_type, e.object_ids, e.positions
         FROM analytics_searches a JOIN insights_events e ON e.query_id = a.query_id
         WHERE ${sql} AND ${COUNTED_EVENT} ORDER BY e.timestamp, e.id`,
      )
      .all(...params) as Array<{
      sid: number;
      event_type: string;
      object_ids: string | null;
      positions: string | null;
    }>;
    for (const event of events) {
      const search = byId.get(event.sid);
      if (!search) continue;
      const objectIDs = event.object_ids === null ? null : (JSON.parse(event.object_ids) as string[]);
      if (event.event_type === 'click' && objectIDs) {
        const positions = event.positions === null ? [] : (JSON.parse(event.positions) as number[]);
        objectIDs.forEach((objectID, i) => {
          const position = positions[i];
          search.clicks.push({ objectID, position: typeof position === 'number' && position >= 1 ? position : null });
        });
      } else if (event.event_type === 'conversion') {
        if (objectIDs) search.conversions.push(...objectIDs);
        else search.conversions.push(null);
      }
    }
    return searches;
  }

  /**
   * Runs an aggregate over the counted searches of a scope in SQLite (no row reaches JavaScript): `select`
   * may use `DAY` (the 0-based day of the period) and ends up as `SELECT {select} FROM analytics_searches a{join}
   * WHERE … {rest}`.
   * The reports that need no Insights event are computed this way (≈ 10× faster than reading every search
   * on large periods); the others read the searches with their events (`searches`).
   */
  protected aggregate<T extends unknown[]>(scope: Scope, select: string, rest = '', join = ''): T[] {
    const { sql, params } = this.where(scope);
    const day = `((a.ts - ${Math.trunc(scope.period.from)}) / ${DAY_MS})`;
    return this.db
      .prepare(
        `SELECT ${select.replaceAll('DAY', day)} FROM analytics_searches a${join} WHERE ${sql} ${rest.replaceAll('DAY', day)}`,
      )
      .raw(true)
      .all(...params) as T[];
  }

  protected clickStats(scope: Scope): { total: ClickStats; perDay: Map<string, ClickStats> } {
    const total = new ClickStats();
    const perDay = new Map(scope.period.days.map((day) => [day, new ClickStats()]));
    for (const search of this.searches(scope, true)) {
      total.add(search);
      perDay.get(search.day)!.add(search);
    }
    return { total, perDay };
  }
}
