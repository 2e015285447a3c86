/**
 * Durability and the CLI: records, settings, tasks, keys, the search log and the custom dictionaries survive
 * a restart and a `kill -9` once the write's task is published; the CLI prints `listening on http://HOST:PORT` first,
 * then the application id and both keys; `--demo` loads the demo catalogue once.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_KEY,
  caller,
  databaseOf,
  SEARCH_KEY,
  serveStorageArgs,
  startService,
  TEST_STORAGE,
  tempDir,
} from './service-helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

interface Spawned {
  child: ChildProcess;
  url: string;
  lines: string[];
}

/**
 * Starts the CLI (its TypeScript source, as `npm run serve` does) in a child process and waits for its first
 * lines (up to the search key). The compiled bin of the packed package is started by test/package/package.node.test.ts.
 */
function spawnCli(args: string[]): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'service/src/cli.ts'), 'serve', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const timer = setTimeout(() => reject(new Error(`CLI did not start in time; stderr: ${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`CLI exited with ${code}; stderr: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      // The last of the first lines: listening, (on PostgreSQL, the storage line), application id, both keys.
      if (line.startsWith('search key: ')) {
        clearTimeout(timer);
        const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!);
        if (!match) reject(new Error(`unexpected first line: ${lines[0]}`));
        else resolve({ child, url: match[1]!, lines });
      }
    });
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('durability', () => {
  test('SQLite: the file is in WAL mode and every commit is synced (synchronous FULL), in memory too', async () => {
    const onFile = await startService({ dataDir: dataDir() }, { storage: 'sqlite' });
    try {
      assert.equal(databaseOf(onFile.service).pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(databaseOf(onFile.service).pragma('synchronous', { simple: true }), 2, 'synchronous FULL');
      // A search's log row is committed without its own fsync; the connection is FULL again for the writes.
      await onFile.ok('PUT', '/1/indexes/level/a', { name: 'alpha' });
      const search = await onFile.ok('POST', '/1/indexes/level/query', { query: 'alpha', clickAnalytics: true });
      assert.match(search.queryID, /^[0-9a-f]{32}$/);
      assert.equal(databaseOf(onFile.service).pragma('synchronous', { simple: true }), 2, 'synchronous FULL again');
      await onFile.service.services.analyticsLog.flush();
      await onFile.service.services.usage.flush();
      assert.equal(databaseOf(onFile.service).pragma('synchronous', { simple: true }), 2, 'and after the logs');
    } finally {
      await onFile.stop({ keepData: true });
    }
    const inMemory = await startService({ dataDir: ':memory:' }, { storage: 'sqlite' });
    try {
      assert.equal(databaseOf(inMemory.service).pragma('synchronous', { simple: true }), 2, 'synchronous FULL');
    } finally {
      await inMemory.stop();
    }
  });

  test('everything written survives a clean restart', async () => {
    const dir = dataDir();
    let svc = await startService({ dataDir: dir });
    await svc.ok('PUT', '/1/indexes/keep/settings', {
      attributesForFaceting: ['kind'],
      customRanking: ['desc(n)'],
      replicas: ['keep_asc'],
    });
    await svc.ok('PUT', '/1/indexes/keep_asc/settings', {
      ranking: ['asc(n)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
    });
    await svc.ok('POST', '/1/indexes/keep/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'a', name: 'alpha', kind: 'x', n: 1 } },
        { action: 'addObject', body: { objectID: 'b', name: 'beta', kind: 'y', n: 2 } },
      ],
    });
    const { taskID } = await svc.ok('POST', '/1/indexes/keep/a/partial', { n: { _operation: 'Increment', value: 5 } });
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['search'], description: 'kept' });
    const search = await svc.ok('POST', '/1/indexes/keep/query', {
      query: 'alpha',
      clickAnalytics: true,
      userToken: 'u',
    });
    await svc.stop({ keepData: true });

    svc = await startService({ dataDir: dir });
    try {
      assert.deepEqual(await svc.ok('GET', '/1/indexes/keep/a'), { objectID: 'a', name: 'alpha', kind: 'x', n: 6 });
      const settings = await svc.ok('GET', '/1/indexes/keep/settings');
      assert.deepEqual(settings.attributesForFaceting, ['kind']);
      assert.deepEqual(settings.replicas, ['keep_asc']);
      const replica = await svc.ok('POST', '/1/indexes/keep_asc/query', { query: '' });
      assert.deepEqual(
        replica.hits.map((hit: { objectID: string }) => hit.objectID),
        ['b', 'a'],
      );
      assert.deepEqual(await svc.ok('GET', `/1/indexes/keep/task/${taskID}`), { status: 'published' });
      assert.equal((await svc.call('POST', '/1/indexes/keep/query', {}, { key })).status, 200);
      const logged = await svc.service.services.searchLog.get(search.queryID);
      assert.equal(logged?.query, 'alpha');
      assert.deepEqual(logged?.objectIDs, ['a']);
      // Task ids keep growing after a restart.
      const next = await svc.ok('PUT', '/1/indexes/keep/c', { name: 'gamma' });
      assert.ok(next.taskID > taskID);
    } finally {
      await svc.stop({ keepData: true });
    }
  });

  test('the search log row of a search answered just before kill -9 is kept (CLI child process)', async () => {
    const dir = dataDir();
    const running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    const call = caller(running.url);
    const saved = await call('PUT', '/1/indexes/crashlog/a', { title: 'alpha' });
    assert.deepEqual((await call('GET', `/1/indexes/crashlog/task/${saved.body.taskID}`)).body, {
      status: 'published',
    });
    // The last call before the kill: its row was committed (not synced) when the answer left.
    const search = await call(
      'POST',
      '/1/indexes/crashlog/query',
      { query: 'alpha', clickAnalytics: true, userToken: 'crash-user' },
      { key: SEARCH_KEY },
    );
    assert.equal(search.status, 200);
    await kill9(running.child);
    const svc = await startService({ dataDir: dir });
    try {
      const logged = await svc.service.services.searchLog.get(search.body.queryID);
      assert.equal(logged?.indexName, 'crashlog');
      assert.deepEqual(logged?.objectIDs, ['a']);
      assert.equal(logged?.userToken, 'crash-user');
    } finally {
      await svc.stop({ keepData: true });
    }
  });

  test('Analytics and Usage rows written (a read flushes them) before kill -9 are kept (CLI child process)', async () => {
    const dir = dataDir();
    const running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    const call = caller(running.url);
    const saved = await call('PUT', '/1/indexes/crashstats/a', { title: 'alpha' });
    assert.deepEqual((await call('GET', `/1/indexes/crashstats/task/${saved.body.taskID}`)).body, {
      status: 'published',
    });
    for (const query of ['alpha', 'beta', 'gamma']) {
      assert.equal((await call('POST', '/1/indexes/crashstats/query', { query }, { key: SEARCH_KEY })).status, 200);
    }
    const day = 24 * 3600 * 1000;
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const usagePath = `/1/usage/total_search_requests?startDate=${date(Date.now() - day)}&endDate=${date(Date.now() + 2 * day)}`;
    // Each read writes the queued rows first: these are the last writes before the kill.
    const usage = (await call('GET', usagePath)).body;
    const analytics = (await call('GET', '/2/searches/count?index=crashstats')).body;
    assert.equal(analytics.count, 3);
    const searches = (usage.total_search_requests as Array<{ v: number }>).reduce((sum, point) => sum + point.v, 0);
    assert.equal(searches, 3);
    await kill9(running.child);
    const svc = await startService({ dataDir: dir });
    try {
      assert.deepEqual((await svc.ok('GET', '/2/searches/count?index=crashstats')).count, 3);
      assert.deepEqual((await svc.ok('GET', usagePath)).total_search_requests, usage.total_search_requests);
    } finally {
      await svc.stop({ keepData: true });
    }
  });

  test('a write whose task is published survives kill -9 (CLI child process)', async () => {
    const dir = dataDir();
    let running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    let call = caller(running.url);
    const records = Array.from({ length: 300 }, (_, i) => ({
      action: 'addObject',
      body: { objectID: `r${i}`, title: `record ${i}`, n: i },
    }));
    const batch = await call('POST', '/1/indexes/crash/batch', { requests: records });
    assert.equal(batch.status, 200);
    await call('PUT', '/1/indexes/crash/settings', { customRanking: ['desc(n)'] });
    await call('POST', '/1/indexes/crash/r7/partial', { tags: { _operation: 'Add', value: 'hot' } });
    await call('DELETE', '/1/indexes/crash/r8');
    const search = await call(
      'POST',
      '/1/indexes/crash/query',
      { query: 'record', clickAnalytics: true },
      { key: SEARCH_KEY },
    );
    const last = await call('PUT', '/1/indexes/crash/last', { title: 'written last' });
    assert.deepEqual((await call('GET', `/1/indexes/crash/task/${last.body.taskID}`)).body, { status: 'published' });
    await kill9(running.child);

    running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    call = caller(running.url);
    try {
      const all = await call('POST', '/1/indexes/crash/query', { query: '', hitsPerPage: 1 }, { key: SEARCH_KEY });
      assert.equal(all.body.nbHits, 300);
      assert.equal(all.body.hits[0].objectID, 'r299', 'custom ranking kept');
      assert.deepEqual((await call('GET', '/1/indexes/crash/r7')).body.tags, ['hot']);
      assert.equal((await call('GET', '/1/indexes/crash/r8')).status, 404);
      assert.equal((await call('GET', '/1/indexes/crash/last')).body.title, 'written last');
      assert.match(search.body.queryID, /^[0-9a-f]{32}$/);
      // The search log is durable too: read it through the storage of a third, in-process service.
    } finally {
      await kill9(running.child);
    }
    const svc = await startService({ dataDir: dir });
    try {
      assert.equal((await svc.service.services.searchLog.get(search.body.queryID))?.indexName, 'crash');
    } finally {
      await svc.stop({ keepData: true });
    }
  });
});

