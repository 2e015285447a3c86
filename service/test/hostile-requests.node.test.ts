/**
 * Bad input is a 4xx with a JSON `{message}`, never a 500, on every route the service answers
 * (`service.routes`): malformed percent-escapes and bytes that are not UTF-8 in the path (before
 * authentication), lone UTF-16 surrogates in searches, filters, multi-queries and writes, names of
 * `Object.prototype` members (`__proto__`, `constructor`, `toString`, …) in paths, query strings, JSON
 * keys, values and headers, an over-long URL and malformed HTTP framing.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, APP_ID, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await svc.ok('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['searchable(brand)'] });
  await svc.ok('PUT', '/1/indexes/shop/1', { name: 'Chair', brand: 'Hon' });
});
after(() => svc.stop());

const CRAWLER = `Basic ${Buffer.from('local-crawler:local-crawler-key').toString('base64')}`;
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const CREDENTIALS = { 'X-Service-Application-Id': APP_ID, 'X-Service-API-Key': ADMIN_KEY, Authorization: CRAWLER };

/** The concrete paths of a route pattern, each parameter replaced by `value` (`:all{\*}` by `*`). */
function pathOf(pattern: string, value: string): string {
  return pattern.replace(/:all\{[^}]*\}/g, '*').replace(/:[A-Za-z]+(\{[^}]*\})?/g, value);
}

