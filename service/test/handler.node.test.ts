/**
 * `service.handler` as a Connect/Vite/test-runner middleware: it answers `/1/…` and `/2/…` and calls
 * `next()` for every other path; `:memory:` services keep nothing on disk. Runs on the suite's storage; SQLite's
 * pragmas are checked in durability.node.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createService, DEV_CREDENTIALS, type Service } from '../src/index.js';
import { caller, storageOptions, TEST_STORAGE } from './service-helpers.js';

let service: Service;
let server: Server;
let url: string;
let nextCalls = 0;

before(async () => {
  service = await createService(await storageOptions(':memory:'));
  server = createServer((req, res) =>
    service.handler(req, res, () => {
      nextCalls += 1;
      res.setHeader('content-type', 'text/html');
      res.end('<p>static page</p>');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await service.close();
});

test('paths outside /1/ and /2/ go to next()', async () => {
  for (const path of ['/', '/index.html', '/10/indexes', '/1', '/assets/1/x.js']) {
    const response = await fetch(`${url}${path}`);
    assert.equal(await response.text(), '<p>static page</p>', path);
  }
  assert.equal(nextCalls, 5);
});

test('service paths are answered in-process, next() is not called', async () => {
  const before = nextCalls;
  const call = caller(url);
  const write = await call('PUT', '/1/indexes/mounted/1', { name: 'mounted record' });
  assert.equal(write.status, 200);
  const search = await call('POST', '/1/indexes/mounted/query', { query: 'mount' }, { key: DEV_CREDENTIALS.searchKey });
  assert.equal(search.body.nbHits, 1);
  const unknown = await call('GET', '/2/nothing');
  assert.equal(unknown.status, 404);
  assert.equal(typeof unknown.body.message, 'string');
  assert.equal(nextCalls, before);
});

test('the services are reachable past HTTP (indices, storage, events)', async () => {
  assert.deepEqual(service.services.catalog.names().includes('mounted'), true);
  assert.equal(service.services.catalog.require('mounted').size, 1);
  assert.throws(
    () => service.services.catalog.require('absent'),
    (error: Error & { status?: number }) => error.status === 404,
  );
  // The storage the suite runs on, answering, with the index the call above wrote.
  assert.equal(service.services.storage.kind, TEST_STORAGE);
  assert.equal(await service.services.storage.ping(), true);
  assert.equal((await service.services.storage.catalog.index('mounted'))?.name, 'mounted');
  const seen: unknown[] = [];
  const off = service.services.events.on('insights:usertoken-deleted', (payload) => {
    seen.push(payload);
  });
  await service.services.events.emit('insights:usertoken-deleted', { userToken: 'u1', events: 1 });
  off();
  await service.services.events.emit('insights:usertoken-deleted', { userToken: 'u2', events: 2 });
  assert.deepEqual(seen, [{ userToken: 'u1', events: 1 }]);
});

test('behind a server that read the body first (rawBody, or the stream drained): the body read is used, the limit holds', async () => {
  const local = await createService(await storageOptions(':memory:'));
  // A body parser in front, as Express' raw parser or a cloud function's host: it keeps the bytes as `rawBody`.
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers['x-test-raw-body'] === '1') {
        (req as typeof req & { rawBody: Buffer }).rawBody = Buffer.concat(chunks);
        // Its length is not announced: the limit must hold on the bytes themselves.
        const raw = req.rawHeaders;
        for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === 'content-length') raw.splice(i, 2);
      }
      local.handler(req, res);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const headers = {
    'X-Service-Application-Id': DEV_CREDENTIALS.appId,
    'X-Service-API-Key': DEV_CREDENTIALS.adminKey,
    'Content-Type': 'application/json',
  };
  try {
    const saved = await fetch(`${frontUrl}/1/indexes/raw/kept`, {
      method: 'PUT',
      headers: { ...headers, 'X-Test-Raw-Body': '1' },
      body: JSON.stringify({ name: 'from rawBody' }),
    });
    assert.equal(saved.status, 200);
    assert.equal(local.services.catalog.require('raw').getObject('kept')?.name, 'from rawBody');
    // Drained without rawBody: the body reads as empty (an empty search).
    const drained = await fetch(`${frontUrl}/1/indexes/raw/query`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'never read' }),
    });
    assert.equal(drained.status, 200);
    assert.equal(((await drained.json()) as { query: string }).query, '');
    const tooLarge = await fetch(`${frontUrl}/1/indexes/raw/query`, {
      method: 'POST',
      headers: { ...headers, 'X-Test-Raw-Body': '1' },
      body: JSON.stringify({ query: 'x'.repeat(11 * 1024 * 1024) }),
    });
    assert.equal(tooLarge.status, 413);
  } finally {
    await new Promise((resolve) => front.close(resolve));
    await local.close();
  }
});
