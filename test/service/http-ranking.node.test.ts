/**
 * Ranking over HTTP: one order case per tie-breaking criterion (typo, words, proximity, attribute,
 * exact, custom), indexed and searched through the API; geo and filters are left out (they need geo
 * data and optionalFilters, which the engine does not rank on). Each case gives the records a
 * `desc(popularity)` custom ranking that prefers the reverse order, so only the criterion under test can
 * produce the expected order; then the `ranking` setting reorders the criteria.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
let counter = 0;
before(async () => {
  svc = await startService({ dataDir: ':memory:' });
});
after(() => svc.stop());

/** A fresh index whose records (in the order given) get increasing popularity: custom ranking prefers the last. */
async function indexOf(records: Array<Record<string, unknown>>, settings: Record<string, unknown> = {}): Promise<string> {
  const name = `ranking-${counter++}`;
  await svc.ok('PUT', `/1/indexes/${name}/settings`, { searchableAttributes: ['name', 'description'], customRanking: ['desc(popularity)'], ...settings });
  await svc.ok('POST', `/1/indexes/${name}/batch`, {
    requests: records.map((record, i) => ({ action: 'addObject', body: { objectID: String(i + 1), popularity: i, ...record } })),
  });
  return name;
}

async function search(indexName: string, query: string, extra: Record<string, unknown> = {}) {
  return svc.ok('POST', `/1/indexes/${indexName}/query`, { query, ...extra }, { key: SEARCH_KEY });
}

async function order(indexName: string, query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  return (await search(indexName, query, extra)).hits.map((hit: { objectID: string }) => hit.objectID);
}

describe('ranking criteria over HTTP', () => {
  test('typo: fewer typos first; nbTypos in _rankingInfo', async () => {
    const name = await indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }]);
    assert.deepEqual(await order(name, 'chair oak'), ['1', '2']);
    const info = (await search(name, 'chair oak', { getRankingInfo: true })).hits.map((hit: { _rankingInfo: { nbTypos: number } }) => hit._rankingInfo.nbTypos);
    assert.deepEqual(info, [0, 1]);
  });

  test('words: more matched query words first (optionalWords)', async () => {
    const name = await indexOf([{ name: 'red wooden chair' }, { name: 'wooden chair' }, { name: 'chair' }]);
    assert.deepEqual(await order(name, 'red wooden chair', { optionalWords: ['red', 'wooden'] }), ['1', '2', '3']);
  });

  test('proximity: query words closer together first', async () => {
    const name = await indexOf([{ name: 'wooden chair' }, { name: 'wooden big old chair' }, { name: 'chair made of old wooden planks' }]);
    assert.deepEqual(await order(name, 'wooden chair'), ['1', '2', '3']);
  });

  test('attribute: a match in a more important attribute first; earlier position first; unordered(...) ignores position', async () => {
    assert.deepEqual(await order(await indexOf([{ name: 'oak table', description: 'solid' }, { name: 'table', description: 'solid oak' }]), 'oak'), ['1', '2']);
    const records = [{ name: 'oak table' }, { name: 'big oak table' }];
    assert.deepEqual(await order(await indexOf(records), 'oak'), ['1', '2']);
    assert.deepEqual(await order(await indexOf(records, { searchableAttributes: ['unordered(name)'] }), 'oak'), ['2', '1']);
  });

  test('exact: whole-word matches before prefix matches', async () => {
    const name = await indexOf([{ name: 'chair' }, { name: 'chairman' }]);
    assert.deepEqual(await order(name, 'chair'), ['1', '2']);
  });

  test('custom: desc and asc customRanking break the remaining ties', async () => {
    const name = await indexOf([{ name: 'lamp', stock: 5 }, { name: 'lamp', stock: 9 }, { name: 'lamp', stock: 1 }], { customRanking: ['desc(stock)'] });
    assert.deepEqual(await order(name, 'lamp'), ['2', '1', '3']);
    await svc.ok('PUT', `/1/indexes/${name}/settings`, { customRanking: ['asc(stock)'] });
    assert.deepEqual(await order(name, 'lamp'), ['3', '1', '2']);
  });

  test('the ranking setting orders the criteria', async () => {
    const name = await indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }]);
    assert.deepEqual(await order(name, 'chair oak'), ['1', '2']);
    await svc.ok('PUT', `/1/indexes/${name}/settings`, { ranking: ['custom', 'typo', 'words', 'proximity', 'attribute', 'exact'] });
    assert.deepEqual(await order(name, 'chair oak'), ['2', '1']);
  });

  test('typo tolerance by word length: 1 typo from 4 letters, 2 from 8, none on short words', async () => {
    const name = await indexOf([{ name: 'sofa' }, { name: 'bookcase' }, { name: 'cup' }]);
    assert.deepEqual(await order(name, 'sxfx'), [], 'two typos are too many for a 4-letter word');
    assert.deepEqual(await order(name, 'sofu'), ['1']);
    assert.deepEqual(await order(name, 'bokcasse'), ['2']);
    assert.deepEqual(await order(name, 'cap'), []);
  });
});
