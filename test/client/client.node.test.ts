import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, RetryError, computeHosts, createClient } from '../../src/client/index.js';
import { generateSecuredApiKey, securedApiKeyRemainingValidity } from '../../service/src/secured-key.js';
import {
  catalogue,
  closedPort,
  indexProducts,
  startHangingServer,
  startProxy,
  startService,
  startStatusServer,
  type RunningService,
} from './fixture.js';

const INDEX = 'client_products';
const records = catalogue();
let svc: RunningService;

before(async () => {
  svc = await startService();
  await indexProducts(svc.admin, INDEX, records);
  await indexProducts(svc.admin, 'client_other', records.slice(0, 10));
});
after(async () => {
  await svc?.close();
});

const searchClient = (hosts: string[], extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts, ...extra });

describe('hosts', () => {
  test('computed hosts: DSN for reads, main host for writes, the three fallbacks shuffled', () => {
    const hosts = computeHosts({ appId: 'APP1', apiKey: 'k' }, () => 0);
    assert.deepEqual(hosts.slice(0, 2), [
      { url: 'https://APP1-dsn.service-search.net', accept: 'read' },
      { url: 'https://APP1.service-search.net', accept: 'write' },
    ]);
    const fallbacks = hosts
      .slice(2)
      .map((h) => h.url)
      .sort();
    assert.deepEqual(
      fallbacks,
      [1, 2, 3].map((n) => `https://APP1-${n}.service-search-net.com`),
    );
    assert.ok(hosts.slice(2).every((h) => h.accept === 'readWrite'));
    // Different random sources give different orders (Fisher–Yates over 3 items).
    const orders = new Set(
      [0, 0.4, 0.99].map((r) =>
        computeHosts({ appId: 'APP1', apiKey: 'k' }, () => r)
          .slice(2)
          .map((h) => h.url)
          .join(),
      ),
    );
    assert.ok(orders.size > 1);
  });

  test('explicit hosts replace the computed ones; a missing scheme means https', () => {
    const hosts = computeHosts({
      appId: 'A',
      apiKey: 'k',
      hosts: ['http://127.0.0.1:1/', 'example.org', { url: 'http://x', accept: 'write' }],
    });
    assert.deepEqual(hosts, [
      { url: 'http://127.0.0.1:1', accept: 'readWrite' },
      { url: 'https://example.org', accept: 'readWrite' },
      { url: 'http://x', accept: 'write' },
    ]);
  });

  test('events go to insights.{domain} by default, to the first explicit host otherwise', () => {
    assert.equal(
      createClient({ appId: 'A', apiKey: 'k' }).eventsBeaconUrl(),
      'https://insights.service-search.net/1/events?X-Service-Application-Id=A&X-Service-API-Key=k',
    );
    assert.match(
      createClient({ appId: 'A', apiKey: 'k', hosts: ['http://127.0.0.1:7'] }).eventsBeaconUrl(),
      /^http:\/\/127\.0\.0\.1:7\/1\/events\?/,
    );
  });

  test('the browser path (client + store) bundles for browsers without Node built-ins; the secured-key module does not', async () => {
    const { build } = await import('esbuild');
    const bundle = (entry: string) =>
      build({
        entryPoints: [entry],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      });
    const browser = await bundle('src/store/index.ts');
    assert.doesNotMatch(browser.outputFiles[0]!.text, /node:/);
    await assert.rejects(bundle('service/src/secured-key.ts'), /node:crypto/);
  });

  test('bad options are refused with a clear error', () => {
    assert.throws(() => createClient({ appId: '', apiKey: 'k' }), /appId/);
    assert.throws(() => createClient({ appId: 'A', apiKey: 'k', hosts: [] }), /hosts/);
    assert.throws(() => createClient({ appId: 'A', apiKey: 'k', timeouts: { read: -1 } }), /timeouts.read/);
  });
});

