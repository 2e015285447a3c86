/**
 * With `serve --workers 2`, a write (a task: here `saveObject`) takes SQLite's write lock for its turn
 * (`BEGIN IMMEDIATE`). While another process holds that lock, the worker that received the write waits for it
 * on a timer instead of SQLite's busy wait (which blocked that worker, every search of it, up to the 5 s busy
 * timeout, then answered the write with a 500): both workers keep answering searches meanwhile, and once the
 * lock is free the writes complete in order, each published and visible on both workers, the task log without
 * a gap. A Query Suggestions configuration's creation waits the same way (it was SQLite's busy wait too). A
 * write whose lock never frees is answered 503 after the bound (20 s, or `--write-lock-wait-ms`), nothing of it
 * applied.
 *
 * The long holder is this test: it takes the file's write lock (`BEGIN IMMEDIATE` on its own connection) and
 * lets go once both workers answered searches with the writes still waiting — conditions, not a duration.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { parseServeArgs } from '../../src/cli.js';
import { type Answer, ask, askEach, startWorkers, takeWriteLock, waitForTask, type Workers } from './helpers.js';

const SEARCHES_PER_WORKER = 10;
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

const running: Workers[] = [];
after(async () => {
  for (const workers of running) await workers.stop().catch(() => undefined);
});

/** The request, and its answer once it came (undefined until then). */
function pending(request: Promise<Answer>): { request: Promise<Answer>; answer: () => Answer | undefined } {
  let answer: Answer | undefined;
  request.then((got) => {
    answer = got;
  });
  return { request, answer: () => answer };
}

