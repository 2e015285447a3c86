/**
 * Authentication over HTTP: the two headers, the 403 message, admin vs search rights per endpoint,
 * CORS, secured API keys (restrictIndices, validUntil, filters, userToken, referers, restrictSources)
 * and keys created through /1/keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateSecuredApiKey } from '../src/secured-key.js';
import { index, SEARCH_KEY, securedKey, startService, type Running } from './service-helpers.js';

let svc: Running;

before(async () => {
  // The service clock stands still mid-hour: the maxQueriesPerIPPerHour counters of one test never straddle
  // the turn of an hour (tests that need time to pass start their own service with a clock they move).
  const midHour = Date.parse('2026-03-01T12:30:00Z');
  svc = await startService({ now: () => midHour });
  await index(
    svc,
    'books',
    [
      { objectID: '1', title: 'The Hobbit', owner: 'alice', year: 1937 },
      { objectID: '2', title: 'The Silmarillion', owner: 'bob', year: 1977 },
      { objectID: '3', title: 'Hobbit companion', owner: 'bob', year: 2001 },
    ],
    { attributesForFaceting: ['owner', 'year'] },
  );
  await index(svc, 'music', [{ objectID: 'm1', title: 'Hobbit songs' }]);
});
after(() => svc.stop());

const FORBIDDEN = { message: 'Invalid Application-Id or API-Key' };

describe('credentials', () => {
  test('missing or wrong headers answer 403 with the documented message', async () => {
    for (const options of [{ key: null }, { appId: null }, { key: 'nope' }, { appId: 'OTHER' }]) {
      const answer = await svc.call('POST', '/1/indexes/books/query', { query: 'hobbit' }, options);
      assert.equal(answer.status, 403, JSON.stringify(options));
      assert.deepEqual(answer.body, FORBIDDEN);
    }
  });

  // Credentials as URL parameters (any case, every API) and the 401/403 rule: url-credentials.node.test.ts.

  test('the search key may search and browse, nothing else', async () => {
    const asSearch = { key: SEARCH_KEY };
    assert.equal((await svc.call('POST', '/1/indexes/books/query', { query: 'hobbit' }, asSearch)).status, 200);
    assert.equal((await svc.call('GET', '/1/indexes/books?query=hobbit', undefined, asSearch)).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/books/browse', {}, asSearch)).status, 200);
    assert.equal(
      (await svc.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'books' }] }, asSearch)).status,
      200,
    );
    const refused: Array<[string, string, unknown?]> = [
      ['POST', '/1/indexes/books', { title: 'x' }],
      ['PUT', '/1/indexes/books/9', { title: 'x' }],
      ['POST', '/1/indexes/books/9/partial', { title: 'x' }],
      ['DELETE', '/1/indexes/books/1'],
      ['POST', '/1/indexes/books/clear'],
      ['POST', '/1/indexes/books/deleteByQuery', { filters: 'owner:bob' }],
      ['POST', '/1/indexes/books/batch', { requests: [{ action: 'addObject', body: { a: 1 } }] }],
      ['GET', '/1/indexes/books/settings'],
      ['PUT', '/1/indexes/books/settings', { hitsPerPage: 5 }],
      ['GET', '/1/indexes'],
      ['DELETE', '/1/indexes/books'],
      ['POST', '/1/indexes/books/operation', { operation: 'copy', destination: 'books2' }],
      ['GET', '/1/keys'],
      ['POST', '/1/keys', { acl: ['search'] }],
    ];
    for (const [method, path, body] of refused) {
      const answer = await svc.call(method, path, body, asSearch);
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.equal(typeof answer.body.message, 'string');
    }
    // Nothing was written by the refused calls.
    assert.equal((await svc.ok('POST', '/1/indexes/books/query', { query: '' })).nbHits, 3);
  });

  test('a batch needs the right of each of its actions', async () => {
    const key = (await svc.ok('POST', '/1/keys', { acl: ['addObject'] })).key as string;
    const add = await svc.call(
      'POST',
      '/1/indexes/scratch/batch',
      { requests: [{ action: 'addObject', body: { objectID: 'a' } }] },
      { key },
    );
    assert.equal(add.status, 200);
    const del = await svc.call(
      'POST',
      '/1/indexes/scratch/batch',
      { requests: [{ action: 'deleteObject', body: { objectID: 'a' } }] },
      { key },
    );
    assert.equal(del.status, 403);
    const clear = await svc.call('POST', '/1/indexes/scratch/batch', { requests: [{ action: 'clear' }] }, { key });
    assert.equal(clear.status, 403);
  });
});

describe('credentials before the body (every route)', () => {
  const NONE = { key: null, appId: null };
  const WRONG = { key: 'nope' };
  const MALFORMED = '{"requests": [';

  test('the multi-index endpoints refuse a call without credentials even when `requests` is empty', async () => {
    for (const path of ['/1/indexes/*/queries', '/1/indexes/*/batch', '/1/indexes/*/objects']) {
      for (const options of [NONE, WRONG, { appId: 'OTHER' }]) {
        const answer = await svc.call('POST', path, { requests: [] }, options);
        assert.deepEqual([answer.status, answer.body], [403, FORBIDDEN], `${path} ${JSON.stringify(options)}`);
      }
    }
    // Recommend answers 401 for missing credentials (document 2), also before it refuses the empty list.
    const recommend = await svc.call('POST', '/1/indexes/*/recommendations', { requests: [] }, NONE);
    assert.equal(recommend.status, 401);
    assert.match(recommend.body.message, /required/);
  });

  test('an empty `requests` still needs the right of the endpoint: search for queries and objects, addObject for a batch', async () => {
    const create = async (acl: string[]) => (await svc.ok('POST', '/1/keys', { acl })).key as string;
    const browseOnly = await create(['browse']);
    const deleteOnly = await create(['deleteObject']);
    const adder = await create(['addObject']);
    const empty = { requests: [] };
    const cases: Array<[string, string, number, RegExp?]> = [
      ['/1/indexes/*/queries', browseOnly, 403, /the right search is needed/],
      ['/1/indexes/*/objects', browseOnly, 403, /the right search is needed/],
      ['/1/indexes/*/batch', deleteOnly, 403, /the right addObject is needed/],
      ['/1/indexes/books/batch', deleteOnly, 403, /the right addObject is needed/],
      ['/1/indexes/*/queries', SEARCH_KEY, 200],
      ['/1/indexes/*/objects', SEARCH_KEY, 200],
      ['/1/indexes/*/batch', adder, 200],
      ['/1/indexes/books/batch', adder, 200],
    ];
    for (const [path, key, status, message] of cases) {
      const answer = await svc.call('POST', path, empty, { key });
      assert.equal(answer.status, status, `${path} ${key}: ${JSON.stringify(answer.body)}`);
      if (message) assert.match(answer.body.message, message);
    }
    // A key with deleteObject alone may still send a batch of deletions (the right of each action).
    const deletion = await svc.call(
      'POST',
      '/1/indexes/*/batch',
      { requests: [{ action: 'deleteObject', indexName: 'books', body: { objectID: 'none' } }] },
      { key: deleteOnly },
    );
    assert.equal(deletion.status, 200, JSON.stringify(deletion.body));
  });

  test('the multi-index endpoints check each index after the credentials (restricted key)', async () => {
    const key = (await svc.ok('POST', '/1/keys', { acl: ['search', 'addObject'], indexes: ['books'] })).key as string;
    assert.equal(
      (await svc.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'books' }] }, { key })).status,
      200,
    );
    const queries = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      { requests: [{ indexName: 'books' }, { indexName: 'music' }] },
      { key },
    );
    assert.deepEqual([queries.status, queries.body.message], [403, 'Index music is not allowed with this API key']);
    const objects = await svc.call(
      'POST',
      '/1/indexes/*/objects',
      { requests: [{ indexName: 'music', objectID: 'm1' }] },
      { key },
    );
    assert.deepEqual([objects.status, objects.body.message], [403, 'Index music is not allowed with this API key']);
    const batch = await svc.call(
      'POST',
      '/1/indexes/*/batch',
      { requests: [{ action: 'addObject', indexName: 'music', body: { objectID: 'm9' } }] },
      { key },
    );
    assert.deepEqual([batch.status, batch.body.message], [403, 'Index music is not allowed with this API key']);
    const copy = await svc.call(
      'POST',
      '/1/indexes/books/operation',
      { operation: 'copy', destination: 'music' },
      { key },
    );
    assert.deepEqual([copy.status, copy.body.message], [403, 'Index music is not allowed with this API key']);
    assert.equal((await svc.ok('POST', '/1/indexes/music/query', { query: '' })).nbHits, 1, 'nothing written to music');
  });

  test('wrong or missing credentials with a malformed body answer 403 (401 where the document says so), never 400', async () => {
    // Every route that reads a body; the status for refused credentials as each section's document says.
    const routes: Array<[string, string, number]> = [
      ['POST', '/1/indexes/*/queries', 403],
      ['POST', '/1/indexes/*/batch', 403],
      ['POST', '/1/indexes/*/objects', 403],
      ['POST', '/1/indexes/books/operation', 403],
      ['POST', '/1/indexes/books/query', 403],
      ['POST', '/1/indexes/books/facets/owner/query', 403],
      ['POST', '/1/indexes/books/browse', 403],
      ['POST', '/1/indexes/books', 403],
      ['PUT', '/1/indexes/books/9', 403],
      ['POST', '/1/indexes/books/9/partial', 403],
      ['POST', '/1/indexes/books/batch', 403],
      ['POST', '/1/indexes/books/deleteByQuery', 403],
      ['PUT', '/1/indexes/books/settings', 403],
      ['POST', '/1/indexes/books/rules/batch', 403],
      ['POST', '/1/indexes/books/rules/search', 403],
      ['PUT', '/1/indexes/books/rules/r1', 403],
      ['POST', '/1/indexes/books/synonyms/batch', 403],
      ['POST', '/1/indexes/books/synonyms/search', 403],
      ['PUT', '/1/indexes/books/synonyms/s1', 403],
      ['POST', '/1/keys', 403],
      ['PUT', `/1/keys/${SEARCH_KEY}x`, 403],
      ['POST', '/1/indexes/books/keys', 403],
      ['PUT', '/1/indexes/books/keys/k1', 403],
      ['POST', '/1/dictionaries/stopwords/batch', 403],
      ['POST', '/1/dictionaries/stopwords/search', 403],
      ['PUT', '/1/dictionaries/*/settings', 403],
      ['POST', '/1/clusters/mapping/batch', 403],
      ['POST', '/1/clusters/mapping/search', 403],
      ['POST', '/1/indexes/*/recommendations', 401],
      ['POST', '/1/strategies/personalization', 401],
      ['POST', '/1/configs', 401],
      ['PUT', '/1/configs/books', 401],
      ['POST', '/1/events', 401],
      ['POST', '/2/abtests', 403], // 401 only when a credential is missing altogether (below)
    ];
    for (const [method, path, status] of routes) {
      const wrong = await svc.call(method, path, undefined, { ...WRONG, raw: MALFORMED });
      assert.equal(wrong.status, status, `${method} ${path} wrong key: ${JSON.stringify(wrong.body)}`);
      assert.equal(wrong.body.message, FORBIDDEN.message, `${method} ${path}`);
      const none = await svc.call(method, path, undefined, { ...NONE, raw: MALFORMED });
      assert.equal(
        none.status,
        path === '/2/abtests' ? 401 : status,
        `${method} ${path} no credentials: ${JSON.stringify(none.body)}`,
      );
      // With the admin key the same body is refused as malformed: the order is what the test is about.
      const admin = await svc.call(method, path, undefined, { raw: MALFORMED });
      assert.equal(admin.status, 400, `${method} ${path} admin key: ${JSON.stringify(admin.body)}`);
    }
  });
});

