/**
 * Memory stays bounded whatever a client sends: a body sent with `Transfer-Encoding: chunked` (no length
 * announced) is read only up to the limit — 10 MB, 2 MB for Insights — and answered 413 at once, on every
 * route that reads a body; the service does not keep what it did not read. A route that answers without
 * reading the body (it needs none, or it refuses the call first) leaves it to be drained after the answer,
 * so a client still writing reads its answer instead of meeting a reset connection (`body-budget.node.test.ts`
 * covers the refusals before the body and the budget of all bodies). (The soak benchmark,
 * `npm run bench -- soak`, shows memory levelling off under steady load.)
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService({ dataDir: ':memory:' });
  await svc.ok('PUT', '/1/indexes/shop/1', { name: 'Chair' });
});
after(() => svc.stop());

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20); // spaces: valid JSON whitespace, never a parse error

interface Upload {
  status: number;
  body: string;
  /** Bytes the client had written when the answer arrived. */
  sentWhenAnswered: number;
}

/**
 * POSTs `total` bytes with chunked transfer encoding (one 64 KB buffer written again and again, so the
 * client itself holds no body), stops writing once the answer arrives, and resolves with it. The server
 * closes the connection after refusing a body, so each upload has a connection of its own.
 */
function chunkedUpload(path: string, total: number, key = SEARCH_KEY, method = 'POST'): Promise<Upload> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
          'X-Service-Application-Id': APP_ID,
          'X-Service-API-Key': key,
          Authorization: `Basic ${Buffer.from('local-crawler:local-crawler-key').toString('base64')}`,
        },
      },
      (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => {
          // Done with this connection: the service would otherwise wait for the rest of the body.
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered });
        });
        res.on('error', reject);
      },
    );
    // The server may close the connection after its answer while the client still writes.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    // One chunk per turn of the event loop, so that an early answer is read as soon as it arrives (a
    // browser or curl reads it too; a client writing in a tight loop would meet the closed socket first).
    const pump = () => {
      if (answered) return;
      if (sent >= total) {
        req.end();
        return;
      }
      sent += CHUNK.length;
      if (req.write(CHUNK)) setImmediate(pump);
      else req.once('drain', () => setImmediate(pump));
    };
    pump();
  });
}

