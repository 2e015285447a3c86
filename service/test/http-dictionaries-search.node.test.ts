/**
 * Dictionaries over HTTP (document 1, Dictionaries): search (GET and POST), settings
 * (disableStandardEntries.stopwords, null reset, 404 for the settings path of one dictionary) and languages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dictionaryCalls, ids, indexDictionaryShops, stop } from './dictionaries-helpers.js';
import { type Running, startService } from './service-helpers.js';

let svc: Running;
const { batch, entries, clearAll, expect400 } = dictionaryCalls(() => svc);

before(async () => {
  svc = await startService();
  await indexDictionaryShops(svc);
});
after(() => svc.stop());

describe('search', () => {
  before(async () => {
    await clearAll();
    await batch('stopwords', [
      stop('e1', 'apple'),
      stop('e2', 'apricot'),
      stop('e3', 'banana'),
      { action: 'addEntry', body: { objectID: 'f1', language: 'fr', word: 'avec' } },
      { action: 'addEntry', body: { objectID: 'f2', language: 'fr', word: 'Apéritif' } },
    ]);
  });

  test('query words are prefixes of the entry words (normalised); an empty query lists every entry', async () => {
    assert.deepEqual(ids(await entries('stopwords', { query: 'ap' })), ['e1', 'e2', 'f2']);
    assert.deepEqual(ids(await entries('stopwords', { query: 'APERI' })), ['f2']);
    assert.deepEqual(ids(await entries('stopwords', { query: 'banana' })), ['e3']);
    assert.deepEqual(ids(await entries('stopwords', { query: 'kiwi' })), []);
    const all = await entries('stopwords');
    assert.deepEqual(
      all.hits.map((hit: { objectID: string }) => hit.objectID),
      ['e1', 'e2', 'e3', 'f2', 'f1'],
      'by language, then word',
    );
  });

  test('language filters; page and hitsPerPage paginate; GET and POST answer the same', async () => {
    assert.deepEqual(ids(await entries('stopwords', { query: 'ap', language: 'fr' })), ['f2']);
    const page1 = await svc.ok('POST', '/1/dictionaries/stopwords/search', { query: '', hitsPerPage: 2, page: 1 });
    assert.deepEqual(page1, {
      hits: [
        { objectID: 'e3', language: 'en', word: 'banana', state: 'enabled' },
        { objectID: 'f2', language: 'fr', word: 'Apéritif', state: 'enabled' },
      ],
      nbHits: 5,
      page: 1,
      nbPages: 3,
    });
    const viaGet = await svc.ok('GET', '/1/dictionaries/stopwords/search?query=&hitsPerPage=2&page=1');
    assert.deepEqual(viaGet, page1);
    assert.deepEqual(
      await svc.ok('GET', '/1/dictionaries/stopwords/search?query=ap&language=en'),
      await entries('stopwords', { query: 'ap', language: 'en', hitsPerPage: 20 }),
    );
    const defaults = await svc.ok('POST', '/1/dictionaries/stopwords/search', { query: '' });
    assert.equal(defaults.page, 0);
    assert.equal(defaults.nbPages, 1, 'hitsPerPage defaults to 20');
    const beyond = await svc.ok('POST', '/1/dictionaries/stopwords/search', { query: '', page: 9 });
    assert.deepEqual(beyond, { hits: [], nbHits: 5, page: 9, nbPages: 1 });
    assert.equal(
      (await svc.ok('POST', '/1/dictionaries/stopwords/search', { query: '', hitsPerPage: 1000 })).hits.length,
      5,
    );
  });

  test('400 for missing or wrong parameters and unknown dictionaries (GET and POST)', async () => {
    const post = '/1/dictionaries/stopwords/search';
    await expect400('POST', post, {}, /^query is required/);
    await expect400('POST', post, { query: 3 }, /^query must be a string, got 3$/);
    await expect400(
      'POST',
      post,
      { query: '', hitsPerPage: 0 },
      /^hitsPerPage must be an integer from 1 to 1000, got 0$/,
    );
    await expect400(
      'POST',
      post,
      { query: '', hitsPerPage: 1001 },
      /^hitsPerPage must be an integer from 1 to 1000, got 1001$/,
    );
    await expect400('POST', post, { query: '', hitsPerPage: 2.5 }, /^hitsPerPage must be an integer/);
    await expect400('POST', post, { query: '', page: -1 }, /^page must be an integer from 0/);
    await expect400('POST', post, { query: '', language: 'xx' }, /^language must be a supported language code/);
    await expect400(
      'POST',
      post,
      { query: '', filters: 'x' },
      /^filters is unexpected: the parameters are query, page, hitsPerPage and language$/,
    );
    await expect400('POST', post, ['x'], /^The body must be a JSON object$/);
    await expect400(
      'POST',
      '/1/dictionaries/compounds/search',
      { query: '', language: 'en' },
      /^language must be a language with a compounds dictionary/,
    );
    await expect400('POST', '/1/dictionaries/stopword/search', { query: '' }, /^Unknown dictionary "stopword"/);
    await expect400('GET', '/1/dictionaries/stopwords/search', undefined, /^query is required/);
    await expect400(
      'GET',
      '/1/dictionaries/stopwords/search?query=a&hitsPerPage=many',
      undefined,
      /^hitsPerPage must be an integer from 1 to 1000, got "many"$/,
    );
    await expect400(
      'GET',
      '/1/dictionaries/stopwords/search?query=a&hitsPerPage=5000',
      undefined,
      /^hitsPerPage must be an integer from 1 to 1000, got 5000$/,
    );
    await expect400('GET', '/1/dictionaries/stopwords/search?query=a&foo=1', undefined, /^foo is unexpected/);
    await expect400('GET', '/1/dictionaries/plural/search?query=a', undefined, /^Unknown dictionary "plural"/);
  });
});

describe('settings and languages', () => {
  test('disableStandardEntries.stopwords round trip: only the given languages change; null resets', async () => {
    await clearAll();
    assert.deepEqual(await svc.ok('GET', '/1/dictionaries/*/settings'), { disableStandardEntries: { stopwords: {} } });
    const answer = await svc.ok('PUT', '/1/dictionaries/*/settings', {
      disableStandardEntries: { stopwords: { en: true } },
    });
    assert.deepEqual(Object.keys(answer).sort(), ['taskID', 'updatedAt']);
    assert.deepEqual(await svc.ok('GET', `/1/task/${answer.taskID}`), { status: 'published' });
    assert.deepEqual(await svc.ok('GET', '/1/dictionaries/*/settings'), {
      disableStandardEntries: { stopwords: { en: true } },
    });
    await svc.ok('PUT', '/1/dictionaries/*/settings', {
      disableStandardEntries: { stopwords: { fr: true, de: false } },
    });
    assert.deepEqual(await svc.ok('GET', '/1/dictionaries/*/settings'), {
      disableStandardEntries: { stopwords: { en: true, fr: true } },
    });
    await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: { en: false } } });
    assert.deepEqual(
      await svc.ok('GET', '/1/dictionaries/*/settings'),
      { disableStandardEntries: { stopwords: { fr: true } } },
      'false values are not returned',
    );
    await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: {} });
    assert.deepEqual(
      await svc.ok('GET', '/1/dictionaries/*/settings'),
      { disableStandardEntries: { stopwords: { fr: true } } },
      'no stopwords key: nothing changes',
    );
    await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } });
    assert.deepEqual(await svc.ok('GET', '/1/dictionaries/*/settings'), { disableStandardEntries: { stopwords: {} } });
  });

  test('settings errors: 400 for the schema, 404 for a path other than *', async () => {
    const path = '/1/dictionaries/*/settings';
    await expect400('PUT', path, {}, /^disableStandardEntries is required$/);
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: true },
      /^disableStandardEntries must be an object with `stopwords`, got true$/,
    );
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: { stopwords: { en: 'yes' } } },
      /^disableStandardEntries\.stopwords\.en must be a boolean, got "yes"$/,
    );
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: { stopwords: ['en'] } },
      /^disableStandardEntries\.stopwords must be an object of language code → boolean, or null/,
    );
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: { plurals: { en: true } } },
      /^disableStandardEntries\.plurals is unexpected: only the standard stop words can be disabled/,
    );
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: { stopwords: { en: true } }, other: 1 },
      /^other is unexpected/,
    );
    await expect400(
      'PUT',
      path,
      { disableStandardEntries: { stopwords: { klingon: true } } },
      /^disableStandardEntries\.stopwords\.klingon: not a supported language code/,
    );
    assert.deepEqual(await svc.ok('GET', path), { disableStandardEntries: { stopwords: {} } }, 'nothing applied');
    for (const method of ['GET', 'PUT']) {
      const answer = await svc.call(
        method,
        '/1/dictionaries/stopwords/settings',
        method === 'PUT' ? { disableStandardEntries: {} } : undefined,
      );
      assert.equal(answer.status, 404);
      assert.deepEqual(Object.keys(answer.body), ['message']);
    }
  });

  test('languages: every language with {nbCustomEntries} per dictionary, null where the dictionary does not exist', async () => {
    await clearAll();
    const empty = await svc.ok('GET', '/1/dictionaries/*/languages');
    assert.deepEqual(empty.en, { plurals: { nbCustomEntries: 0 }, stopwords: { nbCustomEntries: 0 }, compounds: null });
    assert.deepEqual(empty.de, {
      plurals: { nbCustomEntries: 0 },
      stopwords: { nbCustomEntries: 0 },
      compounds: { nbCustomEntries: 0 },
    });
    assert.equal(Object.keys(empty).length, 68);
    await batch('stopwords', [
      stop('a', 'a1'),
      stop('b', 'b1', { state: 'disabled' }),
      { action: 'addEntry', body: { objectID: 'c', language: 'fr', word: 'le' } },
    ]);
    await batch('plurals', [{ action: 'addEntry', body: { objectID: 'p', language: 'en', words: ['ox', 'oxen'] } }]);
    await batch('compounds', [
      { action: 'addEntry', body: { objectID: 'k1', language: 'de', word: 'a', decomposition: [] } },
      { action: 'addEntry', body: { objectID: 'k2', language: 'de', word: 'b', decomposition: [] } },
      { action: 'addEntry', body: { objectID: 'k3', language: 'nl', word: 'c', decomposition: [] } },
    ]);
    const counted = await svc.ok('GET', '/1/dictionaries/*/languages');
    assert.deepEqual(counted.en, {
      plurals: { nbCustomEntries: 1 },
      stopwords: { nbCustomEntries: 2 },
      compounds: null,
    });
    assert.deepEqual(counted.fr, {
      plurals: { nbCustomEntries: 0 },
      stopwords: { nbCustomEntries: 1 },
      compounds: null,
    });
    assert.deepEqual(counted.de, {
      plurals: { nbCustomEntries: 0 },
      stopwords: { nbCustomEntries: 0 },
      compounds: { nbCustomEntries: 2 },
    });
    assert.deepEqual(counted.nl.compounds, { nbCustomEntries: 1 });
    assert.equal((await svc.call('GET', '/1/dictionaries/plurals/languages')).status, 404);
  });
});