describe('endpoints against the local service', () => {
  test('search is a CORS simple request: credentials in the URL, JSON as text/plain, no custom header', async () => {
    const proxy = await startProxy(svc.url);
    try {
      const client = searchClient([proxy.url]);
      const answer = await client.search<{ kind: string }>(INDEX, {
        query: 'laptop',
        hitsPerPage: 5,
        facets: ['brand'],
      });
      assert.equal(answer.hits.length, 5);
      assert.ok(answer.hits.every((h) => h.kind === 'laptop'));
      assert.equal(answer.nbHits, records.filter((r) => r.kind === 'laptop').length);
      const sent = proxy.requests[0]!;
      assert.equal(
        sent.url,
        `/1/indexes/${INDEX}/query?X-Service-Application-Id=${svc.appId}&X-Service-API-Key=${svc.searchKey}`,
      );
      assert.deepEqual(sent.json, { params: 'query=laptop&hitsPerPage=5&facets=%5B%22brand%22%5D' });
      // What makes a cross-origin request "simple" (no preflight): a safelisted content type, no x-* header.
      assert.equal(sent.headers['content-type'], 'text/plain;charset=UTF-8');
      assert.deepEqual(
        Object.keys(sent.headers).filter((name) => name.startsWith('x-')),
        [],
      );
    } finally {
      await proxy.close();
    }
  });

  test('request() (writes, admin calls) keeps the credentials in headers and the JSON content type', async () => {
    const proxy = await startProxy(svc.url);
    try {
      const client = createClient({ appId: svc.appId, apiKey: svc.adminKey, hosts: [proxy.url], cache: false });
      await client.request('PUT', `/1/indexes/${INDEX}_simple/settings`, { hitsPerPage: 7 });
      const sent = proxy.requests[0]!;
      assert.equal(sent.url, `/1/indexes/${INDEX}_simple/settings`);
      assert.equal(sent.headers['x-service-api-key'], svc.adminKey);
      assert.equal(sent.headers['content-type'], 'application/json; charset=UTF-8');
    } finally {
      await proxy.close();
    }
  });

  test('a wrong key is a 403 ApiError with the server message, and a 4xx is not retried', async () => {
    const second = await startStatusServer(200);
    try {
      const client = createClient({ appId: svc.appId, apiKey: 'wrong-key', hosts: [svc.url, second.url] });
      await assert.rejects(client.search(INDEX, { query: 'x' }), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 403);
        assert.equal(error.message, 'Invalid Application-Id or API-Key');
        return true;
      });
      await assert.rejects(searchClient([svc.url, second.url]).search('no_such_index'), (error: unknown) => {
        assert.ok(error instanceof ApiError && !(error instanceof RetryError));
        assert.equal(error.status, 404);
        return true;
      });
      assert.equal(second.hits, 0, 'the next host is never asked after a 4xx');
    } finally {
      await second.close();
    }
  });

  test('multiSearch keeps the order and honours stopIfEnoughMatches', async () => {
    const client = searchClient([svc.url]);
    const requests = [
      { indexName: INDEX, params: { query: 'phone', hitsPerPage: 1000 } },
      { indexName: INDEX, params: { query: 'camera' } },
    ];
    const all = await client.multiSearch<{ kind: string }>(requests);
    assert.equal(all.results.length, 2);
    assert.equal(all.results[0]!.index, INDEX);
    assert.ok(all.results[1]!.hits.every((h) => h.kind === 'camera'));
    const stopped = await client.multiSearch(
      [{ indexName: INDEX, params: { query: 'phone', hitsPerPage: 2 } }, requests[1]!],
      { strategy: 'stopIfEnoughMatches' },
    );
    assert.equal(stopped.results[1]!.processed, false);
    assert.equal(stopped.results[1]!.hits.length, 0);
  });

  test('searchForFacetValues counts honour the other parameters', async () => {
    const client = searchClient([svc.url]);
    const answer = await client.searchForFacetValues(INDEX, 'category', 'comp', { facetFilters: ['brand:Acme'] });
    const expected = records.filter((r) => r.brand === 'Acme' && r.category === 'computing').length;
    assert.deepEqual(
      answer.facetHits.map((h) => [h.value, h.count]),
      [['computing', expected]],
    );
    assert.match(answer.facetHits[0]!.highlighted, /comp/);
  });

  test('browse follows the cursor to the end', async () => {
    const client = createClient({ appId: svc.appId, apiKey: svc.adminKey, hosts: [svc.url] });
    const proxy = await startProxy(svc.url);
    try {
      const viaProxy = createClient({ appId: svc.appId, apiKey: svc.adminKey, hosts: [proxy.url] });
      const seen: string[] = [];
      for await (const page of viaProxy.browse(INDEX, { hitsPerPage: 50 })) seen.push(...page.map((h) => h.objectID));
      assert.deepEqual([...seen].sort(), records.map((r) => r.objectID).sort());
      assert.ok(proxy.requests.length >= 3, `several pages (${proxy.requests.length})`);
      assert.ok(proxy.requests.slice(1).every((r) => typeof (r.json as { cursor?: string }).cursor === 'string'));
      assert.ok(client);
    } finally {
      await proxy.close();
    }
  });

  test('getObjects returns records in order and null for a missing one', async () => {
    const client = searchClient([svc.url]);
    const { results } = await client.getObjects<{ name: string }>([
      { indexName: INDEX, objectID: 'p3', attributesToRetrieve: ['name'] },
      { indexName: INDEX, objectID: 'nope' },
    ]);
    assert.equal(results[0]!.objectID, 'p3');
    assert.equal(results[0]!.name, records[3]!.name);
    assert.equal(results[1], null);
  });

  test('request is the generic call (admin settings read)', async () => {
    const settings = await svc.admin.request<{ attributesForFaceting: string[] }>(
      'GET',
      `/1/indexes/${INDEX}/settings`,
    );
    assert.ok(settings.attributesForFaceting.includes('brand'));
    assert.throws(() => svc.admin.request('GET', 'no-slash'), /path/);
    const events = await svc.admin.request<{ events: unknown[] }>('GET', '/1/_local/events', {
      index: INDEX,
      userToken: 'nobody-here',
    });
    assert.deepEqual(events.events, []);
  });

  test('sendEvents posts to the insights host as a simple request, with keepalive too', async () => {
    const proxy = await startProxy(svc.url);
    try {
      const client = createClient({
        appId: svc.appId,
        apiKey: svc.searchKey,
        hosts: ['http://127.0.0.1:9'],
        insightsHost: proxy.url,
      });
      const event = {
        eventType: 'view' as const,
        eventName: 'Hits Viewed',
        index: INDEX,
        userToken: 'user-1',
        objectIDs: ['p1'],
      };
      const plain = await client.sendEvents([event]);
      assert.equal(plain.status, 200);
      const beacon = await client.sendEvents([{ ...event, userToken: 'user-2' }], { keepalive: true });
      assert.equal(beacon.status, 200);
      // Both as simple requests: the URL parameters carry the header names; keepalive changes nothing else.
      for (const sent of proxy.requests) {
        assert.equal(sent.url, `/1/events?X-Service-Application-Id=${svc.appId}&X-Service-API-Key=${svc.searchKey}`);
        assert.equal(sent.headers['content-type'], 'text/plain;charset=UTF-8');
      }
      assert.equal(
        client.eventsBeaconUrl(),
        `${proxy.url}/1/events?X-Service-Application-Id=${svc.appId}&X-Service-API-Key=${svc.searchKey}`,
      );
      const stored = await svc.admin.request<{ events: Array<{ userToken: string }> }>(
        'GET',
        `/1/_local/events?index=${INDEX}`,
      );
      assert.deepEqual(stored.events.map((e) => e.userToken).sort(), ['user-1', 'user-2']);
    } finally {
      await proxy.close();
    }
  });
});

