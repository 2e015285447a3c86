/**
 * Credentials on every API, as the official clients' browser builds send them: URL parameters
 * `x-service-application-id` / `x-service-api-key` (any case; `x-algolia-*` renamed by a proxy) with a JSON
 * body sent as `text/plain`, so a cross-origin call is a CORS simple request without a preflight; headers
 * keep priority. And one rule for refused credentials: missing ones are a 401 on the APIs of documents 2
 * and 3, wrong ones a 403 except where the document lists only 401; document 1's APIs answer 403 for both.
 * (The official clients themselves, through a renaming proxy in Chromium: test/e2e/official-clients.node.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await svc.ok('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['searchable(brand)'] });
  await svc.ok('PUT', '/1/indexes/shop/1', { name: 'Chair', brand: 'Hon' });
  await svc.ok('PUT', '/1/indexes/other/settings', {});
});
after(() => svc.stop());

/** One call of each API: [API, method, path, body?]. */
const CALLS: Array<[string, string, string, unknown?]> = [
  ['search', 'POST', '/1/indexes/shop/query', { query: 'chair' }],
  ['search GET', 'GET', '/1/indexes/shop?query=chair'],
  ['multi-query', 'POST', '/1/indexes/*/queries', { requests: [{ indexName: 'shop' }] }],
  ['facet search', 'POST', '/1/indexes/shop/facets/brand/query', { facetQuery: 'h' }],
  ['browse', 'POST', '/1/indexes/shop/browse', {}],
  ['get objects', 'POST', '/1/indexes/*/objects', { requests: [{ indexName: 'shop', objectID: '1' }] }],
  ['records', 'PUT', '/1/indexes/shop/2', { name: 'Desk' }],
  ['settings', 'GET', '/1/indexes/shop/settings'],
  ['keys', 'GET', '/1/keys'],
  ['rules', 'POST', '/1/indexes/shop/rules/search', { query: '' }],
  ['dictionaries', 'GET', '/1/dictionaries/*/settings'],
  ['clusters', 'GET', '/1/clusters'],
  ['logs', 'GET', '/1/logs'],
  [
    'Recommend',
    'POST',
    '/1/indexes/*/recommendations',
    { requests: [{ indexName: 'shop', model: 'trending-items', threshold: 0 }] },
  ],
  [
    'Insights',
    'POST',
    '/1/events',
    { events: [{ eventType: 'view', eventName: 'V', index: 'shop', userToken: 'u1', objectIDs: ['1'] }] },
  ],
  ['Analytics', 'GET', '/2/searches/count?index=shop'],
  ['A/B test', 'GET', '/2/abtests'],
  ['Query Suggestions', 'GET', '/1/configs'],
  ['Personalization', 'GET', '/1/profiles/personalization/u1'],
  ['Usage', 'GET', '/1/usage/total_operations?startDate=2026-01-01&endDate=2026-01-02'],
  ['Monitoring', 'GET', '/1/status'],
];

