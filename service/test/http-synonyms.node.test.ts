/**
 * Synonyms over HTTP: save / batch / get / delete / clear / search with their answers and errors, each
 * type's effect on searches (worked out by hand), multi-word synonyms, `synonyms: false`, replaceExistingSynonyms,
 * forwardToReplicas, copy scope, durable across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID);
const search = async (params: Record<string, unknown>, indexName = 'shop') =>
  svc.ok('POST', `/1/indexes/${indexName}/query`, { hitsPerPage: 50, ...params });
const sorted = async (params: Record<string, unknown>, indexName = 'shop') =>
  ids(await search(params, indexName)).sort();

before(async () => {
  svc = await startService();
  await index(
    svc,
    'shop',
    [
      { objectID: '1', name: 'Red couch' },
      { objectID: '2', name: 'Blue sofa' },
      { objectID: '3', name: 'Smartphone case' },
      { objectID: '4', name: 'Phone stand' },
      { objectID: '5', name: 'Nokai 3310 phone' },
      { objectID: '6', name: 'Flat <number> Main street' },
      { objectID: '7', name: 'Television set' },
    ],
    { searchableAttributes: ['name'], replicas: ['shop_replica'] },
  );
});
after(() => svc.stop());

describe('synonyms endpoints', () => {
  test('save, get, search, delete, clear: answers as the hosted API gives them', async () => {
    const saved = await svc.ok('PUT', '/1/indexes/shop/synonyms/seats', {
      objectID: 'seats',
      type: 'synonym',
      synonyms: ['couch', 'sofa'],
    });
    assert.deepEqual(Object.keys(saved).sort(), ['id', 'taskID', 'updatedAt']);
    assert.equal(saved.id, 'seats');
    assert.deepEqual(await svc.ok('GET', `/1/indexes/shop/task/${saved.taskID}`), { status: 'published' });
    // the objectID of the path is used when the body has none
    await svc.ok('PUT', '/1/indexes/shop/synonyms/phones', {
      type: 'onewaysynonym',
      input: 'phone',
      synonyms: ['smartphone'],
    });
    assert.deepEqual(await svc.ok('GET', '/1/indexes/shop/synonyms/phones'), {
      objectID: 'phones',
      type: 'onewaysynonym',
      input: 'phone',
      synonyms: ['smartphone'],
    });

    const all = await svc.ok('POST', '/1/indexes/shop/synonyms/search', {});
    assert.equal(all.nbHits, 2);
    assert.deepEqual(ids(all), ['seats', 'phones']);
    assert.deepEqual(ids(await svc.ok('POST', '/1/indexes/shop/synonyms/search', { query: 'sof' })), ['seats']);
    assert.deepEqual(ids(await svc.ok('POST', '/1/indexes/shop/synonyms/search', { type: 'onewaysynonym' })), [
      'phones',
    ]);
    const paged = await svc.ok('POST', '/1/indexes/shop/synonyms/search', { hitsPerPage: 1, page: 1 });
    assert.deepEqual([ids(paged), paged.nbHits], [['phones'], 2]);

    const deleted = await svc.ok('DELETE', '/1/indexes/shop/synonyms/phones');
    assert.deepEqual(Object.keys(deleted).sort(), ['deletedAt', 'taskID']);
    assert.equal((await svc.call('GET', '/1/indexes/shop/synonyms/phones')).status, 404);
    assert.equal((await svc.call('DELETE', '/1/indexes/shop/synonyms/phones')).status, 404);

    const cleared = await svc.ok('POST', '/1/indexes/shop/synonyms/clear');
    assert.deepEqual(Object.keys(cleared).sort(), ['taskID', 'updatedAt']);
    assert.equal((await svc.ok('POST', '/1/indexes/shop/synonyms/search', {})).nbHits, 0);
  });

  test('errors: 400 naming the field, 404 unknown index or synonym, 403 without editSettings', async () => {
    const bad = async (body: unknown, path = '/1/indexes/shop/synonyms/x') => {
      const answer = await svc.call(
        Array.isArray(body) ? 'POST' : 'PUT',
        Array.isArray(body) ? '/1/indexes/shop/synonyms/batch' : path,
        body,
      );
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      return answer.body.message as string;
    };
    assert.match(await bad({ type: 'nope', synonyms: ['a'] }), /type must be one of synonym, onewaysynonym/);
    assert.match(await bad({ synonyms: ['a'] }), /type is required/);
    assert.match(await bad({ type: 'synonym' }), /The synonym\.synonyms is required/);
    assert.match(await bad({ type: 'synonym', synonyms: [] }), /synonyms must be a non-empty array/);
    assert.match(await bad({ type: 'synonym', synonyms: ['a', 3] }), /synonyms\[1\] must be a non-empty string/);
    assert.match(await bad({ type: 'synonym', synonyms: ['a'], input: 'b' }), /input is unexpected for type synonym/);
    assert.match(await bad({ type: 'onewaysynonym', synonyms: ['a'] }), /\.input is required/);
    assert.match(await bad({ type: 'altcorrection1', word: 'a' }), /\.corrections is required/);
    assert.match(
      await bad({ type: 'placeholder', placeholder: 'number', replacements: ['1'] }),
      /\.placeholder must be a token written <name>/,
    );
    assert.match(
      await bad({ objectID: 'y', type: 'synonym', synonyms: ['a'] }),
      /objectID must be the objectID of the path/,
    );
    assert.match(
      await bad([
        { objectID: 'a', type: 'synonym', synonyms: ['a', 'b'] },
        { type: 'synonym', synonyms: ['a'] },
      ]),
      /synonyms\[1\]\.objectID is required/,
    );
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/batch', { objectID: 'a' })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/batch?forwardToReplicas=yes', [])).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/search', { type: 'nope' })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/search', { hitsPerPage: 0 })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/search', { query: 3 })).status, 400);
    for (const [method, path, body] of [
      ['PUT', '/1/indexes/nowhere/synonyms/a', { type: 'synonym', synonyms: ['a', 'b'] }],
      ['POST', '/1/indexes/nowhere/synonyms/batch', []],
      ['GET', '/1/indexes/nowhere/synonyms/a', undefined],
      ['DELETE', '/1/indexes/nowhere/synonyms/a', undefined],
      ['POST', '/1/indexes/nowhere/synonyms/clear', undefined],
      ['POST', '/1/indexes/nowhere/synonyms/search', {}],
    ] as const) {
      assert.equal((await svc.call(method, path, body)).status, 404, `${method} ${path}`);
    }
    assert.equal(
      (
        await svc.call(
          'PUT',
          '/1/indexes/shop/synonyms/a',
          { type: 'synonym', synonyms: ['a', 'b'] },
          { key: SEARCH_KEY },
        )
      ).status,
      403,
    );
    assert.equal((await svc.call('POST', '/1/indexes/shop/synonyms/search', {}, { key: SEARCH_KEY })).status, 403);
  });
});

describe('synonyms in searches', () => {
  test('each type, worked out by hand, and synonyms: false', async () => {
    await svc.ok('POST', '/1/indexes/shop/synonyms/batch?replaceExistingSynonyms=true', [
      { objectID: 'seats', type: 'synonym', synonyms: ['couch', 'sofa'] },
      { objectID: 'phones', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone'] },
      { objectID: 'nokia', type: 'altcorrection2', word: 'nokia', corrections: ['nokai'] },
      { objectID: 'numbers', type: 'placeholder', placeholder: '<number>', replacements: ['1', '2', 'one'] },
    ]);
    // couch → 1 (the word), 2 (sofa); the record with the word itself first (exact criterion)
    assert.deepEqual(ids(await search({ query: 'couch' })), ['1', '2']);
    assert.deepEqual(ids(await search({ query: 'sofa' })), ['2', '1']);
    const hit = (await search({ query: 'couch', filters: 'objectID:2' })).hits[0];
    assert.equal(hit._highlightResult.name.value, 'Blue <em>sofa</em>');
    // phone → 3 (smartphone), 4, 5 (phone); smartphone → 3 only
    assert.deepEqual(await sorted({ query: 'phone' }), ['3', '4', '5']);
    assert.deepEqual(await sorted({ query: 'smartphone' }), ['3']);
    // nokia → 5 through the correction, counted as 2 typos
    const nokia = await search({ query: 'nokia', typoTolerance: false, getRankingInfo: true });
    assert.deepEqual(ids(nokia), ['5']);
    assert.equal(nokia.hits[0]._rankingInfo.nbTypos, 2);
    // placeholder: flat 1 / flat one → 6; flat 3 → nothing
    assert.deepEqual(ids(await search({ query: 'flat 1' })), ['6']);
    assert.deepEqual(ids(await search({ query: 'one main' })), ['6']);
    assert.deepEqual(ids(await search({ query: 'flat 3' })), []);
    // synonyms: false
    assert.deepEqual(ids(await search({ query: 'couch', synonyms: false })), ['1']);
    assert.deepEqual(await sorted({ query: 'phone', synonyms: false }), ['4', '5']);
    assert.deepEqual(ids(await search({ query: 'flat 1', synonyms: false })), []);
  });

  test('multi-word synonyms saved through the API: phrase both ways, highlighting, typing, synonyms: false', async () => {
    await index(
      svc,
      'city',
      [
        { objectID: 'a', name: 'New York pizza' },
        { objectID: 'b', name: 'NY bagels' },
        { objectID: 'c', name: 'York new potatoes' },
        { objectID: 'd', name: 'Flat on <street>' },
      ],
      { searchableAttributes: ['name'] },
    );
    await svc.ok('PUT', '/1/indexes/city/synonyms/nyc', { type: 'synonym', synonyms: ['ny', 'new york'] });
    await svc.ok('PUT', '/1/indexes/city/synonyms/street', {
      type: 'placeholder',
      placeholder: '<street>',
      replacements: ['main street'],
    });
    // ny: b (ny itself, exact) then a ("new york" as a phrase); never c (the words, not the phrase)
    const ny = await search({ query: 'ny' }, 'city');
    assert.deepEqual(ids(ny), ['b', 'a']);
    assert.equal(ny.hits[1]._highlightResult.name.value, '<em>New</em> <em>York</em> pizza');
    // new york: a (the words next to each other, exact), b (ny, not exact), c (the words apart: proximity 2)
    const newYork = await search({ query: 'new york', getRankingInfo: true }, 'city');
    assert.deepEqual(ids(newYork), ['a', 'b', 'c']);
    assert.deepEqual(
      newYork.hits.map((h: any) => h._rankingInfo.proximityDistance),
      [1, 1, 2],
    );
    assert.deepEqual(newYork.hits[1]._highlightResult.name, {
      value: '<em>NY</em> bagels',
      matchLevel: 'full',
      matchedWords: ['new', 'york'],
      fullyHighlighted: false,
    });
    // still typing the last word: no synonym
    assert.deepEqual(await sorted({ query: 'new yo' }, 'city'), ['a', 'c']);
    assert.deepEqual(ids(await search({ query: 'ny bagels' }, 'city')), ['b']);
    assert.deepEqual(ids(await search({ query: 'ny pizza' }, 'city')), ['a']);
    // a multi-word placeholder replacement, highlighted with its brackets
    const street = await search({ query: 'main street' }, 'city');
    assert.deepEqual(ids(street), ['d']);
    assert.equal(street.hits[0]._highlightResult.name.value, 'Flat on <em>&lt;street&gt;</em>');
    assert.deepEqual(ids(await search({ query: 'ny', synonyms: false }, 'city')), ['b']);
    assert.deepEqual(ids(await search({ query: 'new york', synonyms: false }, 'city')), ['a', 'c']);
    await svc.ok('DELETE', '/1/indexes/city/synonyms/nyc');
    assert.deepEqual(ids(await search({ query: 'ny' }, 'city')), ['b']);
  });

  test('replaceExistingSynonyms replaces; without it a batch adds', async () => {
    await svc.ok('POST', '/1/indexes/shop/synonyms/batch', [
      { objectID: 'tv', type: 'synonym', synonyms: ['tv', 'television'] },
    ]);
    assert.equal((await svc.ok('POST', '/1/indexes/shop/synonyms/search', {})).nbHits, 5);
    assert.deepEqual(ids(await search({ query: 'tv' })), ['7']);
    await svc.ok('POST', '/1/indexes/shop/synonyms/batch?replaceExistingSynonyms=true', [
      { objectID: 'tv', type: 'synonym', synonyms: ['tv', 'television'] },
    ]);
    const left = await svc.ok('POST', '/1/indexes/shop/synonyms/search', {});
    assert.deepEqual(ids(left), ['tv']);
    assert.deepEqual(ids(await search({ query: 'couch' })), ['1']);
  });

  test('forwardToReplicas writes to the replicas too', async () => {
    await svc.ok('PUT', '/1/indexes/shop/synonyms/seats', { type: 'synonym', synonyms: ['couch', 'sofa'] });
    assert.equal((await svc.call('GET', '/1/indexes/shop_replica/synonyms/seats')).status, 404);
    assert.deepEqual(ids(await search({ query: 'couch' }, 'shop_replica')), ['1']);
    await svc.ok('PUT', '/1/indexes/shop/synonyms/seats?forwardToReplicas=true', {
      type: 'synonym',
      synonyms: ['couch', 'sofa'],
    });
    assert.deepEqual(ids(await search({ query: 'couch' }, 'shop_replica')), ['1', '2']);
    await svc.ok('DELETE', '/1/indexes/shop/synonyms/seats?forwardToReplicas=true');
    assert.equal((await svc.call('GET', '/1/indexes/shop_replica/synonyms/seats')).status, 404);
    await svc.ok('POST', '/1/indexes/shop/synonyms/batch?forwardToReplicas=true', [
      { objectID: 'seats', type: 'synonym', synonyms: ['couch', 'sofa'] },
    ]);
    assert.equal((await svc.ok('GET', '/1/indexes/shop_replica/synonyms/seats')).objectID, 'seats');
    await svc.ok('POST', '/1/indexes/shop/synonyms/clear?forwardToReplicas=true');
    assert.equal((await svc.ok('POST', '/1/indexes/shop_replica/synonyms/search', {})).nbHits, 0);
  });

  test('synonyms survive a restart, follow copy (full and scope synonyms) and move, and go with the index', async () => {
    await svc.ok('PUT', '/1/indexes/shop/synonyms/seats', { type: 'synonym', synonyms: ['couch', 'sofa'] });
    await svc.ok('POST', '/1/indexes/shop/operation', {
      operation: 'copy',
      destination: 'shop_syn_only',
      scope: ['synonyms'],
    });
    await svc.ok('POST', '/1/indexes/shop/operation', {
      operation: 'copy',
      destination: 'shop_rules_only',
      scope: ['rules'],
    });
    await svc.ok('POST', '/1/indexes/shop/operation', { operation: 'copy', destination: 'shop_copy' });
    assert.equal((await svc.ok('GET', '/1/indexes/shop_syn_only/synonyms/seats')).objectID, 'seats');
    assert.equal((await svc.call('GET', '/1/indexes/shop_rules_only/synonyms/seats')).status, 404);
    assert.deepEqual(ids(await search({ query: 'couch' }, 'shop_copy')), ['1', '2']);
    await svc.ok('POST', '/1/indexes/shop_copy/operation', { operation: 'move', destination: 'shop_moved' });
    const dataDir = svc.dataDir;
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir });
    assert.deepEqual(ids(await search({ query: 'couch' })), ['1', '2']);
    assert.deepEqual(ids(await search({ query: 'couch' }, 'shop_moved')), ['1', '2']);
    assert.deepEqual(await svc.ok('GET', '/1/indexes/shop/synonyms/seats'), {
      objectID: 'seats',
      type: 'synonym',
      synonyms: ['couch', 'sofa'],
    });
    assert.equal((await svc.ok('GET', '/1/indexes/shop_syn_only/synonyms/seats')).objectID, 'seats');
    await svc.ok('DELETE', '/1/indexes/shop_syn_only');
    await svc.ok('PUT', '/1/indexes/shop_syn_only/1', { name: 'x' });
    assert.equal((await svc.call('GET', '/1/indexes/shop_syn_only/synonyms/seats')).status, 404);
  });
});
