/**
 * A request body costs memory only once its call is authorised, and all bodies together stay under the
 * service's budget (`maxBodyBytesInFlight`): an unauthenticated or forbidden call is refused while the client
 * is still sending, nothing of its body is buffered (the budget's counter of bytes taken does not move), and
 * what is left of it is drained after the answer; a body that would take the bodies in memory above the
 * budget is a 503 with `Retry-After`.
 *
 * No timing: each test waits for events (an answer, a counter reaching a value), never for a delay.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, type ClientRequest, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startService, type Running } from './service-helpers.js';

const KB = 1024;
const MB = 1024 * KB;
const CHUNK = Buffer.alloc(64 * KB, 0x20); // spaces: valid JSON whitespace before the JSON itself

interface Answer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/** A chunked upload the test drives step by step: write some, wait for the answer, write more, end. */
interface Upload {
  req: ClientRequest;
  /** The answer, once its body has been read. */
  answer: Promise<Answer>;
  /** Whether the request body was ended when the answer arrived. */
  endedWhenAnswered(): boolean;
  /** Writes `bytes` of whitespace (64 KB chunks), each once the one before is on the socket. */
  write(bytes: number): Promise<void>;
  /** Ends the body with `tail` and resolves once it is handed to the socket. */
  end(tail?: string): Promise<void>;
  /** The request is done (its connection back in the agent's pool, or closed). */
  closed: Promise<unknown>;
  /** Errors the client met (a reset, a write after close). */
  errors: Error[];
}

function upload(
  svc: Running,
  path: string,
  headers: Record<string, string>,
  options: { agent?: Agent; contentLength?: number; method?: string } = {},
): Upload {
  const { port } = new URL(svc.url);
  const errors: Error[] = [];
  let ended = false;
  let endedAtAnswer = false;
  const req = request({
    host: '127.0.0.1',
    port,
    path,
    method: options.method ?? 'POST',
    agent: options.agent ?? keepAlive,
    headers: {
      'Content-Type': 'application/json',
      ...(options.contentLength === undefined
        ? { 'Transfer-Encoding': 'chunked' }
        : { 'Content-Length': String(options.contentLength) }),
      ...headers,
    },
  });
  req.on('error', (error) => errors.push(error));
  // The request line and headers go now, before any of the body (Node's client waits for the first write).
  req.flushHeaders();
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('response', (res) => {
      endedAtAnswer = ended;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      res.on('error', reject);
    });
    req.once('error', reject);
  });
  const closed = once(req, 'close');
  return {
    req,
    answer,
    closed,
    errors,
    endedWhenAnswered: () => endedAtAnswer,
    async write(bytes) {
      // Each chunk waits for the one before to reach the socket (not for 'drain': Node's client stops
      // passing the socket's 'drain' on to the request once the answer has been read).
      for (let sent = 0; sent < bytes; sent += CHUNK.length) {
        await new Promise<void>((resolve) => req.write(CHUNK, () => resolve()));
      }
    },
    async end(tail = '') {
      ended = true;
      await new Promise<void>((resolve) => req.end(tail, () => resolve()));
    },
  };
}

/**
 * The connections of the uploads: keep-alive, as browsers and fetch keep them. (Node's client closes a
 * `Connection: close` request's socket as soon as the answer has been read, body sent or not.)
 */
const keepAlive = new Agent({ keepAlive: true });
after(() => keepAlive.destroy());

const credentials = (key: string) => ({ 'X-Service-Application-Id': APP_ID, 'X-Service-API-Key': key });

