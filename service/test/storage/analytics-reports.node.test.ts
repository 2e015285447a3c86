/**
 * The Analytics reports that SQL aggregates (searches count, users count, no-result rate, no-result
 * searches, top searches without clickAnalytics) against the same figures worked out in this test from
 * the counted searches, one by one, as the reports with events read them. A seeded random log (typing
 * series, searches clicked after being folded, filters on two attributes, equal timestamps, filters, tags,
 * several indices) written through the storage interface of a real service on the suite's storage (on
 * PostgreSQL, the reports read a copy of the scope's rows); the counted searches are read from the same log
 * in an in-memory SQLite service. The hand-worked cases of every report are in ../http-analytics*.node.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AnalyticsLog } from '../../src/analytics/log.js';
import { createService, type Service } from '../../src/index.js';
import { SqliteAnalyticsReports } from '../../src/storage/sqlite/analytics/reports.js';
import type { AnalyticsFilter, AnalyticsReports, AnalyticsSearch, Scope } from '../../src/storage/types.js';
import { databaseOf, storageOptions } from '../service-helpers.js';

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 10, 1);
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];

/** Mulberry32: the same log on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let dir: string;
/** The service under test, on the suite's storage (SQLite, or PostgreSQL in `test:postgres`). */
let service: Service;
/** The same log in an in-memory SQLite service: where the counted searches are read one by one. */
let reference: Service;
let reports: AnalyticsReports;

/** The seeded log: every search, in order, with a flush after every 500, and the clicks on tracked ones. */
function seededLog() {
  const rnd = random(7);
  const words = ['chair', 'desk', 'lamp', 'table', 'paper', 'binder', 'phone', 'label'];
  const batches: AnalyticsSearch[][] = [[]];
  const clicked: Array<{ queryID: string; ts: number; userToken: string }> = [];
  let ts = FROM - DAY / 2; // half a day before the period: left out
  for (let i = 0; i < 3000; i += 1) {
    ts += Math.floor(rnd() * 260_000); // ≈ 4.5 days in all, some gaps shorter than the typing window
    const word = words[Math.floor(rnd() * words.length)]!;
    const typing = rnd() < 0.3;
    const query = typing ? word.slice(0, 1 + Math.floor(rnd() * word.length)) : word;
    const user = `user-${Math.floor(rnd() * 40)}`;
    const queryID = rnd() < 0.5 ? `q${i}` : undefined;
    const nbHits = rnd() < 0.2 ? 0 : Math.floor(rnd() * 50);
    const filters: AnalyticsFilter[] = [];
    if (rnd() < 0.3) filters.push({ attribute: 'brand', operator: ':', value: rnd() < 0.5 ? 'Acme' : 'Globex' });
    if (rnd() < 0.2) filters.push({ attribute: 'price', operator: '>=', value: String(10 * Math.floor(rnd() * 3)) });
    if (rnd() < 0.05) filters.push({ attribute: 'brand', operator: ':', value: 'Initech' }); // twice the same attribute
    batches.at(-1)!.push({
      indexName: rnd() < 0.9 ? 'shop' : 'other',
      ts: rnd() < 0.1 ? ts - 1 : ts, // equal and out-of-order timestamps
      query,
      nbHits,
      userKey: user,
      anonymous: false,
      ...(queryID ? { queryID } : {}),
      page: 0,
      hitsPerPage: 20,
      objectIDs: nbHits ? ['1', '2'] : [],
      filters,
      tags: rnd() < 0.3 ? ['mobile'] : [],
    });
    if (queryID && rnd() < 0.3) clicked.push({ queryID, ts: ts + 1000, userToken: user });
    if (i % 500 === 499) batches.push([]);
  }
  return { batches, clicked };
}

/** Records the log through the Analytics log (typing series folded as the service folds them) and the clicks. */
async function record(target: Service, { batches, clicked }: ReturnType<typeof seededLog>): Promise<void> {
  const log = new AnalyticsLog(target.services.storage.analytics);
  for (const batch of batches) {
    for (const search of batch) log.record(search);
    await log.flush();
  }
  await target.services.insights.append(
    clicked.map(({ queryID, ts: time, userToken }) => ({
      eventType: 'click' as const,
      eventName: 'Hit Clicked',
      index: 'shop',
      userToken,
      queryID,
      objectIDs: ['1'],
      positions: [1],
      timestamp: time,
    })),
    { emit: false },
  );
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-analytics-reports-'));
  service = await createService(await storageOptions(dir));
  reference = await createService({ dataDir: ':memory:' });
  const log = seededLog();
  await record(service, log);
  await record(reference, log);
  reports = service.services.storage.analytics.reports;
});