describe('cache and in-flight sharing', () => {
  test('the same search twice makes one network call; cache false and clearCache call again', async () => {
    const proxy = await startProxy(svc.url);
    try {
      const client = searchClient([proxy.url]);
      const first = await client.search(INDEX, { query: 'phone' });
      first.hits.length = 0; // a caller mutating its copy must not corrupt the cache
      const second = await client.search(INDEX, { query: 'phone' });
      assert.equal(proxy.requests.length, 1);
      assert.ok(second.hits.length > 0);
      await client.search(INDEX, { query: 'phone' }, { cache: false });
      assert.equal(proxy.requests.length, 2);
      client.clearCache();
      await client.search(INDEX, { query: 'phone' });
      assert.equal(proxy.requests.length, 3);
    } finally {
      await proxy.close();
    }
  });

  test('entries expire after ttlMs and the LRU keeps maxEntries', async (t) => {
    // The cache's clock (Date.now) is the test's: five real calls could take longer than ttlMs on a loaded
    // machine and expire 'b' before it is asked again. Timers stay real, so the network calls run as usual.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const proxy = await startProxy(svc.url);
    try {
      const client = searchClient([proxy.url], { cache: { ttlMs: 500, maxEntries: 2 } });
      await client.search(INDEX, { query: 'a' });
      await client.search(INDEX, { query: 'b' });
      await client.search(INDEX, { query: 'c' }); // evicts 'a'
      await client.search(INDEX, { query: 'b' });
      await client.search(INDEX, { query: 'a' });
      assert.equal(proxy.requests.length, 4);
      t.mock.timers.tick(499);
      await client.search(INDEX, { query: 'a' });
      assert.equal(proxy.requests.length, 4, 'still cached 499 ms on');
      t.mock.timers.tick(1);
      await client.search(INDEX, { query: 'a' });
      assert.equal(proxy.requests.length, 5, 'expired 500 ms on');
    } finally {
      await proxy.close();
    }
  });

  test('identical requests in flight share one call, even with the cache off', async () => {
    const proxy = await startProxy(svc.url, () => 60);
    try {
      const client = searchClient([proxy.url], { cache: false });
      const [a, b] = await Promise.all([
        client.search(INDEX, { query: 'speaker' }),
        client.search(INDEX, { query: 'speaker' }),
      ]);
      assert.deepEqual(a.hits, b.hits);
      assert.notEqual(a, b, 'each caller gets its own copy');
      assert.equal(proxy.requests.length, 1);
    } finally {
      await proxy.close();
    }
  });
});