/** Waits, turn after turn of the event loop, until `condition` holds (an event of the service, not a delay). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await nextTurn();
}

describe('the call is checked before its body is read', () => {
  let svc: Running;
  before(async () => {
    svc = await startService({ dataDir: ':memory:' });
    await svc.ok('PUT', '/1/indexes/shop/1', { name: 'Chair' });
  });
  after(() => svc.stop());

  // Each body within its path's limit (10 MB; 2 MB for Insights), so that it is drained to its end.
  const refused: Array<[string, string, Record<string, string>, number, number]> = [
    ['no credentials', '/1/indexes/shop/batch', {}, 403, 9 * MB],
    [
      'a wrong key in the URL',
      `/1/indexes/shop/batch?x-service-application-id=${APP_ID}&x-service-api-key=wrong`,
      {},
      403,
      9 * MB,
    ],
    ['a wrong key in the headers', '/1/indexes/shop/batch', credentials('wrong'), 403, 9 * MB],
    ['the search key on a write', '/1/indexes/shop/batch', credentials(SEARCH_KEY), 403, 9 * MB],
    ['the search key on a multi-index batch', '/1/indexes/*/batch', credentials(SEARCH_KEY), 403, 9 * MB],
    ['no credentials, Insights', '/1/events', {}, 401, 1.5 * MB],
  ];
  for (const [name, path, headers, status, size] of refused) {
    test(`${name}: a ${size / MB} MB chunked body is refused while it is sent, drained, never buffered`, {
      timeout: 60_000,
    }, async () => {
      const taken = svc.service.bodyBudget.taken;
      const sending = upload(svc, path, headers);
      await sending.write(CHUNK.length);
      // The answer comes before the client sends more than its first 64 KB (reading the body first, the
      // service would wait for all 9 MB: this await would never end).
      const answer = await sending.answer;
      assert.equal(answer.status, status, answer.body);
      assert.equal(sending.endedWhenAnswered(), false);
      assert.match(JSON.parse(answer.body).message, /API-Key|API key|right|Application-Id/);
      // The client sends the rest of its body: the service drains it (within the limit of the path), so the
      // client ends its request without a reset.
      await sending.write(size - CHUNK.length);
      await sending.end();
      await sending.closed;
      assert.deepEqual(sending.errors, []);
      assert.equal(svc.service.bodyBudget.taken, taken, 'no byte of the refused body was buffered');
      assert.equal(svc.service.bodyBudget.held, 0);
      assert.equal((await svc.call('GET', '/1/indexes/shop/1')).status, 200);
    });
  }

  test('a client that asked Connection: close and keeps sending after its answer is drained, then closed without a reset', async () => {
    const taken = svc.service.bodyBudget.taken;
    const { port } = new URL(svc.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    const errors: Error[] = [];
    socket.on('error', (error) => errors.push(error));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
    });
    const closedByService = once(socket, 'end');
    const chunk = `${(64 * KB).toString(16)}\r\n${' '.repeat(64 * KB)}\r\n`;
    socket.write(
      'POST /1/indexes/shop/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    socket.write(chunk);
    // The answer (a short JSON message, Content-Length) comes after the first chunk.
    await until(() => /\r\n\r\n\{.*\}$/s.test(received));
    assert.match(received, /^HTTP\/1\.1 403 /);
    // Kept open for the drain, whatever the client asked; closed by the service once the body has ended.
    assert.match(received, /\r\nConnection: keep-alive\r\n/i);
    for (let sent = 1; sent < 32; sent += 1) await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
    socket.write('0\r\n\r\n');
    await closedByService;
    assert.deepEqual(errors, []);
    assert.equal(svc.service.bodyBudget.taken, taken);
  });

  test('a client that keeps sending past the path limit after its answer has its connection closed', async () => {
    const taken = svc.service.bodyBudget.taken;
    const { port } = new URL(svc.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.on('error', () => {}); // the reset of a closed connection, expected here
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
    });
    const chunk = `${(64 * KB).toString(16)}\r\n${' '.repeat(64 * KB)}\r\n`;
    socket.write(
      'POST /1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    socket.write(chunk);
    await until(() => /\r\n\r\n\{.*\}$/s.test(received));
    assert.match(received, /^HTTP\/1\.1 401 /);
    // Insights' limit is 2 MB: the service drains up to it, then closes. 20 MB is more than the limit and
    // every socket buffer between the two ends together.
    let sent = 0;
    while (!socket.destroyed && sent < 20 * MB) {
      await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
      sent += 64 * KB;
    }
    assert.ok(sent < 20 * MB, `the connection stayed open for ${sent / MB} MB`);
    assert.equal(svc.service.bodyBudget.taken, taken);
  });

  test('every route that takes a body refuses a call without credentials before reading it', {
    timeout: 120_000,
  }, async () => {
    const taken = svc.service.bodyBudget.taken;
    const answers: string[] = [];
    for (const { method, path } of svc.service.routes) {
      if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') continue;
      const concrete = path.replace(/:all\{[^}]*\}/g, '*').replace(/:([A-Za-z]+)(\{[^}]*\})?/g, 'shop');
      const sending = upload(svc, concrete, {}, { method });
      await sending.write(CHUNK.length);
      const answer = await sending.answer;
      sending.req.destroy();
      answers.push(`${answer.status} ${method} ${path}`);
    }
    assert.deepEqual(
      answers.filter((answer) => !/^40[13] /.test(answer)),
      [],
    );
    assert.equal(svc.service.bodyBudget.taken, taken, 'no route read a body before refusing the call');
  });
});

