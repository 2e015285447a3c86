/**
 * A/B tests across a restart of the real service: tests, their status, assignment and metrics survive it;
 * and SQLite's migration of an `analytics_searches` table from before A/B tests.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { expectedVariant, RECORDS, SETTINGS, variants } from './abtests-helpers.js';
import { databaseOf, index, type Running, SEARCH_KEY, scenarioTime, startService, tempDir } from './service-helpers.js';

const T0 = scenarioTime();
let clock = T0;
const now = () => clock;

describe('durability', () => {
  test('tests, their status, assignment and metrics survive a restart', async () => {
    const dataDir = tempDir();
    clock = T0;
    let running = await startService({ now, dataDir });
    try {
      for (const name of ['r_a', 'r_b', 's_a', 's_b']) await index(running, name, RECORDS, SETTINGS);
      const make = async (name: string, a: string, b: string) =>
        (
          await running.ok('POST', '/2/abtests', {
            name,
            variants: variants(a, b, { customSearchParameters: { filters: 'brand:Acme' } }, [40, 60]),
            endAt: '2099-06-30T12:00:00Z',
          })
        ).abTestID as number;
      const active = await make('kept active', 'r_a', 'r_b');
      const stopped = await make('kept stopped', 's_a', 's_b');
      const users = Array.from({ length: 30 }, (_, i) => `restart-${i}`);
      const assigned = async () => {
        const out: Array<number | undefined> = [];
        for (const user of users) {
          const answer = await running.ok(
            'POST',
            '/1/indexes/r_a/query',
            { query: 'chair', userToken: user, clickAnalytics: true },
            { key: SEARCH_KEY },
          );
          out.push(answer.abTestVariantID);
          assert.equal(answer.nbHits, answer.abTestVariantID === 2 ? 2 : 4);
        }
        return out;
      };
      const first = await assigned();
      assert.deepEqual(
        first,
        users.map((user) => expectedVariant(active, user, 40)),
      );
      await running.ok('POST', '/1/indexes/s_a/query', { query: 'chair', userToken: 'someone' }, { key: SEARCH_KEY });
      await running.ok('POST', `/2/abtests/${stopped}/stop`);
      const list = await running.ok('GET', '/2/abtests');
      assert.deepEqual(
        list.abtests.map((t: { status: string }) => t.status),
        ['active', 'stopped'],
      );
      assert.equal(list.abtests[0].variants[0].searchCount + list.abtests[0].variants[1].searchCount, 30);
      // one more (untracked) search, still queued for Analytics (written every 250 ms) when the service closes
      const late = await running.ok(
        'POST',
        '/1/indexes/r_a/query',
        { query: 'chair', userToken: 'late-user' },
        { key: SEARCH_KEY },
      );
      await running.stop({ keepData: true });

      running = await startService({ now, dataDir });
      const reread = await running.ok('GET', '/2/abtests');
      const variantOfLate = late.abTestVariantID - 1;
      list.abtests[0].variants[variantOfLate].searchCount += 1;
      list.abtests[0].variants[variantOfLate].userCount += 1;
      assert.deepEqual(reread, list);
      assert.equal(
        list.abtests[1].variants.filter((v: { searchCount: number | null }) => v.searchCount === 1).length,
        1,
      );
      clock += 60_000;
      assert.deepEqual(await assigned(), first, 'the same users get the same variants');
      assert.equal(
        (await running.ok('POST', '/1/indexes/s_a/query', { query: 'chair' }, { key: SEARCH_KEY })).abTestID,
        undefined,
      );
      // ids continue after the restart
      const third = await running.call('POST', '/2/abtests', { name: 'third', variants: variants('s_a', 's_b') });
      assert.equal(third.body.abTestID, stopped + 1);
    } finally {
      await running.stop();
      clock = T0;
    }
  });

  test('SQLite: an analytics_searches table from before A/B tests gets the two columns; its rows are kept', async () => {
    // A file of an earlier release: SQLite's own migration (PostgreSQL's schema had these columns from its first step).
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    const old = new Database(join(dataDir, 'svc-search.sqlite'));
    // The table as the Analytics release created it.
    old.exec(`
      CREATE TABLE analytics_searches (
        id INTEGER PRIMARY KEY AUTOINCREMENT, index_name TEXT NOT NULL, ts INTEGER NOT NULL, query TEXT NOT NULL,
        nb_hits INTEGER NOT NULL, user_key TEXT NOT NULL, anonymous INTEGER NOT NULL, query_id TEXT, page INTEGER NOT NULL,
        hits_per_page INTEGER NOT NULL, object_ids TEXT NOT NULL, filters TEXT NOT NULL, tags TEXT NOT NULL,
        superseded INTEGER NOT NULL DEFAULT 0
      );
    `);
    old
      .prepare(`INSERT INTO analytics_searches (index_name, ts, query, nb_hits, user_key, anonymous, query_id, page, hits_per_page, object_ids, filters, tags)
      VALUES ('legacy', ?, 'chair', 4, 'old-user', 0, NULL, 0, 20, '["1"]', '[]', '[]')`)
      .run(T0);
    old.close();
    const columns = (running: Running) =>
      (
        databaseOf(running.service).prepare('PRAGMA table_info(analytics_searches)').all() as Array<{
          name: string;
        }>
      ).map((column) => column.name);
    for (let start = 0; start < 2; start += 1) {
      // twice: the second start finds the columns and changes nothing
      const running = await startService({ now, dataDir }, { storage: 'sqlite' });
      try {
        // The A/B test columns, then the country of Analytics' /2/countries (same migration).
        assert.deepEqual(columns(running).slice(-3), ['ab_test_id', 'ab_test_variant', 'country']);
        assert.equal(columns(running).filter((name) => name.startsWith('ab_test')).length, 2);
        assert.equal(columns(running).filter((name) => name === 'country').length, 1);
        assert.equal((await running.ok('GET', '/2/searches/count?index=legacy')).count, 1);
        const row = databaseOf(running.service)
          .prepare("SELECT ab_test_id, ab_test_variant, query FROM analytics_searches WHERE index_name = 'legacy'")
          .get();
        assert.deepEqual({ ...(row as object) }, { ab_test_id: null, ab_test_variant: null, query: 'chair' });
      } finally {
        await running.stop({ keepData: start === 0 });
      }
    }
  });
});