describe('serve --workers 2: writes while another process holds the write lock', () => {
  test('both workers answer searches during the hold; the writes complete after it, published on both', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const first = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    await waitForTask(workers.url, first.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const seqBefore = (db.prepare('SELECT MAX(seq) AS seq FROM service_log').get() as { seq: number }).seq;
    let writes: Array<ReturnType<typeof pending>> = [];
    await takeWriteLock(db);
    try {
      // Two writes on their own connections: the round robin gives them to the two workers in turn, so each
      // worker has one waiting for the lock (and whichever has both still keeps them in order).
      writes = [
        pending(ask(workers.url, 'PUT', '/1/indexes/shop/pine', { name: 'Pine table' })),
        pending(ask(workers.url, 'PUT', '/1/indexes/shop/birch', { name: 'Birch shelf' })),
      ];
      // Searches on both workers while the writes wait: a worker that received one must answer too. (Its busy
      // wait kept it from taking connections, and ended with the write answered 500.)
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', { query: 'oak' });
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.nbHits, 1);
        for (const write of writes) {
          assert.equal(write.answer(), undefined, `a write waits for the lock: ${JSON.stringify(write.answer())}`);
        }
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
      }
    } finally {
      db.exec('ROLLBACK');
    }

    const answers = await Promise.all(writes.map((write) => write.request));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    for (const answer of answers) await waitForTask(workers.url, answer.body.taskID);
    // Each write is one log entry after the earlier ones, no gap; its task points at it.
    const entries = db.prepare('SELECT seq FROM service_log WHERE seq > ? ORDER BY seq').all(seqBefore) as Array<{
      seq: number;
    }>;
    assert.deepEqual(
      entries.map((entry) => entry.seq),
      [seqBefore + 1, seqBefore + 2],
    );
    const taskSeqs = answers.map(
      (answer) =>
        (
          db.prepare('SELECT log_seq FROM service_tasks WHERE task_id = ?').get(answer.body.taskID) as {
            log_seq: number;
          }
        ).log_seq,
    );
    assert.deepEqual(
      [...taskSeqs].sort((a, b) => a - b),
      [seqBefore + 1, seqBefore + 2],
    );
    // Published means applied by both: each worker has both records.
    for (const objectID of ['pine', 'birch']) {
      const got = await askEach(workers.url, ['w1', 'w2'], 'GET', `/1/indexes/shop/${objectID}`);
      for (const [worker, answer] of got) assert.equal(answer.status, 200, `${worker} ${objectID}`);
    }
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|Internal error/);
    await workers.stop();
  });

  test('a Query Suggestions configuration created during the hold is stored after it, both workers answering', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const first = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, first.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    let creation: ReturnType<typeof pending> | undefined;
    await takeWriteLock(db);
    try {
      creation = pending(
        ask(workers.url, 'POST', '/1/configs', { indexName: 'shop_qs', sourceIndices: [{ indexName: 'shop' }] }),
      );
      const perWorker = new Map<string, number>();
      while (Math.min(perWorker.get('w1') ?? 0, perWorker.get('w2') ?? 0) < SEARCHES_PER_WORKER) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', { query: 'oak' });
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        assert.equal(creation.answer(), undefined, `the creation waits: ${JSON.stringify(creation.answer())}`);
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
      }
    } finally {
      db.exec('ROLLBACK');
    }
    const created = await creation!.request;
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const got = await askEach(workers.url, ['w1', 'w2'], 'GET', '/1/configs/shop_qs');
    for (const [worker, answer] of got) assert.equal(answer.body?.indexName, 'shop_qs', worker);
    // Its first build ran and its outcome was recorded.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await ask(workers.url, 'GET', '/1/configs/shop_qs/status');
      if (status.body?.lastBuiltAt) break;
      assert.ok(Date.now() < deadline, `no build recorded: ${JSON.stringify(status.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|failed|Internal error/);
    await workers.stop();
  });

  test('a write whose lock stays held is answered 503 after 20 s, not applied; both workers answer meanwhile', async () => {
    const workers = await startWorkers(2);
    running.push(workers);
    const first = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, first.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const seqBefore = (db.prepare('SELECT MAX(seq) AS seq FROM service_log').get() as { seq: number }).seq;
    const sent = Date.now();
    let refused: Answer;
    await takeWriteLock(db);
    try {
      const write = pending(ask(workers.url, 'PUT', '/1/indexes/shop/pine', { name: 'Pine table' }));
      // Held until the write is answered (a condition); searches on both workers meanwhile.
      const perWorker = new Map<string, number>();
      while (write.answer() === undefined) {
        const answer = await ask(workers.url, 'POST', '/1/indexes/shop/query', { query: 'oak' });
        assert.equal(answer.status, 200, `${answer.worker}: ${JSON.stringify(answer.body)}`);
        perWorker.set(answer.worker, (perWorker.get(answer.worker) ?? 0) + 1);
      }
      refused = await write.request;
      assert.ok((perWorker.get('w1') ?? 0) >= SEARCHES_PER_WORKER, `w1 answered ${perWorker.get('w1')}`);
      assert.ok((perWorker.get('w2') ?? 0) >= SEARCHES_PER_WORKER, `w2 answered ${perWorker.get('w2')}`);
    } finally {
      db.exec('ROLLBACK');
    }
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.match(refused.body.message, /write lock for 20 s; the write was not applied, retry/);
    assert.ok(Date.now() - sent >= 20_000, `answered after ${Date.now() - sent} ms`);
    // Nothing of it: no log entry, no record on either worker; the next write goes through.
    assert.equal((db.prepare('SELECT MAX(seq) AS seq FROM service_log').get() as { seq: number }).seq, seqBefore);
    const missing = await askEach(workers.url, ['w1', 'w2'], 'GET', '/1/indexes/shop/pine');
    for (const [worker, answer] of missing) assert.equal(answer.status, 404, worker);
    const again = await ask(workers.url, 'PUT', '/1/indexes/shop/pine', { name: 'Pine table' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    await waitForTask(workers.url, again.body.taskID);
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|Internal error/);
    await workers.stop();
  });
});

describe('serve --workers 2 --write-lock-wait-ms: the bound of a write waiting for the lock', () => {
  test('with 2000, a write and a Query Suggestions configuration are answered 503 after 2 s (not 20), not applied', async () => {
    const workers = await startWorkers(2, ['--write-lock-wait-ms', '2000']);
    running.push(workers);
    const first = await ask(workers.url, 'PUT', '/1/indexes/shop/oak', { name: 'Oak chair' });
    await waitForTask(workers.url, first.body.taskID);

    const db = new Database(join(workers.dataDir, 'svc-search.sqlite'), { timeout: 0 });
    const seqBefore = (db.prepare('SELECT MAX(seq) AS seq FROM service_log').get() as { seq: number }).seq;
    let answers: Answer[];
    let sent = 0;
    await takeWriteLock(db);
    try {
      // Held until both are answered (a condition, not a duration).
      sent = Date.now();
      answers = await Promise.all([
        ask(workers.url, 'PUT', '/1/indexes/shop/pine', { name: 'Pine table' }),
        ask(workers.url, 'POST', '/1/configs', { indexName: 'shop_qs', sourceIndices: [{ indexName: 'shop' }] }),
      ]);
    } finally {
      db.exec('ROLLBACK');
    }
    const elapsed = Date.now() - sent;
    for (const answer of answers) {
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.match(answer.body.message, /write lock for 2 s; the write was not applied, retry/);
    }
    // At least the bound; far below the default 20 s.
    assert.ok(elapsed >= 2000 && elapsed < 20_000, `answered after ${elapsed} ms`);
    // Nothing of either: no log entry, no record, no configuration.
    assert.equal((db.prepare('SELECT MAX(seq) AS seq FROM service_log').get() as { seq: number }).seq, seqBefore);
    for (const [worker, answer] of await askEach(workers.url, ['w1', 'w2'], 'GET', '/1/indexes/shop/pine'))
      assert.equal(answer.status, 404, worker);
    assert.equal((await ask(workers.url, 'GET', '/1/configs/shop_qs')).status, 404);
    db.close();
    assert.doesNotMatch(workers.output(), /SQLITE_BUSY|database is locked|Internal error/);
    await workers.stop();
  });

  test('parsed in milliseconds; refused when not an integer from 1 to 600000, or without --workers; in --help', async () => {
    assert.equal(parseServeArgs(['--workers', '2', '--write-lock-wait-ms', '1500']).writeLockWaitMs, 1500);
    assert.equal(parseServeArgs(['--workers', '2']).writeLockWaitMs, undefined);
    assert.equal(parseServeArgs(['--workers', '2', '--write-lock-wait-ms', '600000']).writeLockWaitMs, 600_000);
    for (const value of ['0', '-1', '1.5', '2e3', 'abc', '', '600001'])
      assert.throws(
        () => parseServeArgs(['--workers', '2', `--write-lock-wait-ms=${value}`]),
        /--write-lock-wait-ms must be an integer from 1 to 600000 \(ms\)/,
        value,
      );
    assert.throws(() => parseServeArgs(['--write-lock-wait-ms', '1500']), /is the wait of --workers N/);
    const help = spawnSync(process.execPath, ['--import', 'tsx', CLI, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /\[--write-lock-wait-ms MS\]/);
    assert.match(
      help.stdout,
      /--write-lock-wait-ms MS +with --workers, how long a write waits for SQLite's write lock/,
    );
  });
});