describe('durability of dictionaries', () => {
  test('custom dictionary entries and dictionary settings whose task is published survive kill -9 (CLI child process)', async () => {
    const dir = dataDir();
    let running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    let call = caller(running.url);
    await call('PUT', '/1/indexes/words/settings', {
      searchableAttributes: ['name'],
      typoTolerance: false,
      indexLanguages: ['de'],
    });
    await call('POST', '/1/indexes/words/batch', {
      requests: [
        { action: 'addObject', body: { objectID: 'k', name: 'Kopfschmerztablette' } },
        { action: 'addObject', body: { objectID: 'c', name: 'Oak chair' } },
      ],
    });
    await call('POST', '/1/dictionaries/stopwords/batch', {
      requests: [{ action: 'addEntry', body: { objectID: 's', language: 'en', word: 'deluxe' } }],
    });
    await call('POST', '/1/dictionaries/compounds/batch', {
      requests: [
        {
          action: 'addEntry',
          body: {
            objectID: 'k',
            language: 'de',
            word: 'kopfschmerztablette',
            decomposition: ['kopf', 'schmerz', 'tablette'],
          },
        },
      ],
    });
    const last = await call('PUT', '/1/dictionaries/*/settings', {
      disableStandardEntries: { stopwords: { en: true } },
    });
    assert.equal(last.status, 200);
    assert.deepEqual((await call('GET', `/1/task/${last.body.taskID}`)).body, { status: 'published' });
    await kill9(running.child);

    running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir))]);
    call = caller(running.url);
    try {
      assert.deepEqual((await call('POST', '/1/dictionaries/stopwords/search', { query: '' })).body.hits, [
        { objectID: 's', language: 'en', word: 'deluxe', state: 'enabled' },
      ]);
      assert.deepEqual((await call('GET', '/1/dictionaries/*/settings')).body, {
        disableStandardEntries: { stopwords: { en: true } },
      });
      const search = (params: Record<string, unknown>) =>
        call('POST', '/1/indexes/words/query', { queryType: 'prefixNone', ...params }, { key: SEARCH_KEY });
      assert.deepEqual(
        (await search({ query: 'schmerz' })).body.hits.map((hit: { objectID: string }) => hit.objectID),
        ['k'],
      );
      assert.deepEqual(
        (await search({ query: 'deluxe oak chair', removeStopWords: true })).body.hits.map(
          (hit: { objectID: string }) => hit.objectID,
        ),
        ['c'],
      );
      assert.equal(
        (await search({ query: 'the oak chair', removeStopWords: true })).body.nbHits,
        0,
        'standard English stop words still off',
      );
    } finally {
      await kill9(running.child);
    }
  });
});

