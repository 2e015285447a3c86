/**
 * The SQLite search log's pending rows (storage/sqlite/search-log.ts): two connections on one file stand for
 * two workers; a third one, the test's, holds the write lock (`BEGIN IMMEDIATE`) as a long writer would.
 * A row recorded meanwhile waits in memory, is seen by lookups as a stored one, is written once the lock is
 * free (or at close), and the list of pending rows is bounded: past it, the search is refused with a 503 at
 * once (its row not kept), never blocked in SQLite's busy wait.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ServiceError } from '../../src/errors.js';
import { openDatabase } from '../../src/storage/sqlite/open.js';
import { PENDING_ROWS_MAX, SqliteSearchLog } from '../../src/storage/sqlite/search-log.js';
import type { SearchLogEntry } from '../../src/storage/types.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Two logs ("workers") on one fresh file, and the test's own connection (busy timeout 0). */
function twoWorkers() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-search-log-pending-'));
  dirs.push(dir);
  const dbA = openDatabase(dir);
  const dbB = openDatabase(dir);
  const holder = new Database(join(dir, 'svc-search.sqlite'), { timeout: 0 });
  const a = new SqliteSearchLog(dbA, { shared: true });
  const b = new SqliteSearchLog(dbB, { shared: true });
  const stored = () => (holder.prepare('SELECT COUNT(*) AS n FROM service_search_log').get() as { n: number }).n;
  const close = async () => {
    await a.close();
    await b.close();
    dbA.close();
    dbB.close();
    holder.close();
  };
  return { dbA, a, b, holder, stored, close };
}

function entry(n: number, userToken?: string): SearchLogEntry {
  const row: SearchLogEntry = {
    queryID: n.toString(16).padStart(32, '0'),
    indexName: 'shop',
    query: `oak ${n}`,
    page: 1,
    hitsPerPage: 2,
    objectIDs: ['oak', `chair-${n}`],
    createdAt: 1_700_000_000_000 + n,
  };
  if (userToken) row.userToken = userToken;
  return row;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('SQLite search log while another connection holds the write lock', () => {
  test('a row waits without blocking, is looked up as stored, follows forgetUser, and is written once the lock frees', async () => {
    const { a, holder, stored, close } = twoWorkers();
    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    await a.record(entry(1, 'user-1'));
    await a.record(entry(2, 'user-2'));
    // Before: the insert waited SQLite's busy timeout (5 s) and failed with SQLITE_BUSY.
    assert.ok(Date.now() - started < 1000, `recorded without waiting (${Date.now() - started} ms)`);
    assert.equal(a.pendingCount, 2);
    assert.deepEqual(await a.get(entry(1).queryID), entry(1, 'user-1'));
    assert.equal(await a.countOfUser('user-2'), 1);
    // The privacy request takes the token off the pending row at once; its UPDATE waits for the lock.
    const forgetting = a.forgetUser('user-2');
    assert.equal(await a.countOfUser('user-2'), 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(stored(), 0, 'not written while the lock is held');
    holder.exec('ROLLBACK');
    await forgetting;
    await until(() => stored() === 2, 'the pending rows written');
    assert.equal(a.pendingCount, 0);
    const row = holder.prepare('SELECT user_token FROM service_search_log WHERE query_id = ?').get(entry(2).queryID);
    assert.deepEqual(row, { user_token: null }, 'the forgotten token is not written');
    assert.deepEqual(await a.get(entry(1).queryID), entry(1, 'user-1'));
    await close();
  });

  test("another worker's lookup of a pending row waits for it, and a lookup that misses settles once the lock is free", async () => {
    const { a, b, holder, close } = twoWorkers();
    holder.exec('BEGIN IMMEDIATE');
    await a.record(entry(3));
    let answered = false;
    const lookup = b.get(entry(3).queryID).then((found) => {
      answered = true;
      return found;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(answered, false, 'the other worker rechecks while the lock is held');
    holder.exec('ROLLBACK');
    assert.deepEqual(await lookup, entry(3), "the other worker's pending row is found once written");
    const started = Date.now();
    assert.equal(await b.get(entry(4).queryID), undefined);
    assert.ok(Date.now() - started < 5000, 'an unknown queryID is answered once the lock has been free a moment');
    assert.equal(await b.get('not-one-of-ours'), undefined);
    await close();
  });

  test('close writes the pending rows once the lock frees', async () => {
    const { a, holder, stored, close } = twoWorkers();
    holder.exec('BEGIN IMMEDIATE');
    await a.record(entry(5));
    const closing = a.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(stored(), 0);
    holder.exec('ROLLBACK');
    await closing;
    assert.equal(stored(), 1);
    await close();
  });

  test('past the bound of pending rows the search is refused with a 503 at once: not kept, no busy wait, nothing lost', async () => {
    const { dbA, a, holder, stored, close } = twoWorkers();
    holder.exec('BEGIN IMMEDIATE');
    for (let n = 0; n < PENDING_ROWS_MAX; n += 1) await a.record(entry(n));
    assert.equal(a.pendingCount, PENDING_ROWS_MAX);
    // A busy wait would now block for the whole busy timeout (it did: then SQLITE_BUSY, a 500).
    dbA.pragma('busy_timeout = 5000');
    const started = Date.now();
    await assert.rejects(
      a.record(entry(PENDING_ROWS_MAX)),
      (error: unknown) =>
        error instanceof ServiceError &&
        error.status === 503 &&
        error.headers?.['Retry-After'] === '1' &&
        /write lock/.test(error.message) &&
        /retry/.test(error.message),
    );
    assert.ok(Date.now() - started < 2500, `refused after ${Date.now() - started} ms, not in the busy wait`);
    assert.equal(a.pendingCount, PENDING_ROWS_MAX, 'the list did not grow');
    assert.equal(await a.get(entry(PENDING_ROWS_MAX).queryID), undefined, 'the refused row is not kept');
    holder.exec('ROLLBACK');
    // Every row kept is written once the lock frees; the next search's row goes through.
    await until(() => stored() === PENDING_ROWS_MAX, 'the pending rows written');
    await a.record(entry(PENDING_ROWS_MAX + 1));
    assert.equal(stored(), PENDING_ROWS_MAX + 1);
    assert.equal(a.pendingCount, 0);
    await close();
  });

  test('past the bound in bytes (16 MiB) as well: refused with a 503, the list within the bound', async () => {
    const { a, holder, close } = twoWorkers();
    holder.exec('BEGIN IMMEDIATE');
    // Rows of about 1 MiB each (the objectIDs of a page of long ids): the 16th one is past 16 MiB.
    const big = (n: number): SearchLogEntry => ({ ...entry(n), objectIDs: [`${'x'.repeat(1024 * 1024 - 300)}-${n}`] });
    let kept = 0;
    let refused: unknown;
    for (let n = 0; n < 20 && refused === undefined; n += 1) {
      try {
        await a.record(big(n));
        kept += 1;
      } catch (error) {
        refused = error;
      }
    }
    assert.ok(refused instanceof ServiceError && refused.status === 503, String(refused));
    assert.equal(kept, a.pendingCount);
    assert.ok(kept > 10 && kept < 17, `${kept} rows of 1 MiB kept`);
    holder.exec('ROLLBACK');
    await close();
  });
});