describe('the budget of bodies in memory', () => {
  let svc: Running;
  before(async () => {
    svc = await startService({ dataDir: ':memory:', maxBodyBytesInFlight: MB });
  });
  after(() => svc.stop());

  const batch = JSON.stringify({ requests: [{ action: 'addObject', body: { objectID: 'a', name: 'Lamp' } }] });

  test('a body that would take the bodies in memory above the budget is a 503, the others go through', async () => {
    // A: an authorised upload that holds 768 KB of the 1 MB budget while its client pauses.
    const first = upload(svc, '/1/indexes/shop/batch', credentials(ADMIN_KEY));
    await first.write(768 * KB);
    await until(() => svc.service.bodyBudget.held >= 768 * KB);

    // B: 512 KB announced by Content-Length: refused before it is read.
    const announced = ' '.repeat(512 * KB - batch.length) + batch;
    const second = upload(svc, '/1/indexes/shop/batch', credentials(ADMIN_KEY), {
      contentLength: Buffer.byteLength(announced),
    });
    const refused = await second.answer;
    assert.equal(refused.status, 503, refused.body);
    assert.equal(refused.headers['retry-after'], '1');
    assert.match(JSON.parse(refused.body).message, /^Service busy: .* of the 1048576 bytes/);
    second.req.destroy();

    // C: 512 KB chunked: refused at the chunk that goes above the budget; what it read is given back.
    const third = upload(svc, '/1/indexes/shop/batch', credentials(ADMIN_KEY));
    await third.write(512 * KB);
    await third.end(batch);
    assert.equal((await third.answer).status, 503);
    await until(() => svc.service.bodyBudget.held === 768 * KB);

    // A ends its body: indexed; its bytes are given back once its answer is written.
    await first.end(batch);
    const indexed = await first.answer;
    assert.equal(indexed.status, 200, indexed.body);
    await until(() => svc.service.bodyBudget.held === 0);

    // B again, now that the budget is free: it goes through.
    const retried = upload(svc, '/1/indexes/shop/batch', credentials(ADMIN_KEY), {
      contentLength: Buffer.byteLength(announced),
    });
    await retried.end(announced);
    assert.equal((await retried.answer).status, 200);
    assert.deepEqual([...first.errors, ...third.errors, ...retried.errors], []);
  });

  test('the bytes of a drained body are never counted: a refused 2 MB body leaves the budget free', async () => {
    const sending = upload(svc, '/1/indexes/shop/batch', credentials('wrong'));
    await sending.write(CHUNK.length);
    assert.equal((await sending.answer).status, 403);
    await sending.write(2 * MB);
    await sending.end();
    await sending.closed;
    assert.equal(svc.service.bodyBudget.held, 0);
    // The budget is free for a body of its whole size.
    const body = ' '.repeat(MB - batch.length) + batch;
    assert.equal((await svc.call('POST', '/1/indexes/shop/batch', undefined, { raw: body })).status, 200);
  });

  test('a keep-alive connection whose early answer left a body unread serves the next request once drained', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sending = upload(svc, '/1/indexes/shop/clear', credentials(ADMIN_KEY), { agent });
      await sending.write(CHUNK.length);
      assert.equal((await sending.answer).status, 200);
      await sending.write(2 * MB);
      await sending.end();
      const next = upload(svc, '/1/indexes/shop/batch', credentials(ADMIN_KEY), { agent });
      await next.end(batch);
      assert.equal((await next.answer).status, 200);
      assert.equal(next.req.reusedSocket, true, 'the drained connection was kept');
      assert.deepEqual([...sending.errors, ...next.errors], []);
    } finally {
      agent.destroy();
    }
  });
});
