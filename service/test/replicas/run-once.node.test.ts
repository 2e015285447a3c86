/**
 * Jobs that must run in one replica at a time (`PostgresStorage.runOnce`, `pg_try_advisory_lock`): while one
 * replica runs a job, another's attempt returns false without running it; afterwards it runs. Analytics batch
 * writes of two replicas are serialized, so a user's typing series spread over both counts once.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { PostgresStorage } from '../../src/storage/postgres/storage.js';
import { newDatabase, stopPostgres } from './helpers.js';

after(() => stopPostgres());

test('runOnce: a job held by one replica is not run by another until it ends', async () => {
  const database = await newDatabase();
  const a = await PostgresStorage.open(database, { id: 'a' });
  const b = await PostgresStorage.open(database, { id: 'b' });
  try {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = a.runOnce('query-suggestions:shop', async () => {
      started();
      await held;
    });
    await running;
    let ranOnB = false;
    assert.equal(
      await b.runOnce('query-suggestions:shop', async () => {
        ranOnB = true;
      }),
      false,
    );
    assert.equal(ranOnB, false, 'the job did not run on B while A ran it');
    assert.equal(await b.runOnce('crawler:other', async () => undefined), true, 'another job runs meanwhile');
    release();
    assert.equal(await first, true);
    assert.equal(await b.runOnce('query-suggestions:shop', async () => undefined), true, 'and then it runs on B');
  } finally {
    await a.close();
    await b.close();
  }
});

test('Analytics batch writes of two replicas: one at a time, so a typing series across both keeps only its last search', async () => {
  const database = await newDatabase();
  const a = await PostgresStorage.open(database, { id: 'a' });
  const b = await PostgresStorage.open(database, { id: 'b' });
  try {
    const search = (query: string, ts: number) => ({
      indexName: 'shop',
      ts,
      query,
      nbHits: 1,
      userKey: 'user-1',
      anonymous: false,
      page: 0,
      hitsPerPage: 20,
      objectIDs: [],
      filters: [],
      tags: [],
    });
    const continues = (previous: { query: string }, next: { query: string }) => next.query.startsWith(previous.query);
    const now = Date.now();
    const batches = [];
    for (let i = 1; i <= 20; i += 1) {
      const store = i % 2 === 0 ? a : b;
      batches.push(store.analytics.append([search('chair'.slice(0, (i % 5) + 1), now + i)], continues));
    }
    await Promise.all(batches);
    const { rows } = await a.pool.query<{ n: number }>('SELECT COUNT(*) AS n FROM analytics_searches');
    assert.equal(rows[0]!.n, 20);
    // Written one at a time: each search was compared with the search written just before it (by id), and
    // superseded exactly when the next one continues it.
    const written = await a.pool.query<{ query: string; superseded: number }>(
      'SELECT query, superseded FROM analytics_searches ORDER BY id',
    );
    written.rows.forEach((row, i) => {
      const next = written.rows[i + 1];
      const expected = next !== undefined && continues(row, next) ? 1 : 0;
      assert.equal(row.superseded, expected, `search ${i} (${row.query} then ${next?.query})`);
    });
  } finally {
    await a.close();
    await b.close();
  }
});