describe('chunked bodies are cut at the limit', () => {
  test('a 200 MB chunked search body with the public key: 413 before the upload ends, memory not grown by the body', async (t) => {
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const upload = await chunkedUpload('/1/indexes/shop/query', 200 * MB);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.equal(upload.status, 413);
    assert.match(JSON.parse(upload.body).message, /too large/);
    t.diagnostic(
      `answered after ${(upload.sentWhenAnswered / MB).toFixed(1)} MB sent; RSS ${(before / MB).toFixed(0)} MB → peak ${(peak / MB).toFixed(0)} MB`,
    );
    assert.ok(upload.sentWhenAnswered < 100 * MB, `answered after ${upload.sentWhenAnswered / MB} MB of 200`);
    // The service read at most 10 MB (+ one chunk); what the HTTP layer drains before closing is discarded.
    assert.ok(peak - before < 100 * MB, `RSS grew by ${((peak - before) / MB).toFixed(1)} MB (body: 200 MB)`);
    // The service still answers.
    assert.equal((await svc.call('POST', '/1/indexes/shop/query', {})).status, 200);
  });

  test('every route that reads a body answers 413 before the end of a 16 MB chunked body (Insights: 5 MB), the others answer without reading it', async () => {
    // Path parameters that reach the body where the route needs an existing resource.
    const crawler = await fetch(`${svc.url}/api/1/crawlers`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from('local-crawler:local-crawler-key').toString('base64')}`,
      },
      body: JSON.stringify({
        name: 'c',
        config: {
          appId: APP_ID,
          apiKey: ADMIN_KEY,
          indexPrefix: 'c_',
          rateLimit: 1,
          startUrls: ['http://127.0.0.1:9/'], // nothing listens there: a run ends at once
          actions: [
            {
              indexName: 'x',
              pathsToMatch: ['http://127.0.0.1:9/**'],
              recordExtractor: { __type: 'function', source: '() => []' },
            },
          ],
        },
      }),
    }).then((response) => response.json() as Promise<{ id?: string }>);
    await svc.ok('PUT', '/1/indexes/sweep/1', { name: 'Chair' });
    const values: Record<string, string> = { dictionaryName: 'stopwords', objectID: '1', id: crawler.id ?? 'x' };
    const answers: string[] = [];
    for (const { method, path } of svc.service.routes) {
      if (method === 'GET' || method === 'DELETE') continue;
      const concrete = path
        .replace(/:all\{[^}]*\}/g, '*')
        .replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_, name: string) => values[name] ?? 'sweep');
      const size = concrete === '/1/events' ? 5 * MB : 16 * MB;
      const upload = await chunkedUpload(concrete, size, ADMIN_KEY, method);
      assert.ok(upload.status < 500, `${method} ${concrete}: ${upload.status} ${upload.body}`);
      if (upload.status === 413) {
        assert.ok(upload.sentWhenAnswered < size, `${method} ${concrete} answered only once the whole body was sent`);
      }
      answers.push(`${upload.status} ${method} ${path}`);
    }
    // Every route that reads a body refused it with a 413. The others answered without reading it: the ones
    // that need none (`POST …/clear`, the crawler's run, pause and reindex) and the ones that refuse the call
    // before its body (a path naming nothing, a missing header) — the body is read only once the call is
    // checked, and what is left of it is drained after the answer.
    assert.deepEqual(answers.filter((answer) => !answer.startsWith('413 ')).sort(), [
      '200 POST /1/indexes/:indexName/clear',
      '200 POST /1/indexes/:indexName/rules/clear',
      '200 POST /1/indexes/:indexName/synonyms/clear',
      '200 POST /api/1/crawlers/:id/pause',
      '200 POST /api/1/crawlers/:id/reindex',
      '200 POST /api/1/crawlers/:id/run',
      '400 POST /1/clusters/mapping', // needs X-Service-User-ID before its body
      '400 POST /api/1/crawlers/:id/tasks/:taskId/cancel', // no such task
      '404 POST /1/_local/configs/:indexName/build', // no such configuration
      '404 POST /1/keys/:key/restore', // no such key
      '422 POST /2/abtests/:id/stop', // no such A/B test
    ]);
    // The index of the sweep was cleared by `POST …/clear`; the other one is untouched.
    assert.equal((await svc.call('GET', '/1/indexes/shop/1')).status, 200);
  });

  test('a route that answers without reading the body (it needs none, or refuses the call) is read by a client still sending', async () => {
    await svc.ok('PUT', '/1/indexes/to_clear/1', { name: 'Chair' });
    // 2 MB of chunked whitespace: more than the socket buffers hold. The answer may come while the client
    // still writes; the service drains the body rather than closing the connection under the client, so the
    // client reads its answer (no reset).
    const cleared = await chunkedUpload('/1/indexes/to_clear/clear', 2 * MB, ADMIN_KEY);
    assert.equal(cleared.status, 200, cleared.body);
    assert.deepEqual(
      (await svc.ok('GET', `/1/indexes/to_clear/task/${JSON.parse(cleared.body).taskID}`)).status,
      'published',
    );
    assert.equal((await svc.call('GET', '/1/indexes/to_clear/1')).status, 404);
    const refused = await chunkedUpload('/1/keys/no-such-key/restore', 2 * MB, ADMIN_KEY);
    assert.equal(refused.status, 404, refused.body);
    const unknownKey = await chunkedUpload('/1/indexes/to_clear/clear', 2 * MB, 'no-such-key');
    assert.equal(unknownKey.status, 403, unknownKey.body);
  });
});