/** Sends a request and checks it is not a 500 and that a 4xx carries a JSON message. */
async function notA500(
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<number> {
  const response = await fetch(`${svc.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...init.headers },
    ...(init.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: init.body } : {}),
  });
  const text = await response.text();
  const where = `${method} ${path} ${init.body ?? ''} → ${response.status} ${text.slice(0, 200)}`;
  assert.notEqual(response.status, 500, where);
  if (response.status >= 400) {
    const body = JSON.parse(text) as { message?: unknown };
    assert.equal(typeof body.message, 'string', where);
  }
  return response.status;
}

describe('never a 500', () => {
  test('every route is listed', () => {
    assert.ok(svc.service.routes.length >= 100, `${svc.service.routes.length} routes`);
  });

  test('a malformed percent-escape or invalid UTF-8 in the path is a 400 on every route, with and without credentials', async () => {
    for (const { method, path } of svc.service.routes) {
      for (const bad of ['%ZZ', '%ff%fe', '%E0%A4%A', 'ok%']) {
        if (!pathOf(path, bad).includes(bad)) continue; // no parameter (or only `*`) in this route
        for (const headers of [CREDENTIALS, {}]) {
          const status = await notA500(method, pathOf(path, bad), { body: '{}', headers });
          if (!path.startsWith('/api/')) assert.equal(status, 400, `${method} ${pathOf(path, bad)}`);
        }
      }
    }
    const answer = await svc.call('POST', '/1/indexes/%ZZ/query', {});
    assert.equal(answer.status, 400);
    assert.match(answer.body.message, /path/);
  });

  test('names of Object.prototype members in every path parameter, query parameter and JSON key', async () => {
    for (const { method, path } of svc.service.routes) {
      for (const name of PROTOTYPE_NAMES) {
        const query = ['index', 'type', 'orderBy', 'direction', 'granularity', 'startDate', 'endDate', 'tags', name]
          .map((param) => `${encodeURIComponent(param)}=${encodeURIComponent(name)}`)
          .join('&');
        const body = `{"${name}": {"${name}": "${name}"}, "requests": [{"${name}": 1, "action": "${name}", "indexName": "${name}", "model": "${name}"}], "events": [{"eventType": "${name}"}]}`;
        await notA500(method, `${pathOf(path, name)}?${query}`, { body, headers: CREDENTIALS });
      }
    }
  });

  test('the audit’s usage paths: /1/usage/__proto__, constructor, toString are 422s naming the metric', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const answer = await svc.call(
        'GET',
        `/1/usage/${name}?startDate=2026-01-01T00:00:00Z&endDate=2026-01-02T00:00:00Z`,
      );
      assert.equal(answer.status, 422, name);
      assert.match(answer.body.message, new RegExp(name.replace(/_/g, '_')));
    }
  });

  test('a prototype name as settings, batch action, dictionary, content encoding: 4xx naming it', async () => {
    const settings = await svc.call('PUT', '/1/indexes/shop/settings', JSON.parse('{"toString": 1, "constructor": 2}'));
    assert.equal(settings.status, 400);
    const batch = await svc.call('POST', '/1/indexes/shop/batch', { requests: [{ action: 'constructor', body: {} }] });
    assert.equal(batch.status, 400);
    const dictionary = await svc.call('POST', '/1/dictionaries/constructor/batch', { requests: [] });
    assert.equal(dictionary.status, 400);
    for (const encoding of ['constructor', 'toString', '__proto__']) {
      const answer = await svc.call('POST', '/1/indexes/shop/query', undefined, {
        raw: Buffer.from('{}'),
        headers: { 'Content-Encoding': encoding },
      });
      assert.equal(answer.status, 415, encoding);
    }
  });

  test('a lone UTF-16 surrogate in a query, a filter, a multi-query, a facet query, a record, an event', async () => {
    const lone = '\\ud800';
    const bodies: Array<[string, string, string]> = [
      ['POST', '/1/indexes/shop/query', `{"query": "${lone}"}`],
      ['POST', '/1/indexes/shop/query', `{"filters": "brand:\\"${lone}\\""}`],
      ['POST', '/1/indexes/shop/query', `{"params": "query=%ED%A0%80"}`],
      [
        'POST',
        '/1/indexes/*/queries',
        `{"requests": [{"indexName": "shop", "query": "a${lone}b", "clickAnalytics": true}]}`,
      ],
      ['POST', '/1/indexes/shop/facets/brand/query', `{"facetQuery": "${lone}"}`],
      ['POST', '/1/indexes/shop/browse', `{"query": "${lone}"}`],
      ['PUT', '/1/indexes/shop/2', `{"name": "${lone}"}`],
      [
        'POST',
        '/1/events',
        `{"events": [{"eventType": "view", "eventName": "x", "index": "shop", "userToken": "u", "objectIDs": ["${lone}"]}]}`,
      ],
    ];
    for (const [method, path, body] of bodies) {
      const status = await notA500(method, path, { body, headers: CREDENTIALS });
      assert.ok(status < 500, `${method} ${path}`);
    }
    const search = await svc.call('POST', '/1/indexes/shop/query', undefined, { raw: `{"query": "${lone}"}` });
    assert.equal(search.status, 200);
    assert.match(search.body.params, /query=%EF%BF%BD/);
  });
});

/** Sends raw bytes on a new connection and returns what the server answered (until it closes). */
function rawExchange(bytes: string): Promise<string> {
  const { port } = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve(answer);
    });
  });
}

function statusAndBody(answer: string): { status: number; body: { message?: string } } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  assert.match(head, /content-type: application\/json/i, head);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

describe('what Node answers itself gets a JSON message too', () => {
  test('an over-long URL is a 431 with a JSON message', async () => {
    const answer = await rawExchange(`GET /1/indexes/shop?query=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const { status, body } = statusAndBody(answer);
    assert.equal(status, 431);
    assert.match(body.message ?? '', /too large/i);
  });

  test('malformed framing (a bad request line, a bad chunk size) is a 400 with a JSON message', async () => {
    for (const bytes of [
      'GARBAGE\r\n\r\n',
      'POST /1/indexes/shop/query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /1/indexes/shop/query HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ]) {
      const { status, body } = statusAndBody(await rawExchange(bytes));
      assert.equal(status, 400, JSON.stringify(bytes));
      assert.match(body.message ?? '', /malformed|bad request/i);
    }
  });
});