function withQuery(path: string, query: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** A call as a browser's simple request: credentials in the URL, the JSON body as text/plain, no custom header. */
async function simple(method: string, path: string, body: unknown, names: [string, string], key = ADMIN_KEY) {
  const url = `${svc.url}${withQuery(path, `${names[0]}=${APP_ID}&${names[1]}=${key}&x-service-agent=Browser`)}`;
  const response = await fetch(url, {
    method,
    headers: { 'Content-Type': 'text/plain', Origin: 'https://shop.example' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

describe('credentials in the URL, on every API', () => {
  test('lower-case names (the browser clients’ own), a text/plain JSON body: accepted everywhere', async () => {
    for (const names of [
      ['x-service-application-id', 'x-service-api-key'],
      ['X-Service-Application-Id', 'X-Service-API-Key'],
      ['X-SERVICE-APPLICATION-ID', 'x-Service-Api-Key'],
    ] as Array<[string, string]>) {
      for (const [api, method, path, body] of CALLS) {
        const answer = await simple(method, path, body, names);
        assert.ok(
          answer.status === 200 || (api === 'Personalization' && answer.status === 404),
          `${api} ${method} ${path} ${names}: ${answer.status} ${JSON.stringify(answer.body)}`,
        );
        assert.equal(answer.headers.get('access-control-allow-origin'), '*', api);
      }
    }
    const search = await simple(
      'POST',
      '/1/indexes/shop/query',
      { query: 'chair' },
      ['x-service-application-id', 'x-service-api-key'],
      SEARCH_KEY,
    );
    assert.equal((search.body.hits as unknown[]).length, 1, 'the text/plain body was read as JSON');
  });

  test('headers keep priority over the URL parameters', async () => {
    const url = (key: string) =>
      withQuery('/1/indexes/shop/settings', `x-service-application-id=${APP_ID}&x-service-api-key=${key}`);
    // A wrong header key is not rescued by a right URL key…
    assert.equal((await svc.call('GET', url(ADMIN_KEY), undefined, { key: 'wrong' })).status, 403);
    // …and a right header key is not spoiled by a wrong URL one.
    assert.equal((await svc.call('GET', url('wrong'), undefined, { key: ADMIN_KEY })).status, 200);
    // The search key in the header holds no settings right, whatever the URL says.
    assert.equal((await svc.call('GET', url(ADMIN_KEY), undefined, { key: SEARCH_KEY })).status, 403);
  });

  test('a preflight is answered with Access-Control-Max-Age: 86400 (one per URL and day)', async () => {
    for (const path of ['/1/indexes/shop/query', '/1/events', '/2/searches/count', '/1/usage/total_operations']) {
      const response = await fetch(`${svc.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-service-api-key,x-service-application-id',
        },
      });
      assert.equal(response.status, 204, path);
      assert.equal(response.headers.get('access-control-max-age'), '86400', path);
      assert.match(response.headers.get('access-control-allow-headers') ?? '', /X-Service-API-Key/i, path);
    }
  });

  test('the key given in the URL never reaches the call log, whatever its case', async () => {
    await simple('POST', '/1/indexes/shop/query', {}, ['x-service-application-id', 'X-SERVICE-API-KEY'], SEARCH_KEY);
    const { logs } = await svc.ok('GET', '/1/logs?length=5');
    const logged = JSON.stringify(logs);
    assert.ok(!logged.includes(SEARCH_KEY), 'the search key is not in the log');
  });
});

describe('refused credentials: one rule', () => {
  /** [API, method, path, body?, status for wrong credentials]; missing credentials: 401 outside document 1. */
  const REFUSALS: Array<[string, string, string, unknown, number, number]> = [
    ['search (document 1)', 'POST', '/1/indexes/shop/query', {}, 403, 403],
    ['keys (document 1)', 'GET', '/1/keys', undefined, 403, 403],
    ['Analytics', 'GET', '/2/searches/count?index=shop', undefined, 401, 403],
    ['A/B test', 'GET', '/2/abtests', undefined, 401, 403],
    ['Insights', 'POST', '/1/events', { events: [] }, 401, 401],
    ['Recommend', 'POST', '/1/indexes/*/recommendations', { requests: [] }, 401, 401],
    ['Query Suggestions', 'GET', '/1/configs', undefined, 401, 401],
    ['Personalization', 'GET', '/1/strategies/personalization', undefined, 401, 401],
    ['Usage', 'GET', '/1/usage/total_operations?startDate=2026-01-01&endDate=2026-01-02', undefined, 401, 403],
    ['Monitoring', 'GET', '/1/status', undefined, 401, 403],
  ];

  test('missing: 401 on the APIs of documents 2 and 3 (Analytics as A/B test, Insights and Query Suggestions), 403 on document 1’s', async () => {
    for (const [api, method, path, body, missing] of REFUSALS) {
      for (const options of [{ key: null, appId: null }, { key: null }, { appId: null }]) {
        const answer = await svc.call(method, path, body, options);
        assert.equal(answer.status, missing, `${api} ${JSON.stringify(options)}: ${JSON.stringify(answer.body)}`);
        assert.equal(typeof answer.body.message, 'string');
      }
    }
  });

  test('wrong: 403 where the document says "invalid credentials", 401 where it lists only 401', async () => {
    for (const [api, method, path, body, , wrong] of REFUSALS) {
      for (const options of [{ key: 'wrong-key' }, { appId: 'OTHER' }]) {
        const answer = await svc.call(method, path, body, options);
        assert.equal(answer.status, wrong, `${api} ${JSON.stringify(options)}`);
        assert.equal(answer.body.message, 'Invalid Application-Id or API-Key', api);
      }
    }
  });
});
