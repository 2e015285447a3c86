/**
 * The figures of the Analytics API (document 2), worked out at each call from the counted searches
 * (`counted.ts`) — nothing is estimated or sampled. The reports that need no Insights event are aggregated in
 * SQLite; the others read the searches with their events.
 * Definitions: `docs/notes/analytics.md`.
 */
import type { AnalyticsReports, FilterOperator, OrderBy, Page, Scope } from '../../types.js';
import { byCountThen, ClickStats, CountedSearches, DAY_MS, ratio, topList, TOP_LIMIT } from './counted.js';

export class SqliteAnalyticsReports extends CountedSearches implements AnalyticsReports {
  /** `GET /2/status`: the time of the index's latest recorded search. */
  async status(index: string): Promise<{ updatedAt: string | null }> {
    const row = this.db.prepare('SELECT MAX(ts) AS ts FROM analytics_searches WHERE index_name = ?').get(index) as {
      ts: number | null;
    };
    return { updatedAt: row.ts === null ? null : new Date(row.ts).toISOString() };
  }

  /** `GET /2/searches`. */
  async topSearches(
    scope: Scope,
    options: Page & { clickAnalytics: boolean; orderBy: OrderBy; direction: 'asc' | 'desc' },
  ) {
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
        if (!group) {
          group = { search: search.query, count: 0, nbHits: 0, stats: new ClickStats() };
          groups.set(search.query, group);
        }
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
  async searchesCount(scope: Scope) {
    const perDay = scope.period.days.map(() => 0);
    for (const [day, n] of this.aggregate<[number, number]>(scope, 'DAY, COUNT(*)', 'GROUP BY 1')) perDay[day] = n;
    return {
      count: perDay.reduce((a, b) => a + b, 0),
      dates: scope.period.days.map((date, i) => ({ date, count: perDay[i]! })),
    };
  }

  /** `GET /2/searches/noResults`: queries answered with no hit, with how many of those had filters. */
  async noResults(scope: Scope, page: Page) {
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
  async noClicks(scope: Scope, page: Page) {
    const groups = new Map<string, { search: string; count: number; nbHits: number; clicked: boolean }>();
    for (const search of this.searches(scope, true)) {
      if (search.queryID === null || search.nbHits === 0) continue;
      let group = groups.get(search.query);
      if (!group) {
        group = { search: search.query, count: 0, nbHits: 0, clicked: false };
        groups.set(search.query, group);
      }
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
  async noResultRate(scope: Scope) {
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
  async noClickRate(scope: Scope) {
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
  async topHits(scope: Scope, options: Page & { clickAnalytics: boolean }) {
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
  async usersCount(scope: Scope) {
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
  async filterAttributes(scope: Scope, page: Page) {
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
  async countries(scope: Scope, page: Page) {
    const list = this.aggregate<[string, number]>(scope, 'a.country, COUNT(*)', 'AND a.country IS NOT NULL GROUP BY 1')
      .map(([country, count]) => ({ country, count }))
      .sort(byCountThen((item) => item.country));
    return { countries: topList(list, page) };
  }

  /** `GET /2/filters/{attributes}`: filter values of the given attributes by number of counted searches. */
  async filterValues(scope: Scope, attributes: string[], page: Page) {
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
  async filtersNoResults(scope: Scope & { search: string }, page: Page) {
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
  async averageClickPosition(scope: Scope) {
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
  async clickPositions(scope: Scope) {
    return { positions: this.clickStats(scope).total.clickPositions };
  }

  /** `GET /2/clicks/clickThroughRate`. */
  async clickThroughRate(scope: Scope) {
    const { total, perDay } = this.clickStats(scope);
    const shape = (stats: ClickStats) => ({
      rate: stats.clickThroughRate,
      clickCount: stats.clickCount,
      trackedSearchCount: stats.tracked,
    });
    return { ...shape(total), dates: [...perDay].map(([date, stats]) => ({ date, ...shape(stats) })) };
  }

  /** `GET /2/conversions/conversionRate`. */
  async conversionRate(scope: Scope) {
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
  async abTestVariant(abTestID: number, variant: number, index: string) {
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
}