describe('CORS', () => {
  test('a preflight is answered without credentials and allows the two custom headers', async () => {
    const response = await fetch(`${svc.url}/1/indexes/books/query`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-service-application-id,x-service-api-key',
      },
    });
    assert.ok(response.status === 204 || response.status === 200, String(response.status));
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['content-type', 'x-service-application-id', 'x-service-api-key'])
      assert.ok(allowed.includes(header), allowed);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
  });

  test('answers (also errors) carry Access-Control-Allow-Origin', async () => {
    const ok = await svc.call(
      'POST',
      '/1/indexes/books/query',
      {},
      { key: SEARCH_KEY, headers: { Origin: 'https://shop.example' } },
    );
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const refused = await svc.call(
      'POST',
      '/1/indexes/books/query',
      {},
      { key: 'wrong', headers: { Origin: 'https://shop.example' } },
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  });
});

describe('secured API keys', () => {
  test('restrictIndices: allowed index answers, another index is refused', async () => {
    const key = securedKey(SEARCH_KEY, { restrictIndices: 'books' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', { query: 'hobbit' }, { key })).status, 200);
    const other = await svc.call('POST', '/1/indexes/music/query', { query: 'hobbit' }, { key });
    assert.equal(other.status, 403);
    const multi = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      { requests: [{ indexName: 'books' }, { indexName: 'music' }] },
      { key },
    );
    assert.equal(multi.status, 403);
  });

  test('restrictIndices accepts wildcards', async () => {
    const key = securedKey(SEARCH_KEY, { restrictIndices: 'boo*' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/music/query', {}, { key })).status, 403);
  });

  test('validUntil in the past is refused, in the future accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = securedKey(SEARCH_KEY, { validUntil: now - 10 });
    const answer = await svc.call('POST', '/1/indexes/books/query', {}, { key: expired });
    assert.equal(answer.status, 403);
    assert.match(answer.body.message, /expired/);
    const valid = securedKey(SEARCH_KEY, { validUntil: now + 3600 });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key: valid })).status, 200);
  });

  test('filters are enforced and cannot be widened by the query', async () => {
    const key = securedKey(SEARCH_KEY, { filters: 'owner:bob' });
    const all = await svc.ok('POST', '/1/indexes/books/query', { query: '' }, { key });
    assert.deepEqual(all.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['2', '3']);
    const widened = await svc.ok(
      'POST',
      '/1/indexes/books/query',
      { query: '', filters: 'owner:alice OR owner:bob' },
      { key },
    );
    assert.deepEqual(widened.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['2', '3']);
    const breakOut = await svc.call(
      'POST',
      '/1/indexes/books/query',
      { query: '', filters: 'year > 0) OR (owner:alice' },
      { key },
    );
    assert.equal(breakOut.status, 400, 'unbalanced parentheses cannot escape the key filters');
    const both = await svc.ok(
      'POST',
      '/1/indexes/books/query',
      { query: '', filters: 'year > 1950 AND NOT owner:alice' },
      { key },
    );
    assert.deepEqual(both.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['2', '3']);
    const narrowed = await svc.ok('POST', '/1/indexes/books/query', { query: '', filters: 'year > 2000' }, { key });
    assert.deepEqual(
      narrowed.hits.map((hit: { objectID: string }) => hit.objectID),
      ['3'],
    );
    const aliceOnly = await svc.ok(
      'POST',
      '/1/indexes/books/query',
      { query: '', facetFilters: ['owner:alice'] },
      { key },
    );
    assert.equal(aliceOnly.nbHits, 0);
    // Browse and get objects honour them too.
    const browsed = await svc.ok('POST', '/1/indexes/books/browse', {}, { key });
    assert.deepEqual(browsed.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['2', '3']);
    const objects = await svc.ok(
      'POST',
      '/1/indexes/*/objects',
      {
        requests: [
          { indexName: 'books', objectID: '1' },
          { indexName: 'books', objectID: '2' },
        ],
      },
      { key },
    );
    assert.equal(objects.results[0], null);
    assert.equal(objects.results[1].objectID, '2');
  });

  test('browse: a forged cursor, or one made with another key, cannot lift the filters', async () => {
    const key = securedKey(SEARCH_KEY, { filters: 'owner:bob', hitsPerPage: 1 });
    const first = await svc.ok('POST', '/1/indexes/books/browse', {}, { key });
    assert.equal(first.hits.length, 1);
    const second = await svc.ok('POST', '/1/indexes/books/browse', { cursor: first.cursor }, { key });
    assert.deepEqual([first.hits[0].objectID, second.hits[0].objectID].sort(), ['2', '3']);
    assert.equal(second.cursor, undefined);
    const forged = Buffer.from(JSON.stringify({ p: 'hitsPerPage=1000', o: 0 })).toString('base64url');
    for (const cursor of [forged, `${forged}.AAAAAAAAAAAAAAAAAAAAAA`]) {
      const answer = await svc.call('POST', '/1/indexes/books/browse', { cursor }, { key });
      assert.equal(answer.status, 400);
      assert.match(answer.body.message, /cursor/);
    }
    const adminFirst = await svc.ok('POST', '/1/indexes/books/browse', { hitsPerPage: 1 });
    assert.equal(
      (await svc.call('POST', '/1/indexes/books/browse', { cursor: adminFirst.cursor }, { key })).status,
      400,
    );
    assert.equal((await svc.call('POST', '/1/indexes/music/browse', { cursor: first.cursor })).status, 400);
  });

  test('other forced parameters replace the query’s (hitsPerPage)', async () => {
    const key = securedKey(SEARCH_KEY, { hitsPerPage: 1 });
    const answer = await svc.ok('POST', '/1/indexes/books/query', { query: '', hitsPerPage: 50 }, { key });
    assert.equal(answer.hits.length, 1);
    assert.equal(answer.hitsPerPage, 1);
  });

  test('userToken is forced on the search (and logged with its queryID)', async () => {
    const key = securedKey(SEARCH_KEY, { userToken: 'user-42' });
    const answer = await svc.ok(
      'POST',
      '/1/indexes/books/query',
      { query: 'hobbit', clickAnalytics: true, userToken: 'someone-else' },
      { key },
    );
    assert.equal((await svc.service.services.searchLog.get(answer.queryID))?.userToken, 'user-42');
  });

  test('referers: a request from another referer is refused', async () => {
    const key = securedKey(SEARCH_KEY, { referers: ['https://shop.example/*', '*.partner.example'] });
    const allowed = await svc.call(
      'POST',
      '/1/indexes/books/query',
      {},
      { key, headers: { Referer: 'https://shop.example/search?q=x' } },
    );
    assert.equal(allowed.status, 200);
    const subdomain = await svc.call(
      'POST',
      '/1/indexes/books/query',
      {},
      { key, headers: { Referer: 'https://www.partner.example/' } },
    );
    assert.equal(subdomain.status, 200);
    const other = await svc.call(
      'POST',
      '/1/indexes/books/query',
      {},
      { key, headers: { Referer: 'https://evil.example/' } },
    );
    assert.equal(other.status, 403);
    const none = await svc.call('POST', '/1/indexes/books/query', {}, { key });
    assert.equal(none.status, 403);
  });

  test('restrictSources: loopback allowed by 127.0.0.0/8, refused by another network', async () => {
    const local = securedKey(SEARCH_KEY, { restrictSources: '127.0.0.0/8' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key: local })).status, 200);
    const remote = securedKey(SEARCH_KEY, { restrictSources: '192.168.1.0/24' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key: remote })).status, 403);
  });

  test('a key signed with the admin key, or tampered with, is refused', async () => {
    const fromAdmin = securedKey('local-admin-key', { restrictIndices: 'books' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key: fromAdmin })).status, 403);
    const genuine = Buffer.from(securedKey(SEARCH_KEY, { filters: 'owner:bob' }), 'base64').toString();
    const tampered = Buffer.from(genuine.replace('owner%3Abob', 'owner%3Aali')).toString('base64');
    const answer = await svc.call('POST', '/1/indexes/books/query', {}, { key: tampered });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, FORBIDDEN);
  });

  test('keys from the client’s generateSecuredApiKey are accepted and enforced', async () => {
    const key = generateSecuredApiKey(SEARCH_KEY, {
      restrictIndices: ['books'],
      filters: 'owner:alice',
      validUntil: Math.floor(Date.now() / 1000) + 60,
    });
    const answer = await svc.ok('POST', '/1/indexes/books/query', { query: '' }, { key });
    assert.deepEqual(
      answer.hits.map((hit: { objectID: string }) => hit.objectID),
      ['1'],
    );
    assert.equal((await svc.call('POST', '/1/indexes/music/query', {}, { key })).status, 403);
  });

  test('a secured key keeps the rights of its parent (no writes from the search key)', async () => {
    const key = securedKey(SEARCH_KEY, { restrictIndices: 'books' });
    assert.equal((await svc.call('POST', '/1/indexes/books', { title: 'x' }, { key })).status, 403);
  });
});