describe('CLI', () => {
  test('prints the listening line first, then the application id and both keys (custom credentials)', async () => {
    const running = await spawnCli([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      ...(await serveStorageArgs(dataDir())),
      '--app-id',
      'MYAPP',
      '--admin-key',
      'adm',
      '--search-key',
      'srch',
    ]);
    try {
      const [listening, ...rest] = running.lines;
      assert.match(listening!, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
      // On PostgreSQL, the storage and the name of this replica come second.
      if (TEST_STORAGE === 'postgres') assert.match(rest.shift()!, /^storage: PostgreSQL, replica replica-[0-9a-f]+$/);
      assert.deepEqual(rest.slice(0, 3), ['application id: MYAPP', 'admin key: adm', 'search key: srch']);
      const call = caller(running.url);
      assert.equal((await call('GET', '/1/indexes', undefined, { appId: 'MYAPP', key: 'adm' })).status, 200);
      assert.equal((await call('GET', '/1/indexes', undefined, { appId: 'MYAPP', key: ADMIN_KEY })).status, 403);
    } finally {
      await kill9(running.child);
    }
  });

  test('serve --demo loads the demo catalogue into products, once', async () => {
    const dir = dataDir();
    let running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir)), '--demo']);
    let call = caller(running.url);
    try {
      const answer = await call(
        'POST',
        '/1/indexes/products/query',
        { query: 'chair', facets: ['brand', 'category', 'subCategory', 'price'] },
        { key: SEARCH_KEY },
      );
      assert.equal(answer.status, 200);
      assert.ok(answer.body.nbHits > 50, String(answer.body.nbHits));
      const hit = answer.body.hits[0];
      for (const field of ['name', 'brand', 'category', 'subCategory', 'price', 'popularity'])
        assert.ok(field in hit, field);
      assert.match(hit.hierarchicalCategories.lvl1, /^[A-Z][\w ]+ > [A-Z]/);
      assert.ok(answer.body.facets.subCategory.Chairs > 0);
      assert.ok(answer.body.facets_stats.price.max > answer.body.facets_stats.price.min);
      const all = await call('POST', '/1/indexes/products/query', { query: '', hitsPerPage: 3 }, { key: SEARCH_KEY });
      assert.equal(all.body.nbHits, 1862);
      const popularity = all.body.hits.map((item: { popularity: number }) => item.popularity);
      assert.deepEqual(
        popularity,
        [...popularity].sort((a, b) => b - a),
        'customRanking desc(popularity)',
      );
      const cheap = await call(
        'POST',
        '/1/indexes/products_price_asc/query',
        { query: 'chair', hitsPerPage: 5 },
        { key: SEARCH_KEY },
      );
      const prices = cheap.body.hits.map((item: { price: number }) => item.price);
      assert.deepEqual(
        prices,
        [...prices].sort((a, b) => a - b),
      );
      const dear = await call(
        'POST',
        '/1/indexes/products_price_desc/query',
        { query: 'chair', hitsPerPage: 5 },
        { key: SEARCH_KEY },
      );
      assert.ok(dear.body.hits[0].price >= prices[prices.length - 1]);
      const brands = await call(
        'POST',
        '/1/indexes/products/facets/brand/query',
        { facetQuery: 'xer' },
        { key: SEARCH_KEY },
      );
      assert.equal(brands.body.facetHits[0].value, 'Xerox');
      await call('DELETE', `/1/indexes/products/${hit.objectID}`);
    } finally {
      await kill9(running.child);
    }
    // Not empty any more: --demo leaves the index as it is.
    running = await spawnCli(['--port', '0', ...(await serveStorageArgs(dir)), '--demo']);
    call = caller(running.url);
    try {
      const all = await call('POST', '/1/indexes/products/query', { query: '' }, { key: SEARCH_KEY });
      assert.equal(all.body.nbHits, 1861);
    } finally {
      await kill9(running.child);
    }
  });

  test('unknown command and bad options exit with code 2 and the usage', async () => {
    for (const args of [['launch'], ['serve', '--port', 'abc'], ['serve', '--colour']]) {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'service/src/cli.ts'), ...args], {
        cwd: root,
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, /Usage: svc-search-service serve/);
    }
  });
});