describe('abort', () => {
  test('an aborted call rejects with AbortError; a shared call keeps running for the other caller', async () => {
    const proxy = await startProxy(svc.url, () => 150);
    try {
      const client = searchClient([proxy.url]);
      const pre = new AbortController();
      pre.abort();
      await assert.rejects(client.search(INDEX, { query: 'x' }, { signal: pre.signal }), { name: 'AbortError' });
      assert.equal(proxy.requests.length, 0, 'an already aborted signal sends nothing');

      const controller = new AbortController();
      const aborted = client.search(INDEX, { query: 'camera' }, { signal: controller.signal });
      const other = client.search(INDEX, { query: 'camera' });
      setTimeout(() => controller.abort(), 30);
      await assert.rejects(aborted, { name: 'AbortError' });
      const answer = await other;
      assert.ok(answer.hits.length > 0);

      const alone = new AbortController();
      const lone = client.request('GET', `/1/indexes/${INDEX}/settings`, undefined, { signal: alone.signal });
      setTimeout(() => alone.abort(), 30);
      await assert.rejects(lone, { name: 'AbortError' });
    } finally {
      await proxy.close();
    }
  });
});

describe('retries and host failover', () => {
  test('refused, hanging and 500 hosts are skipped, then remembered down', async () => {
    const refused = await closedPort();
    const hanging = await startHangingServer();
    const failing = await startStatusServer(500);
    try {
      const client = searchClient([refused, hanging.url, failing.url, svc.url], {
        timeouts: { connect: 100, read: 150 },
      });
      const started = Date.now();
      const answer = await client.search(INDEX, { query: 'laptop' });
      assert.ok(answer.nbHits > 0);
      assert.equal(hanging.requests.length, 1);
      assert.equal(failing.hits, 1);
      // attempt 2 (the hanging host) waits (connect + read) × 2 = 500 ms before moving on.
      assert.ok(Date.now() - started >= 480, `waited ${Date.now() - started} ms`);

      await client.search(INDEX, { query: 'phone' });
      assert.equal(hanging.requests.length, 1, 'the hanging host is not tried again while down');
      assert.equal(failing.hits, 1, 'the 500 host is not tried again while down');
    } finally {
      await hanging.close();
      await failing.close();
    }
  });

  test('a down host is tried again once hostDownMs has passed', async (t) => {
    // The client's clock (Date.now) is the test's: a real 100 ms window between two calls is missed now and
    // then on a loaded machine. Timers stay real, so the network calls run as usual.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const failing = await startStatusServer(500);
    try {
      const client = searchClient([failing.url, svc.url], { hostDownMs: 100, cache: false });
      await client.search(INDEX, { query: 'phone' });
      t.mock.timers.tick(99);
      await client.search(INDEX, { query: 'phone' });
      assert.equal(failing.hits, 1, 'still down 99 ms later');
      t.mock.timers.tick(1);
      await client.search(INDEX, { query: 'phone' });
      assert.equal(failing.hits, 2, 'tried again 100 ms later');
    } finally {
      await failing.close();
    }
  });

  test('reads go only to read hosts, writes only to write hosts', async () => {
    const writeOnly = await startStatusServer(500);
    try {
      const client = createClient({
        appId: svc.appId,
        apiKey: svc.adminKey,
        hosts: [
          { url: writeOnly.url, accept: 'write' },
          { url: svc.url, accept: 'read' },
        ],
      });
      await client.search(INDEX, { query: 'phone' });
      assert.equal(writeOnly.hits, 0);
      await assert.rejects(client.request('PUT', `/1/indexes/${INDEX}/p0`, records[0]), RetryError);
      assert.equal(writeOnly.hits, 1);
    } finally {
      await writeOnly.close();
    }
  });

  test('timeouts grow with each retry', async () => {
    // Attempt n has n × (connect + read) = n × 200 ms for the whole answer. Which timeout each attempt had is
    // read from the RetryError (the same number the attempt's AbortSignal.timeout got), not from a clock: an
    // upper bound on elapsed time fails on a loaded machine (attempt 1 was once seen to end after 416 ms).
    const hanging = [await startHangingServer(), await startHangingServer(), await startHangingServer()];
    try {
      const client = searchClient(
        hanging.map((server) => server.url),
        { timeouts: { connect: 50, read: 150 } },
      );
      const started = Date.now();
      await assert.rejects(client.search(INDEX, { query: 'camera' }), (error: unknown) => {
        assert.ok(error instanceof RetryError);
        assert.deepEqual(
          error.attempts.map((attempt) => [attempt.host, attempt.reason, attempt.message]),
          hanging.map((server, i) => [server.url, 'timeout', `no answer within ${(i + 1) * 200} ms`]),
        );
        return true;
      });
      // Each hanging host got one request and saw its socket close a moment after the client gave up.
      for (
        const until = Date.now() + 5000;
        hanging.some((server) => server.closedAfter.length < 1) && Date.now() < until;
      ) {
        await new Promise((r) => setTimeout(r, 5));
      }
      for (const [i, server] of hanging.entries()) {
        assert.deepEqual(
          [server.requests.length, server.closedAfter.length],
          [1, 1],
          `one attempt on host ${i + 1}, given up`,
        );
      }
      // Lower bounds hold under any load: a timer never fires early (2 ms for millisecond rounding), and
      // attempt n starts only once attempt n − 1 gave up (200, then 200 + 400, then 200 + 400 + 600 ms).
      const closed = hanging.map((server) => server.requests[0]! + server.closedAfter[0]! - started);
      assert.ok(closed[0]! >= 198, `attempt 1 gave up ${closed[0]} ms after the call started (200 expected)`);
      assert.ok(closed[1]! >= 598, `attempt 2 gave up ${closed[1]} ms after the call started (600 expected)`);
      assert.ok(closed[2]! >= 1198, `attempt 3 gave up ${closed[2]} ms after the call started (1200 expected)`);
    } finally {
      for (const server of hanging) await server.close();
    }
  });

  test('every host failing is a RetryError listing each attempt', async () => {
    const refused = await closedPort();
    const failing = await startStatusServer(503);
    try {
      const client = searchClient([refused, failing.url], { timeouts: { connect: 100, read: 100 } });
      await assert.rejects(client.search(INDEX, { query: 'x' }), (error: unknown) => {
        assert.ok(error instanceof RetryError);
        assert.equal(error.status, 503);
        assert.deepEqual(
          error.attempts.map((a) => a.reason),
          ['network', 'status'],
        );
        assert.match(error.message, /answering 503 on purpose/);
        return true;
      });
    } finally {
      await failing.close();
    }
  });
});

