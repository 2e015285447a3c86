/**
 * The effect of custom dictionary entries (document 1, Dictionaries) on searches of every index, worked out
 * by hand: stop words, plurals and compounds, by language; entries and settings across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dictionaryCalls, ids, indexDictionaryShops, stop } from './dictionaries-helpers.js';
import { type Running, startService, tempDir } from './service-helpers.js';

let svc: Running;
const { batch, clearAll, search } = dictionaryCalls(() => svc);

before(async () => {
  svc = await startService();
  await indexDictionaryShops(svc);
});
after(() => svc.stop());

describe('custom entries in searches', () => {
  test('stop words: a custom enabled word is removed from queries of every index (only with removeStopWords)', async () => {
    await clearAll();
    // "deluxe" is in no record: every word is required, so nothing matches
    assert.equal((await search('shop', { query: 'deluxe oak chair', removeStopWords: true })).nbHits, 0);
    assert.equal((await search('other', { query: 'deluxe oak chair', removeStopWords: true })).nbHits, 0);
    await batch('stopwords', [stop('deluxe', 'Deluxe')]);
    // now the query is "oak chair": r1 "Oak chair", r2 "Oak chair with cushion"; o1 on the other index
    const shop = await search('shop', { query: 'deluxe oak chair', removeStopWords: true });
    assert.deepEqual(ids(shop), ['r1', 'r2']);
    assert.equal(shop.parsed_query, 'oak chair');
    assert.deepEqual(ids(await search('other', { query: 'deluxe oak chair', removeStopWords: true })), ['o1']);
    assert.equal(
      (await search('shop', { query: 'deluxe oak chair' })).nbHits,
      0,
      'without removeStopWords nothing changes',
    );
    // as an index setting too
    await svc.ok('PUT', '/1/indexes/other/settings', { removeStopWords: true });
    assert.deepEqual(ids(await search('other', { query: 'deluxe oak chair' })), ['o1']);
    await svc.ok('PUT', '/1/indexes/other/settings', { removeStopWords: null });
  });

  test('stop words: a disabled entry, and disableStandardEntries, turn a standard stop word back into a query word', async () => {
    await clearAll();
    // "with" is a standard English stop word: "with oak" searches "oak" → r1, r2, r4
    assert.deepEqual(ids(await search('shop', { query: 'with oak', removeStopWords: true })), ['r1', 'r2', 'r4']);
    await batch('stopwords', [stop('with-off', 'with', { state: 'disabled' })]);
    // "with" is required again: only r2 "Oak chair with cushion" has both
    assert.deepEqual(ids(await search('shop', { query: 'with oak', removeStopWords: true })), ['r2']);
    await batch('stopwords', [{ action: 'deleteEntry', body: { objectID: 'with-off' } }, stop('deluxe', 'deluxe')]);
    assert.deepEqual(ids(await search('shop', { query: 'with oak', removeStopWords: true })), ['r1', 'r2', 'r4']);
    await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: { en: true } } });
    assert.deepEqual(
      ids(await search('shop', { query: 'with oak', removeStopWords: true })),
      ['r2'],
      'the standard list is off',
    );
    assert.deepEqual(
      ids(await search('shop', { query: 'deluxe oak chair', removeStopWords: true })),
      ['r1', 'r2'],
      'custom entries still apply',
    );
    await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } });
    assert.deepEqual(ids(await search('shop', { query: 'with oak', removeStopWords: true })), ['r1', 'r2', 'r4']);
  });

  test('stop words: only the languages of the query count (removeStopWords list or queryLanguages)', async () => {
    await clearAll();
    await batch('stopwords', [{ action: 'addEntry', body: { objectID: 'avec', language: 'fr', word: 'avec' } }]);
    // English by default: "avec" stays a query word, no record has it
    assert.equal((await search('shop', { query: 'avec oak', removeStopWords: true })).nbHits, 0);
    assert.deepEqual(ids(await search('shop', { query: 'avec oak', removeStopWords: ['fr'] })), ['r1', 'r2', 'r4']);
    assert.deepEqual(ids(await search('shop', { query: 'avec oak', removeStopWords: true, queryLanguages: ['fr'] })), [
      'r1',
      'r2',
      'r4',
    ]);
    // with queryLanguages fr only, the English "with" is no stop word any more
    assert.deepEqual(ids(await search('shop', { query: 'with oak', removeStopWords: true, queryLanguages: ['fr'] })), [
      'r2',
    ]);
    assert.deepEqual(
      ids(await search('shop', { query: 'with avec oak', removeStopWords: true, queryLanguages: ['en', 'fr'] })),
      ['r1', 'r2', 'r4'],
    );
  });

  test('plurals: a custom entry makes its words forms of one another and replaces the standard forms of those words', async () => {
    await clearAll();
    const plural = (query: string, extra: Record<string, unknown> = {}) =>
      search('shop', { query, ignorePlurals: true, queryType: 'prefixNone', ...extra }).then(ids);
    // standard English rules: cactus ↔ cactuses ("cactu" matches nothing); cacti has no standard form here
    assert.deepEqual(await plural('cactus'), ['p1', 'p3']);
    assert.deepEqual(await plural('cacti'), ['p2']);
    assert.deepEqual(await plural('cactuses'), ['p1', 'p3']);
    assert.deepEqual(
      ids(await search('shop', { query: 'cactus', queryType: 'prefixNone' })),
      ['p1'],
      'ignorePlurals off',
    );
    await batch('plurals', [
      { action: 'addEntry', body: { objectID: 'cactus', language: 'en', words: ['cactus', 'cacti'] } },
    ]);
    // cactus ↔ cacti; the standard entry {cactus, cactuses} is replaced, so "cactuses" only matches itself
    assert.deepEqual(await plural('cactus'), ['p1', 'p2']);
    assert.deepEqual(await plural('cacti'), ['p1', 'p2']);
    assert.deepEqual(await plural('cactuses'), ['p3']);
    assert.deepEqual(
      ids(await search('shop', { query: 'cactus', queryType: 'prefixNone' })),
      ['p1'],
      'still only with ignorePlurals',
    );
    const highlighted = await search('shop', {
      query: 'cactus',
      ignorePlurals: true,
      queryType: 'prefixNone',
      filters: 'objectID:p2',
    });
    assert.equal(highlighted.hits[0]._highlightResult.name.value, '<em>Cacti</em> collection');
    await batch('plurals', [{ action: 'deleteEntry', body: { objectID: 'cactus' } }]);
    assert.deepEqual(await plural('cactus'), ['p1', 'p3'], 'back to the standard forms');
  });

  test('plurals: entries of other languages apply when the query is in that language', async () => {
    await clearAll();
    await batch('plurals', [
      { action: 'addEntry', body: { objectID: 'cheval', language: 'fr', words: ['cheval', 'chevaux'] } },
    ]);
    const plural = (extra: Record<string, unknown>) =>
      search('shop', { query: 'cheval', queryType: 'prefixNone', ...extra }).then(ids);
    assert.deepEqual(await plural({ ignorePlurals: true }), ['p4'], 'English: "chevals" matches nothing');
    assert.deepEqual(await plural({ ignorePlurals: ['fr'] }), ['p4', 'p5']);
    assert.deepEqual(await plural({ ignorePlurals: true, queryLanguages: ['fr'] }), ['p4', 'p5']);
    assert.deepEqual(await plural({ ignorePlurals: false, queryLanguages: ['fr'] }), ['p4']);
  });

  test('compounds: the parts of a compound word match it at index and query time, in the index languages only', async () => {
    await clearAll();
    const de = (query: string, extra: Record<string, unknown> = {}) =>
      search('de_shop', { query, queryType: 'prefixNone', ...extra }).then(ids);
    assert.deepEqual(await de('schmerz'), ['k2', 'k3']);
    assert.deepEqual(await de('kopfschmerztablette'), ['k1']);
    await batch('compounds', [
      {
        action: 'addEntry',
        body: {
          objectID: 'kst',
          language: 'de',
          word: 'Kopfschmerztablette',
          decomposition: ['Kopf', 'Schmerz', 'Tablette'],
        },
      },
    ]);
    // k1 is indexed with kopf, schmerz and tablette too; the query word is split into the same parts
    assert.deepEqual(await de('schmerz'), ['k1', 'k2', 'k3']);
    assert.deepEqual(await de('kopf tablette'), ['k1', 'k2']);
    assert.deepEqual(await de('kopfschmerztablette'), ['k1', 'k2']);
    assert.deepEqual(
      await de('kopfschmerztablette', { decompoundQuery: false }),
      ['k1'],
      'decompoundQuery off: the query word stays whole',
    );
    const hit = await search('de_shop', { query: 'schmerz', queryType: 'prefixNone', filters: 'objectID:k1' });
    assert.equal(hit.hits[0]._highlightResult.name.value, '<em>Kopfschmerztablette</em> 20 Stück');
    assert.equal(hit.parsed_query, 'schmerz');
    assert.equal((await search('de_shop', { query: 'kopfschmerztablette' })).parsed_query, 'kopf schmerz tablette');
    // the English index is not decompounded (compounds are German here)
    assert.equal((await search('shop', { query: 'schmerz', queryType: 'prefixNone' })).nbHits, 0);
    assert.deepEqual(ids(await search('shop', { query: 'kopfschmerztablette', queryType: 'prefixNone' })), ['k0']);
    // records written after the entry are decompounded too
    await svc.ok('PUT', '/1/indexes/de_shop/k4', { name: 'Kopfschmerztablette extra' });
    assert.deepEqual(await de('schmerz'), ['k1', 'k2', 'k3', 'k4']);
    await svc.ok('DELETE', '/1/indexes/de_shop/k4');
    // removing the entry re-indexes: k1 is a single word again
    await batch('compounds', [{ action: 'deleteEntry', body: { objectID: 'kst' } }]);
    assert.deepEqual(await de('schmerz'), ['k2', 'k3']);
    assert.deepEqual(await de('kopfschmerztablette'), ['k1']);
  });
});

describe('durability', () => {
  test('entries and settings survive a restart, and keep acting on searches', async () => {
    const dataDir = tempDir();
    let running = await startService({ dataDir });
    try {
      await running.ok('PUT', '/1/indexes/docs/settings', {
        searchableAttributes: ['name'],
        typoTolerance: false,
        indexLanguages: ['de'],
      });
      await running.ok('POST', '/1/indexes/docs/batch', {
        requests: [
          { action: 'addObject', body: { objectID: '1', name: 'Kopfschmerztablette' } },
          { action: 'addObject', body: { objectID: '2', name: 'Cacti with care' } },
          { action: 'addObject', body: { objectID: '3', name: 'Cactus' } },
        ],
      });
      await running.ok('POST', '/1/dictionaries/stopwords/batch', {
        requests: [stop('s', 'premium'), stop('w', 'with', { state: 'disabled' })],
      });
      await running.ok('POST', '/1/dictionaries/plurals/batch', {
        requests: [{ action: 'addEntry', body: { objectID: 'p', language: 'en', words: ['cactus', 'cacti'] } }],
      });
      await running.ok('POST', '/1/dictionaries/compounds/batch', {
        requests: [
          {
            action: 'addEntry',
            body: {
              objectID: 'k',
              language: 'de',
              word: 'kopfschmerztablette',
              decomposition: ['kopf', 'schmerz', 'tablette'],
            },
          },
        ],
      });
      const { taskID } = await running.ok('PUT', '/1/dictionaries/*/settings', {
        disableStandardEntries: { stopwords: { en: true, fr: true } },
      });
      await running.stop({ keepData: true });

      running = await startService({ dataDir });
      assert.deepEqual(await running.ok('GET', `/1/task/${taskID}`), { status: 'published' });
      assert.deepEqual((await running.ok('POST', '/1/dictionaries/stopwords/search', { query: '' })).hits, [
        { objectID: 's', language: 'en', word: 'premium', state: 'enabled' },
        { objectID: 'w', language: 'en', word: 'with', state: 'disabled' },
      ]);
      assert.deepEqual((await running.ok('GET', '/1/dictionaries/plurals/search?query=cact')).hits, [
        { objectID: 'p', language: 'en', words: ['cactus', 'cacti'] },
      ]);
      assert.equal((await running.ok('POST', '/1/dictionaries/compounds/search', { query: 'kopf' })).nbHits, 1);
      assert.deepEqual(await running.ok('GET', '/1/dictionaries/*/settings'), {
        disableStandardEntries: { stopwords: { en: true, fr: true } },
      });
      const languages = await running.ok('GET', '/1/dictionaries/*/languages');
      assert.deepEqual(languages.en, {
        plurals: { nbCustomEntries: 1 },
        stopwords: { nbCustomEntries: 2 },
        compounds: null,
      });
      assert.deepEqual(languages.de.compounds, { nbCustomEntries: 1 });
      const query = (params: Record<string, unknown>) =>
        running.ok('POST', '/1/indexes/docs/query', { queryType: 'prefixNone', ...params }).then(ids);
      assert.deepEqual(await query({ query: 'schmerz' }), ['1'], 'compound parts rebuilt at start');
      // "premium" is a custom stop word, cactus ↔ cacti a custom plural
      assert.deepEqual(await query({ query: 'premium cactus', removeStopWords: true, ignorePlurals: true }), [
        '2',
        '3',
      ]);
      // the standard English stop words are still disabled: "the" is a query word, and no record has it
      assert.equal((await query({ query: 'the cacti', removeStopWords: true })).length, 0);
      await running.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } });
      assert.deepEqual(await query({ query: 'the cacti', removeStopWords: true }), ['2']);
      // the custom disabled entry still keeps "with" a query word
      assert.deepEqual(await query({ query: 'with cactus', removeStopWords: true, ignorePlurals: true }), ['2']);
    } finally {
      await running.stop();
    }
  });
});