after(async () => {
  await service.close();
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

const scope = (extra: Partial<Scope> = {}): Scope => ({
  index: 'shop',
  period: { from: FROM, to: FROM + DAYS.length * DAY, days: DAYS },
  ...extra,
});

/** The counted searches one by one (of the SQLite reference): what the reports with events read. */
function counted(s: Scope) {
  return (
    new SqliteAnalyticsReports(databaseOf(reference)) as unknown as {
      searches(
        scope: Scope,
        withEvents: boolean,
        parts: object,
      ): Array<{
        day: string;
        query: string;
        nbHits: number;
        userKey: string;
        hasFilters: boolean;
        filters: Array<[string, string, string]>;
      }>;
    }
  ).searches(s, false, { filters: true });
}

for (const [name, s] of [
  ['the whole period', scope()],
  ['a tag', scope({ tags: { tag: 'mobile' } })],
  ['one query', scope({ search: 'desk' })],
] as const) {
  test(`SQL aggregates equal the figures of the counted searches: ${name}`, async () => {
    const searches = counted(s);
    assert.ok(searches.length > 50, `enough searches (${searches.length})`);

    const perDay = DAYS.map((date) => searches.filter((x) => x.day === date));
    assert.deepEqual(await reports.searchesCount(s), {
      count: searches.length,
      dates: DAYS.map((date, i) => ({ date, count: perDay[i]!.length })),
    });

    assert.deepEqual(await reports.usersCount(s), {
      count: new Set(searches.map((x) => x.userKey)).size,
      dates: DAYS.map((date, i) => ({ date, count: new Set(perDay[i]!.map((x) => x.userKey)).size })),
    });

    const rate = (list: typeof searches) => {
      const noResultCount = list.filter((x) => x.nbHits === 0).length;
      return { rate: list.length ? noResultCount / list.length : null, count: list.length, noResultCount };
    };
    assert.deepEqual(await reports.noResultRate(s), {
      ...rate(searches),
      dates: DAYS.map((date, i) => ({ date, ...rate(perDay[i]!) })),
    });

    const noResults = new Map<string, { search: string; count: number; withFilterCount: number }>();
    for (const x of searches.filter((y) => y.nbHits === 0)) {
      const group = noResults.get(x.query) ?? { search: x.query, count: 0, withFilterCount: 0 };
      group.count += 1;
      if (x.hasFilters) group.withFilterCount += 1;
      noResults.set(x.query, group);
    }
    const expectedNoResults = [...noResults.values()].sort(
      (a, b) => b.count - a.count || (a.search < b.search ? -1 : 1),
    );
    assert.deepEqual((await reports.noResults(s, { limit: 0, offset: 0 })).searches, expectedNoResults);

    const attributes = new Map<string, number>();
    const values = new Map<string, { attribute: string; operator: string; value: string; count: number }>();
    for (const x of searches) {
      for (const attribute of new Set(x.filters.map(([name]) => name)))
        attributes.set(attribute, (attributes.get(attribute) ?? 0) + 1);
      for (const [attribute, operator, value] of x.filters) {
        const key = `${attribute}\u0000${operator}\u0000${value}`;
        const item = values.get(key) ?? { attribute, operator, value, count: 0 };
        item.count += 1;
        values.set(key, item);
      }
    }
    assert.ok(values.size >= 2, 'filters in the log');
    assert.deepEqual(
      (await reports.filterAttributes(s, { limit: 0, offset: 0 })).attributes,
      [...attributes]
        .map(([attribute, count]) => ({ attribute, count }))
        .sort((a, b) => b.count - a.count || (a.attribute < b.attribute ? -1 : 1)),
    );
    for (const wanted of [['brand'], ['brand', 'price']]) {
      assert.deepEqual(
        (await reports.filterValues(s, wanted, { limit: 0, offset: 0 })).values,
        [...values]
          .filter(([, item]) => wanted.includes(item.attribute))
          .sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : 1))
          .map(([, item]) => item),
      );
    }

    // Top searches: the SQL path (no clickAnalytics) against the path that reads every search.
    for (const direction of ['desc', 'asc'] as const) {
      const fast = await reports.topSearches(s, {
        limit: 0,
        offset: 0,
        clickAnalytics: false,
        orderBy: 'searchCount',
        direction,
      });
      const slow = await reports.topSearches(s, {
        limit: 0,
        offset: 0,
        clickAnalytics: true,
        orderBy: 'searchCount',
        direction,
      });
      assert.deepEqual(
        fast.searches,
        slow.searches.map(({ search, count, nbHits }) => ({ search, count, nbHits })),
      );
    }
  });
}