describe('secured API keys', () => {
  test('a key restricted to one index is refused (403) on another', async () => {
    const key = generateSecuredApiKey(svc.searchKey, {
      restrictIndices: [INDEX],
      validUntil: Math.floor(Date.now() / 1000) + 3600,
    });
    assert.ok(securedApiKeyRemainingValidity(key) > 3500);
    const client = createClient({ appId: svc.appId, apiKey: key, hosts: [svc.url] });
    const allowed = await client.search(INDEX, { query: 'phone' });
    assert.ok(allowed.nbHits > 0);
    await assert.rejects(client.search('client_other', { query: 'phone' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 403);
      return true;
    });
  });

  test('filters are forced, an expired key and a tampered key are refused', async () => {
    const filtered = createClient({
      appId: svc.appId,
      apiKey: generateSecuredApiKey(svc.searchKey, { filters: 'brand:Bolt' }),
      hosts: [svc.url],
    });
    const answer = await filtered.search<{ brand: string }>(INDEX, { query: '', hitsPerPage: 100 });
    assert.equal(answer.nbHits, records.filter((r) => r.brand === 'Bolt').length);
    assert.ok(answer.hits.every((h) => h.brand === 'Bolt'));

    const expired = generateSecuredApiKey(svc.searchKey, { validUntil: Math.floor(Date.now() / 1000) - 10 });
    await assert.rejects(createClient({ appId: svc.appId, apiKey: expired, hosts: [svc.url] }).search(INDEX), {
      status: 403,
    });

    const decoded = Buffer.from(
      generateSecuredApiKey(svc.searchKey, { restrictIndices: 'client_other' }),
      'base64',
    ).toString('utf8');
    const tampered = Buffer.from(decoded.replace('client_other', INDEX)).toString('base64');
    await assert.rejects(createClient({ appId: svc.appId, apiKey: tampered, hosts: [svc.url] }).search(INDEX), {
      status: 403,
    });
  });

  test('the restrictions are serialised as the official clients do', () => {
    const key = generateSecuredApiKey('parent', {
      validUntil: 100,
      restrictIndices: ['a', 'b'],
      searchParams: { filters: 'x y' },
    });
    assert.equal(
      Buffer.from(key, 'base64').toString('utf8').slice(64),
      'filters=x%20y&restrictIndices=a%2Cb&validUntil=100',
    );
    assert.throws(() => generateSecuredApiKey('', {}), /parentKey/);
  });
});