describe('API keys endpoints', () => {
  test('create, read, list, update, delete, restore', async () => {
    const created = await svc.ok('POST', '/1/keys', {
      acl: ['search'],
      description: 'front',
      indexes: ['books'],
      maxHitsPerQuery: 2,
    });
    assert.equal(typeof created.key, 'string');
    assert.match(created.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    const key = created.key as string;

    const read = await svc.ok('GET', `/1/keys/${key}`);
    assert.equal(read.value, key);
    assert.deepEqual(read.acl, ['search']);
    assert.equal(read.description, 'front');
    assert.equal(typeof read.createdAt, 'number');
    // A non-admin key reads its own rights, not another's.
    assert.equal((await svc.call('GET', `/1/keys/${key}`, undefined, { key })).status, 200);
    assert.equal((await svc.call('GET', `/1/keys/${key}`, undefined, { key: SEARCH_KEY })).status, 403);

    const list = await svc.ok('GET', '/1/keys');
    assert.ok(list.keys.some((item: { value: string }) => item.value === key));

    // The key works with its acl, indexes and maxHitsPerQuery.
    const search = await svc.ok('POST', '/1/indexes/books/query', { query: '', hitsPerPage: 10 }, { key });
    assert.equal(search.hits.length, 2);
    assert.equal((await svc.call('POST', '/1/indexes/music/query', {}, { key })).status, 403);
    assert.equal((await svc.call('POST', '/1/indexes/books/browse', {}, { key })).status, 403);

    const updated = await svc.ok('PUT', `/1/keys/${key}`, { acl: ['search', 'browse'] });
    assert.equal(updated.key, key);
    assert.match(updated.updatedAt, /T/);
    assert.equal((await svc.call('POST', '/1/indexes/books/browse', {}, { key })).status, 200);

    // A secured key derived from a created key.
    const secured = securedKey(key, { filters: 'owner:alice' });
    const restricted = await svc.ok('POST', '/1/indexes/books/query', { query: '' }, { key: secured });
    assert.equal(restricted.nbHits, 1);
    // Its restrictIndices cannot widen the parent's indexes; both apply.
    const wide = securedKey(key, { restrictIndices: 'boo*,music' });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key: wide })).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/music/query', {}, { key: wide })).status, 403);

    const deleted = await svc.ok('DELETE', `/1/keys/${key}`);
    assert.match(deleted.deletedAt, /T/);
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key })).status, 403);
    assert.equal((await svc.call('GET', `/1/keys/${key}`)).status, 404);

    const restored = await svc.ok('POST', `/1/keys/${key}/restore`);
    assert.equal(restored.key, key);
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    assert.equal((await svc.call('POST', '/1/keys/not-a-deleted-key/restore')).status, 404);
  });

  test('validity: the key disappears when it elapses', async (t) => {
    // On the service clock, moved by the test: with the wall clock, a slow key creation (PostgreSQL on a busy
    // machine) could use up the second before the first query.
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const own = await startService({ now: () => clock });
    t.after(() => own.stop());
    await index(own, 'books', [{ objectID: '1', title: 'The Hobbit' }]);
    const { key } = await own.ok('POST', '/1/keys', { acl: ['search'], validity: 1 });
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    clock += 999;
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 200, 'valid 999 ms on');
    clock += 1;
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 403, 'gone 1 s on');
  });

  test('queryParameters are forced on every query of the key', async () => {
    const { key } = await svc.ok('POST', '/1/keys', {
      acl: ['search'],
      queryParameters: 'filters=owner%3Abob&hitsPerPage=1',
    });
    const answer = await svc.ok('POST', '/1/indexes/books/query', { query: '' }, { key });
    assert.equal(answer.nbHits, 2);
    assert.equal(answer.hits.length, 1);
  });

  test('maxQueriesPerIPPerHour answers 429 above the limit, until the next hour', async (t) => {
    // On the service clock, moved by the test: with the wall clock, the calls could straddle the turn of an hour.
    let clock = Date.parse('2026-03-01T12:30:00Z');
    const own = await startService({ now: () => clock });
    t.after(() => own.stop());
    await index(own, 'books', [{ objectID: '1', title: 'The Hobbit' }]);
    const { key } = await own.ok('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 2 });
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 429);
    clock = Date.parse('2026-03-01T13:00:00Z');
    assert.equal((await own.call('POST', '/1/indexes/books/query', {}, { key })).status, 200, 'a new hour');
  });

  test('maxQueriesPerIPPerHour counts calls, not the requests inside one (document 1, Limits: "calls per hour")', async () => {
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 2 });
    const three = {
      requests: [
        { indexName: 'books' },
        { indexName: 'books', query: 'hobbit' },
        { indexName: 'books', query: 'silmarillion' },
      ],
    };
    assert.equal((await svc.call('POST', '/1/indexes/*/queries', three, { key })).status, 200);
    assert.equal(
      (
        await svc.call(
          'POST',
          '/1/indexes/*/objects',
          {
            requests: [
              { indexName: 'books', objectID: '1' },
              { indexName: 'books', objectID: '2' },
            ],
          },
          { key },
        )
      ).status,
      200,
    );
    assert.equal((await svc.call('POST', '/1/indexes/*/queries', three, { key })).status, 429);
  });

  test('behind a proxy: admin key + X-Forwarded-API-Key rate-limits per X-Forwarded-For', async () => {
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 1 });
    const as = (ip: string) => ({ headers: { 'X-Forwarded-API-Key': key, 'X-Forwarded-For': ip } });
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, as('10.0.0.1'))).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, as('10.0.0.1'))).status, 429);
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, as('10.0.0.2'))).status, 200);
  });

  test('bad key bodies answer 400', async () => {
    assert.equal((await svc.call('POST', '/1/keys', { acl: ['fly'] })).status, 400);
    assert.equal((await svc.call('POST', '/1/keys', { validity: -1 })).status, 400);
    assert.equal((await svc.call('POST', '/1/keys', { acl: 'search' })).status, 400);
    assert.equal((await svc.call('POST', '/1/keys', undefined, { raw: '{"acl":' })).status, 400);
  });

  test('index keys: create, list (per index and all), read, update, delete', async () => {
    const { key } = await svc.ok('POST', '/1/indexes/books/keys', { acl: ['search'] });
    const perIndex = await svc.ok('GET', '/1/indexes/books/keys');
    assert.ok(perIndex.keys.some((item: { value: string }) => item.value === key));
    const all = await svc.ok('GET', '/1/indexes/*/keys');
    assert.ok(all.keys.some((item: { value: string; index: string }) => item.value === key && item.index === 'books'));
    assert.equal((await svc.ok('GET', `/1/indexes/books/keys/${key}`)).value, key);
    // The key is limited to its index.
    assert.equal((await svc.call('POST', '/1/indexes/books/query', {}, { key })).status, 200);
    assert.equal((await svc.call('POST', '/1/indexes/music/query', {}, { key })).status, 403);
    const updated = await svc.ok('PUT', `/1/indexes/books/keys/${key}`, { acl: ['search', 'browse'] });
    assert.equal(updated.key, key);
    assert.ok(updated.updatedAt);
    assert.equal((await svc.call('GET', '/1/indexes/nosuchindex/keys')).status, 404);
    assert.ok((await svc.ok('DELETE', `/1/indexes/books/keys/${key}`)).deletedAt);
    assert.equal((await svc.call('GET', `/1/indexes/books/keys/${key}`)).status, 404);
  });
});
