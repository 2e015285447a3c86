/**
 * Shared setup of the Dictionaries suites (`http-dictionaries*.node.test.ts`): the indices whose searches
 * show the custom entries' effect, and callers of the dictionary endpoints that assert 200 (or the 400).
 */
import assert from 'node:assert/strict';
import { index, type Running, SEARCH_KEY } from './service-helpers.js';

/** The objectIDs of an answer's hits, sorted. */
export const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID).sort();

/**
 * An `addEntry` request of an English stop word.
 *
 * @example
 * await batch('stopwords', [stop('s', 'premium'), stop('w', 'with', { state: 'disabled' })]);
 */
export const stop = (objectID: string, word: string, extra: Record<string, unknown> = {}) => ({
  action: 'addEntry',
  body: { objectID, language: 'en', word, ...extra },
});

/**
 * Indexes `shop` (English and French words, a German compound), `other` and `de_shop` (German).
 *
 * @example
 * svc = await startService();
 * await indexDictionaryShops(svc);
 */
export async function indexDictionaryShops(svc: Running): Promise<void> {
  await index(
    svc,
    'shop',
    [
      { objectID: 'r1', name: 'Oak chair' },
      { objectID: 'r2', name: 'Oak chair with cushion' },
      { objectID: 'r3', name: 'Pine table' },
      { objectID: 'r4', name: 'Oak desk' },
      { objectID: 'p1', name: 'Cactus pot' },
      { objectID: 'p2', name: 'Cacti collection' },
      { objectID: 'p3', name: 'Cactuses in bloom' },
      { objectID: 'p4', name: 'Cheval de bois' },
      { objectID: 'p5', name: 'Chevaux sauvages' },
      { objectID: 'k0', name: 'Kopfschmerztablette' },
    ],
    { searchableAttributes: ['name'], typoTolerance: false },
  );
  await index(svc, 'other', [{ objectID: 'o1', name: 'Oak chair' }], { searchableAttributes: ['name'] });
  await index(
    svc,
    'de_shop',
    [
      { objectID: 'k1', name: 'Kopfschmerztablette 20 Stück' },
      { objectID: 'k2', name: 'Kopf Schmerz Tablette' },
      { objectID: 'k3', name: 'Schmerz Gel' },
    ],
    { searchableAttributes: ['name'], typoTolerance: false, indexLanguages: ['de'], queryLanguages: ['de'] },
  );
}

/**
 * The dictionary calls of the suites on the service `running()` gives (read at call time: the suites start
 * it in `before`).
 *
 * @example
 * const { batch, entries, clearAll, search, expect400 } = dictionaryCalls(() => svc);
 */
export function dictionaryCalls(running: () => Running) {
  async function batch(name: string, requests: unknown[], clearExistingDictionaryEntries?: boolean) {
    const body: Record<string, unknown> = { requests };
    if (clearExistingDictionaryEntries !== undefined)
      body.clearExistingDictionaryEntries = clearExistingDictionaryEntries;
    return running().ok('POST', `/1/dictionaries/${name}/batch`, body);
  }
  async function entries(name: string, params: Record<string, unknown> = {}) {
    return running().ok('POST', `/1/dictionaries/${name}/search`, { query: '', hitsPerPage: 1000, ...params });
  }
  /** Every custom entry of the three dictionaries removed, the standard stop words back on. */
  async function clearAll() {
    for (const name of ['stopwords', 'plurals', 'compounds']) await batch(name, [], true);
    await running().ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } });
  }
  async function search(indexName: string, params: Record<string, unknown>) {
    return running().ok('POST', `/1/indexes/${indexName}/query`, { hitsPerPage: 100, ...params }, { key: SEARCH_KEY });
  }
  async function expect400(method: string, path: string, body: unknown, message: RegExp) {
    const answer = await running().call(method, path, body);
    assert.equal(
      answer.status,
      400,
      `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)} → ${answer.status} ${JSON.stringify(answer.body)}`,
    );
    assert.deepEqual(Object.keys(answer.body), ['message']);
    assert.match(answer.body.message, message);
  }
  return { batch, entries, clearAll, search, expect400 };
}
