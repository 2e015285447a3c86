/**
 * The figures of the Analytics API, worked out from the recorded searches (`analytics_searches`) and the
 * stored Insights events (`insights_events`) at each call — nothing is estimated or sampled.
 *
 * Definitions (see `docs/notes/analytics.md`):
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
import { EVENT_LIMITS } from '../insights/validate.js';
import type { FilterOperator } from '../storage/analytics-log.js';
import { DAY_MS, tagsSql, TOP_LIMIT, type Period, type TagExpression } from './params.js';

/** What a call asks about. */
export interface Scope {
  index: string;
  period: Period;
  tags?: TagExpression | undefined;
  /** Only searches whose query is exactly this (the `search` parameter). */
  search?: string | undefined;
  /** Only the searches of one A/B test variant (`analytics_searches.ab_test_id` / `ab_test_variant`). */
  abTest?: { id: number; variant: number } | undefined;
}

export interface Page {
  /** 0 = no limit (the whole top list from `offset`). */
  limit: number;
  offset: number;
}

interface Click {
  objectID: string;
  position: number | null;
}

/** One counted search with the events that refer to it. */
interface CountedSearch {
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
class ClickStats {
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
function ratio(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/** The top list rule: the `TOP_LIMIT` first items, then `offset` / `limit` within them. */
function topList<T>(sorted: T[], page: Page): T[] {
  const top = sorted.slice(0, TOP_LIMIT);
  return page.limit === 0 ? top.slice(page.offset) : top.slice(page.offset, page.offset + page.limit);
}

function byCountThen<T extends { count: number }>(key: (item: T) => string) {
  return (a: T, b: T) => b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

export type OrderBy = 'searchCount' | 'clickThroughRate' | 'conversionRate' | 'averageClickPosition';
export const ORDER_BY: readonly OrderBy[] = [
  'searchCount',
  'clickThroughRate',
  'conversionRate',
  'averageClickPosition',
];

export class AnalyticsReports {
  constructor(private readonly db: Database.Database) {}

  /** The WHERE clause of the counted searches of a scope (on `analytics_searches a`). */
  private where(scope: Scope): { sql: string; params: Array<string | number> } {
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
  private searches(
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
  private aggregate<T extends unknown[]>(scope: Scope, select: string, rest = '', join = ''): T[] {
    const { sql, params } = this.where(scope);
    const day = `((a.ts - ${Math.trunc(scope.period.from)}) / ${DAY_MS})`;
    return this.db
      .prepare(
        `SELECT ${select.replaceAll('DAY', day)} FROM analytics_searches a${join} WHERE ${sql} ${rest.replaceAll('DAY', day)}`,
      )
      .raw(true)
      .all(...params) as T[];
  }

  /** `GET /2/status`: the time of the index's latest recorded search. */
  status(index: string): { updatedAt: string | null } {
    const row = this.db.prepare('SELECT MAX(ts) AS ts FROM analytics_searches WHERE index_name = ?').get(index) as {
      ts: number | null;
    };
    return { updatedAt: row.ts === null ? null : new Date(row.ts).toISOString() };
  }

  /** `GET /2/searches`. */
  topSearches(scope: Scope, options: Page & { clickAnalytics: boolean; orderBy: OrderBy; direction: 'asc' | 'desc' }) {
    const groups = new Map<string, { search: string; count: number; nbHits: number; stats: ClickStats }>();
    if (!options.clickAnalytics && options.orderBy === 'searchCount') {
      // No event is needed: SQLite counts per query and keeps the latest search's nbHits (ts, then id).
      const { sql, params } = this.where(scope);
      const rows = this.db
        .prepare(
          `SELECT query, n, nb_hits FROM (
             SELECT a.query, COUNT(*) OVER (PARTITION BY a.query) AS n, a.nb_hits,
               ROW_NUMBER() OVER (PARTITION BY a.query ORDER BY a.ts DESC, a.id DESC) AS rn
             FROM analytics_searches a WHERE ${sql}) WHERE rn = 1`,
        )
        .raw(true)
        .all(...params) as Array<[string, number, number]>;
      for (const [search, count, nbHits] of rows)
        groups.set(search, { search, count, nbHits, stats: new ClickStats() });
    } else {
      for (const search of this.searches(scope, options.clickAnalytics)) {
        let group = groups.get(search.query);
        if (!group)
          groups.set(search.query, (group = { search: search.query, count: 0, nbHits: 0, stats: new ClickStats() }));
        group.count += 1;
        group.nbHits = search.nbHits; // oldest first: the latest search's number of hits wins
        group.stats.add(search);
      }
    }
    const top = [...groups.values()].sort(byCountThen((group) => group.search)).slice(0, TOP_LIMIT);
    const value = (group: (typeof top)[number]): number | null =>
      options.orderBy === 'searchCount'
        ? group.count
        : options.orderBy === 'clickThroughRate'
          ? group.stats.clickThroughRate
          : options.orderBy === 'conversionRate'
            ? group.stats.conversionRate
            : group.stats.averageClickPosition;
    const sign = options.direction === 'asc' ? 1 : -1;
    top.sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va === null || vb === null) {
        if (va !== vb) return va === null ? 1 : -1; // no figure: last, whatever the direction
      } else if (va !== vb) return sign * (va - vb);
      return byCountThen<(typeof top)[number]>((group) => group.search)(a, b);
    });
    return {
      searches: topList(top, options).map((group) => {
        if (!options.clickAnalytics) return { search: group.search, count: group.count, nbHits: group.nbHits };
        const { stats } = group;
        return {
          search: group.search,
          count: group.count,
          nbHits: group.nbHits,
          clickThroughRate: stats.clickThroughRate,
          averageClickPosition: stats.averageClickPosition,
          clickPositions: stats.clickPositions,
          conversionRate: stats.conversionRate,
          trackedSearchCount: stats.tracked,
          clickCount: stats.clickCount,
          conversionCount: stats.conversionCount,
        };
      }),
    };
  }

  /** `GET /2/searches/count`. */
  searchesCount(scope: Scope) {
    const perDay = scope.period.days.map(() => 0);
    for (const [day, n] of this.aggregate<[number, number]>(scope, 'DAY, COUNT(*)', 'GROUP BY 1')) perDay[day] = n;
    return {
      count: perDay.reduce((a, b) => a + b, 0),
      dates: scope.period.days.map((date, i) => ({ date, count: perDay[i]! })),
    };
  }

  /** `GET /2/searches/noResults`: queries answered with no hit, with how many of those had filters. */
  noResults(scope: Scope, page: Page) {
    const groups = this.aggregate<[string, number, number]>(
      scope,
      "a.query, COUNT(*), SUM(a.filters != '[]')",
      'AND a.nb_hits = 0 GROUP BY 1',
    ).map(([search, count, withFilterCount]) => ({ search, count, withFilterCount }));
    return { searches: topList(groups.sort(byCountThen((group) => group.search)), page) };
  }

  /**
   * `GET /2/searches/noClicks`: queries whose tracked searches with results got no click at all in the
   * period; `count` is their number of tracked searches with results, `nbHits` the latest one's.
   */
  noClicks(scope: Scope, page: Page) {
    const groups = new Map<string, { search: string; count: number; nbHits: number; clicked: boolean }>();
    for (const search of this.searches(scope, true)) {
      if (search.queryID === null || search.nbHits === 0) continue;
      let group = groups.get(search.query);
      if (!group) groups.set(search.query, (group = { search: search.query, count: 0, nbHits: 0, clicked: false }));
      group.count += 1;
      group.nbHits = search.nbHits;
      if (search.clicks.length > 0) group.clicked = true;
    }
    const list = [...groups.values()]
      .filter((group) => !group.clicked)
      .map(({ search, count, nbHits }) => ({ search, count, nbHits }))
      .sort(byCountThen((group) => group.search));
    return { searches: topList(list, page) };
  }

  /** `GET /2/searches/noResultRate`. */
  noResultRate(scope: Scope) {
    const perDay = scope.period.days.map(() => ({ count: 0, noResultCount: 0 }));
    const total = { count: 0, noResultCount: 0 };
    for (const [day, count, noResultCount] of this.aggregate<[number, number, number]>(
      scope,
      'DAY, COUNT(*), SUM(a.nb_hits = 0)',
      'GROUP BY 1',
    )) {
      perDay[day] = { count, noResultCount };
      total.count += count;
      total.noResultCount += noResultCount;
    }
    const shape = (c: { count: number; noResultCount: number }) => ({
      rate: ratio(c.noResultCount, c.count),
      count: c.count,
      noResultCount: c.noResultCount,
    });
    return { ...shape(total), dates: scope.period.days.map((date, i) => ({ date, ...shape(perDay[i]!) })) };
  }

  /**
   * `GET /2/searches/noClickRate`: tracked searches with results that got no click ÷ tracked searches
   * with results (`count`).
   */
  noClickRate(scope: Scope) {
    const perDay = new Map(scope.period.days.map((day) => [day, { count: 0, noClickCount: 0 }]));
    const total = { count: 0, noClickCount: 0 };
    for (const search of this.searches(scope, true)) {
      if (search.queryID === null || search.nbHits === 0) continue;
      const day = perDay.get(search.day)!;
      for (const counter of [day, total]) {
        counter.count += 1;
        if (search.clicks.length === 0) counter.noClickCount += 1;
      }
    }
    const shape = (c: { count: number; noClickCount: number }) => ({
      rate: ratio(c.noClickCount, c.count),
      count: c.count,
      noClickCount: c.noClickCount,
    });
    return { ...shape(total), dates: [...perDay].map(([date, c]) => ({ date, ...shape(c) })) };
  }

  /**
   * `GET /2/hits`: the objectIDs the counted searches showed (on the page they answered), most shown
   * first; with clickAnalytics the clicks and conversions of each objectID in the tracked searches that
   * showed it.
   */
  topHits(scope: Scope, options: Page & { clickAnalytics: boolean }) {
    interface HitGroup {
      hit: string;
      count: number;
      tracked: number;
      clickedSearches: number;
      clickCount: number;
      convertedSearches: number;
      conversionCount: number;
    }
    const groups = new Map<string, HitGroup>();
    for (const search of this.searches(scope, options.clickAnalytics, { objectIDs: true })) {
      for (const objectID of search.objectIDs) {
        let group = groups.get(objectID);
        if (!group) {
          group = {
            hit: objectID,
            count: 0,
            tracked: 0,
            clickedSearches: 0,
            clickCount: 0,
            convertedSearches: 0,
            conversionCount: 0,
          };
          groups.set(objectID, group);
        }
        group.count += 1;
        if (search.queryID === null) continue;
        group.tracked += 1;
        const clicks = search.clicks.filter((click) => click.objectID === objectID).length;
        const conversions = search.conversions.filter((id) => id === objectID).length;
        group.clickCount += clicks;
        group.conversionCount += conversions;
        if (clicks > 0) group.clickedSearches += 1;
        if (conversions > 0) group.convertedSearches += 1;
      }
    }
    const list = topList([...groups.values()].sort(byCountThen((group) => group.hit)), options);
    return {
      hits: list.map((group) =>
        options.clickAnalytics
          ? {
              hit: group.hit,
              count: group.count,
              clickThroughRate: ratio(group.clickedSearches, group.tracked),
              conversionRate: ratio(group.convertedSearches, group.tracked),
              trackedSearchCount: group.tracked,
              // The name the hosted API family's clients read for the same figure.
              trackedHitCount: group.tracked,
              clickCount: group.clickCount,
              conversionCount: group.conversionCount,
            }
          : { hit: group.hit, count: group.count },
      ),
    };
  }

  /** `GET /2/users/count`: distinct users over the period (not the sum of the days) and per day. */
  usersCount(scope: Scope) {
    // One pass: the distinct (day, user) pairs; the period's users are the distinct users among them.
    const perDay = scope.period.days.map(() => 0);
    const users = new Set<string>();
    for (const [day, user] of this.aggregate<[number, string]>(scope, 'DISTINCT DAY, a.user_key')) {
      perDay[day]! += 1;
      users.add(user);
    }
    return { count: users.size, dates: scope.period.days.map((date, i) => ({ date, count: perDay[i]! })) };
  }

  /** `GET /2/filters` (and `?search=`): attributes by the number of counted searches filtering on them. */
  filterAttributes(scope: Scope, page: Page) {
    const list = this.aggregate<[string, number]>(
      scope,
      "json_extract(f.value, '$[0]'), COUNT(DISTINCT a.id)",
      'GROUP BY 1',
      ', json_each(a.filters) f',
    )
      .map(([attribute, count]) => ({ attribute, count }))
      .sort(byCountThen((item) => item.attribute));
    return { attributes: topList(list, page) };
  }

  /**
   * `GET /2/countries`: counted searches by the country a proxy gave their request (`CF-IPCountry`,
   * `X-Country-Code` or the configured header); searches without one are not counted here.
   */
  countries(scope: Scope, page: Page) {
    const list = this.aggregate<[string, number]>(scope, 'a.country, COUNT(*)', 'AND a.country IS NOT NULL GROUP BY 1')
      .map(([country, count]) => ({ country, count }))
      .sort(byCountThen((item) => item.country));
    return { countries: topList(list, page) };
  }

  /** `GET /2/filters/{attributes}`: filter values of the given attributes by number of counted searches. */
  filterValues(scope: Scope, attributes: string[], page: Page) {
    const wanted = new Set(attributes);
    const list = this.aggregate<[string, FilterOperator, string, number]>(
      scope,
      "json_extract(f.value, '$[0]'), json_extract(f.value, '$[1]'), json_extract(f.value, '$[2]'), COUNT(*)",
      'GROUP BY 1, 2, 3',
      ', json_each(a.filters) f',
    )
      .filter(([attribute]) => wanted.has(attribute))
      .map(([attribute, operator, value, count]) => ({ attribute, operator, value, count }))
      .sort(byCountThen((item) => `${item.attribute}\u0000${item.operator}\u0000${item.value}`));
    return { values: topList(list, page) };
  }

  /**
   * `GET /2/filters/noResults?search=`: the filter combinations of the query's searches without
   * results, most frequent first; `null` when the query has no search without results in the period.
   */
  filtersNoResults(scope: Scope & { search: string }, page: Page) {
    const groups = new Map<
      string,
      { count: number; values: Array<{ attribute: string; operator: FilterOperator; value: string }> }
    >();
    let noResultSearches = 0;
    for (const search of this.searches(scope, false, { filters: true })) {
      if (search.nbHits !== 0) continue;
      noResultSearches += 1;
      if (search.filters.length === 0) continue;
      const sorted = [...search.filters].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
      const id = JSON.stringify(sorted);
      const group = groups.get(id);
      if (group) group.count += 1;
      else
        groups.set(id, {
          count: 1,
          values: sorted.map(([attribute, operator, value]) => ({ attribute, operator, value })),
        });
    }
    if (noResultSearches === 0) return { values: null };
    const list = [...groups.entries()]
      .sort(([idA, a], [idB, b]) => b.count - a.count || (idA < idB ? -1 : 1))
      .map(([, group]) => group);
    return { values: topList(list, page) };
  }

  /** `GET /2/clicks/averageClickPosition`. */
  averageClickPosition(scope: Scope) {
    const { total, perDay } = this.clickStats(scope);
    return {
      average: total.averageClickPosition,
      clickCount: total.clickCount,
      dates: [...perDay].map(([date, stats]) => ({
        date,
        average: stats.averageClickPosition,
        clickCount: stats.clickCount,
      })),
    };
  }

  /** `GET /2/clicks/positions`: clicks per position bucket. */
  clickPositions(scope: Scope) {
    return { positions: this.clickStats(scope).total.clickPositions };
  }

  /** `GET /2/clicks/clickThroughRate`. */
  clickThroughRate(scope: Scope) {
    const { total, perDay } = this.clickStats(scope);
    const shape = (stats: ClickStats) => ({
      rate: stats.clickThroughRate,
      clickCount: stats.clickCount,
      trackedSearchCount: stats.tracked,
    });
    return { ...shape(total), dates: [...perDay].map(([date, stats]) => ({ date, ...shape(stats) })) };
  }

  /** `GET /2/conversions/conversionRate`. */
  conversionRate(scope: Scope) {
    const { total, perDay } = this.clickStats(scope);
    const shape = (stats: ClickStats) => ({
      rate: stats.conversionRate,
      trackedSearchCount: stats.tracked,
      conversionCount: stats.conversionCount,
    });
    return { ...shape(total), dates: [...perDay].map(([date, stats]) => ({ date, ...shape(stats) })) };
  }

  /**
   * The figures of one A/B test variant (document 2, "A/B test", variant metrics), over the counted
   * searches the variant was assigned, with the same definitions as every report: `searchCount` (as
   * `/2/searches/count`), `trackedSearchCount`, `noResultCount` (as `/2/searches/noResultRate`),
   * `userCount` (distinct, as `/2/users/count`), `clickCount` / `conversionCount` / `clickThroughRate` /
   * `conversionRate` / `averageClickPosition` (as the click endpoints), plus the numerators of the two
   * rates (`clickedSearchCount`, `convertedSearchCount`) for the significance tests. `undefined` when the
   * variant has no counted search. The period is the whole days from the test's first to its last
   * recorded search.
   *
   * @example
   * reports.abTestVariant(7, 2, 'products_b')?.clickThroughRate // 0.25
   */
  abTestVariant(abTestID: number, variant: number, index: string) {
    const span = this.db
      .prepare(
        'SELECT MIN(ts) AS first, MAX(ts) AS last FROM analytics_searches WHERE ab_test_id = ? AND ab_test_variant = ?',
      )
      .get(abTestID, variant) as { first: number | null; last: number | null };
    if (span.first === null || span.last === null) return undefined;
    const from = Math.floor(span.first / DAY_MS) * DAY_MS;
    const days: string[] = [];
    for (let day = from; day <= span.last; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
    const period = { from, to: from + days.length * DAY_MS, days };
    const stats = new ClickStats();
    const users = new Set<string>();
    let searchCount = 0;
    let noResultCount = 0;
    for (const search of this.searches({ index, period, abTest: { id: abTestID, variant } }, true)) {
      searchCount += 1;
      if (search.nbHits === 0) noResultCount += 1;
      users.add(search.userKey);
      stats.add(search);
    }
    if (searchCount === 0) return undefined;
    return {
      searchCount,
      trackedSearchCount: stats.tracked,
      noResultCount,
      userCount: users.size,
      clickCount: stats.clickCount,
      conversionCount: stats.conversionCount,
      clickThroughRate: stats.clickThroughRate,
      conversionRate: stats.conversionRate,
      averageClickPosition: stats.averageClickPosition,
      clickedSearchCount: stats.clickedSearches,
      convertedSearchCount: stats.convertedSearches,
    };
  }

  private clickStats(scope: Scope): { total: ClickStats; perDay: Map<string, ClickStats> } {
    const total = new ClickStats();
    const perDay = new Map(scope.period.days.map((day) => [day, new ClickStats()]));
    for (const search of this.searches(scope, true)) {
      total.add(search);
      perDay.get(search.day)!.add(search);
    }
    return { total, perDay };
  }
}

/**
 * An Insights event that counts for a search (on `insights_events e` joined to `analytics_searches a`):
 * a result click (with objectIDs) or a conversion within one hour of the search, on either side (the
 * document's conversion window; an event stamped by a client whose clock runs behind can precede it).
 */
const COUNTED_EVENT = `(e.event_type = 'conversion' OR (e.event_type = 'click' AND e.object_ids IS NOT NULL))
  AND e.timestamp <= a.ts + ${EVENT_LIMITS.conversionWindowMs}
  AND e.timestamp >= a.ts - ${EVENT_LIMITS.conversionWindowMs}`;
