/**
 * Dictionaries over HTTP (document 1, Dictionaries): batch (addEntry / deleteEntry /
 * clearExistingDictionaryEntries), search (GET and POST), settings (disableStandardEntries.stopwords,
 * null reset) and languages, with every error code (400 schema and unknown dictionary, 403 credentials,
 * rights and quota, 404 for the settings path of one dictionary, 413 over 10 MB); the effect of custom
 * stop words, plurals and compounds on searches of every index, worked out by hand; durability across a
 * restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { index, SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

let svc: Running;
const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID).sort();

const stop = (objectID: string, word: string, extra: Record<string, unknown> = {}) => ({
  action: 'addEntry',
  body: { objectID, language: 'en', word, ...extra },
});
async function batch(name: string, requests: unknown[], clearExistingDictionaryEntries?: boolean) {
  const body: Record<string, unknown> = { requests };
  if (clearExistingDictionaryEntries !== undefined)
    body.clearExistingDictionaryEntries = clearExistingDictionaryEntries;
  return svc.ok('POST', `/1/dictionaries/${name}/batch`, body);
}
async function entries(name: string, params: Record<string, unknown> = {}) {
  return svc.ok('POST', `/1/dictionaries/${name}/search`, { query: '', hitsPerPage: 1000, ...params });
}
async function clearAll() {
  for (const name of ['stopwords', 'plurals', 'compounds']) await batch(name, [], true);
  await svc.ok('PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } });
}
async function search(indexName: string, params: Record<string, unknown>) {
  return svc.ok('POST', `/1/indexes/${indexName}/query`, { hitsPerPage: 100, ...params }, { key: SEARCH_KEY });
}
async function expect400(method: string, path: string, body: unknown, message: RegExp) {
  const answer = await svc.call(method, path, body);
  assert.equal(
    answer.status,
    400,
    `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)} → ${answer.status} ${JSON.stringify(answer.body)}`,
  );
  assert.deepEqual(Object.keys(answer.body), ['message']);
  assert.match(answer.body.message, message);
}

before(async () => {
  svc = await startService();
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
});
after(() => svc.stop());

describe('authentication and rights', () => {
  test('every endpoint needs valid credentials (403 with the document message)', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [] }],
      ['POST', '/1/dictionaries/stopwords/search', { query: '' }],
      ['GET', '/1/dictionaries/stopwords/search?query='],
      ['PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: null } }],
      ['GET', '/1/dictionaries/*/settings'],
      ['GET', '/1/dictionaries/*/languages'],
    ];
    for (const [method, path, body] of calls) {
      for (const options of [{ key: null }, { key: 'wrong-key' }, { appId: 'OTHER' }]) {
        const answer = await svc.call(method, path, body, options);
        assert.equal(answer.status, 403, `${method} ${path} ${JSON.stringify(options)}`);
        assert.deepEqual(answer.body, { message: 'Invalid Application-Id or API-Key' });
      }
    }
  });

  test('writes need editSettings, reads need settings; the search key has neither', async () => {
    const { key: reader } = await svc.ok('POST', '/1/keys', { acl: ['settings'] });
    const { key: writer } = await svc.ok('POST', '/1/keys', { acl: ['editSettings'] });
    const write: Array<[string, string, unknown]> = [
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [] }],
      ['PUT', '/1/dictionaries/*/settings', { disableStandardEntries: {} }],
    ];
    const read: Array<[string, string, unknown?]> = [
      ['POST', '/1/dictionaries/plurals/search', { query: '' }],
      ['GET', '/1/dictionaries/plurals/search?query='],
      ['GET', '/1/dictionaries/*/settings'],
      ['GET', '/1/dictionaries/*/languages'],
    ];
    for (const [method, path, body] of [...write, ...read]) {
      const answer = await svc.call(method, path, body, { key: SEARCH_KEY });
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.match(answer.body.message, /the right (settings|editSettings) is needed/);
    }
    for (const [method, path, body] of write) {
      assert.equal((await svc.call(method, path, body, { key: reader })).status, 403, `${method} ${path} as reader`);
      assert.equal((await svc.call(method, path, body, { key: writer })).status, 200, `${method} ${path} as writer`);
    }
    for (const [method, path, body] of read) {
      assert.equal((await svc.call(method, path, body, { key: reader })).status, 200, `${method} ${path} as reader`);
      assert.equal((await svc.call(method, path, body, { key: writer })).status, 403, `${method} ${path} as writer`);
    }
  });
});

describe('batch', () => {
  test('addEntry answers {taskID, updatedAt}, the task is published, state defaults to enabled', async () => {
    await clearAll();
    const answer = await batch('stopwords', [stop('s1', 'deluxe'), stop('s2', 'with', { state: 'disabled' })]);
    assert.deepEqual(Object.keys(answer).sort(), ['taskID', 'updatedAt']);
    assert.ok(Number.isInteger(answer.taskID));
    assert.ok(!Number.isNaN(Date.parse(answer.updatedAt)));
    assert.deepEqual(await svc.ok('GET', `/1/task/${answer.taskID}`), { status: 'published' });
    const found = await entries('stopwords');
    assert.deepEqual(found, {
      hits: [
        { objectID: 's1', language: 'en', word: 'deluxe', state: 'enabled' },
        { objectID: 's2', language: 'en', word: 'with', state: 'disabled' },
      ],
      nbHits: 2,
      page: 0,
      nbPages: 1,
    });
  });

  test('addEntry replaces the entry with the same objectID; deleteEntry removes one; requests apply in order', async () => {
    await clearAll();
    await batch('plurals', [
      { action: 'addEntry', body: { objectID: 'a', language: 'en', words: ['mouse', 'mice'] } },
      { action: 'addEntry', body: { objectID: 'b', language: 'en', words: ['goose', 'geese'] } },
      { action: 'addEntry', body: { objectID: 'c', language: 'fr', words: ['oeil', 'yeux'] } },
    ]);
    await batch('plurals', [
      { action: 'addEntry', body: { objectID: 'a', language: 'en', words: ['louse', 'lice'] } },
      { action: 'deleteEntry', body: { objectID: 'b' } },
      { action: 'deleteEntry', body: { objectID: 'never-there' } },
      { action: 'addEntry', body: { objectID: 'd', language: 'en', words: ['die', 'dice'] } },
      { action: 'deleteEntry', body: { objectID: 'd' } },
    ]);
    const found = await entries('plurals');
    assert.deepEqual(found.hits, [
      { objectID: 'a', language: 'en', words: ['louse', 'lice'] },
      { objectID: 'c', language: 'fr', words: ['oeil', 'yeux'] },
    ]);
  });

  test('clearExistingDictionaryEntries removes every custom entry of that dictionary first, and only of that one', async () => {
    await clearAll();
    await batch('stopwords', [stop('s1', 'alpha'), stop('s2', 'beta')]);
    await batch('plurals', [{ action: 'addEntry', body: { objectID: 'p', language: 'en', words: ['ox', 'oxen'] } }]);
    await batch('stopwords', [stop('s3', 'gamma')], true);
    assert.deepEqual(ids(await entries('stopwords')), ['s3']);
    assert.equal((await entries('plurals')).nbHits, 1);
    await batch('stopwords', [stop('s4', 'delta')], false);
    assert.deepEqual(ids(await entries('stopwords')), ['s3', 's4']);
    // an empty batch that clears: the official clients' "clear dictionary entries"
    await batch('stopwords', [], true);
    assert.equal((await entries('stopwords')).nbHits, 0);
    assert.equal((await entries('plurals')).nbHits, 1);
  });

  test('compound entries: a decomposition, or an empty one (an atom)', async () => {
    await clearAll();
    await batch('compounds', [
      {
        action: 'addEntry',
        body: {
          objectID: 'k',
          language: 'de',
          word: 'kopfschmerztablette',
          decomposition: ['kopf', 'schmerz', 'tablette'],
        },
      },
      { action: 'addEntry', body: { objectID: 'atom', language: 'nl', word: 'appelmoes', decomposition: [] } },
    ]);
    assert.deepEqual((await entries('compounds')).hits, [
      { objectID: 'k', language: 'de', word: 'kopfschmerztablette', decomposition: ['kopf', 'schmerz', 'tablette'] },
      { objectID: 'atom', language: 'nl', word: 'appelmoes', decomposition: [] },
    ]);
  });

  test('400 for schema errors (missing or unexpected keys, wrong types) and unknown dictionaries; nothing is applied', async () => {
    await clearAll();
    await batch('stopwords', [stop('keep', 'kept')]);
    const path = '/1/dictionaries/stopwords/batch';
    const good = stop('new', 'added');
    const cases: Array<[string, unknown, RegExp]> = [
      [path, {}, /^requests is required$/],
      [path, { requests: 'x' }, /^requests must be an array/],
      [path, { requests: [], extra: 1 }, /^extra is unexpected/],
      [
        path,
        { requests: [], clearExistingDictionaryEntries: 'yes' },
        /^clearExistingDictionaryEntries must be a boolean, got "yes"$/,
      ],
      [path, [good], /^The body must be a JSON object$/],
      [path, { requests: [good, 'x'] }, /^requests\[1\] must be an object/],
      [path, { requests: [good, { body: good.body }] }, /^requests\[1\]\.action is required$/],
      [
        path,
        { requests: [{ action: 'saveEntry', body: good.body }] },
        /^requests\[0\]\.action must be addEntry or deleteEntry, got "saveEntry"$/,
      ],
      [path, { requests: [{ action: 'addEntry' }] }, /^requests\[0\]\.body is required$/],
      [
        path,
        { requests: [{ action: 'addEntry', body: good.body, extra: true }] },
        /^requests\[0\]\.extra is unexpected/,
      ],
      [path, { requests: [{ action: 'addEntry', body: [] }] }, /^requests\[0\]\.body must be an object/],
      [
        path,
        { requests: [{ action: 'addEntry', body: { language: 'en', word: 'x' } }] },
        /^requests\[0\]\.body\.objectID is required$/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', word: 'x' } }] },
        /^requests\[0\]\.body\.language is required$/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en' } }] },
        /^requests\[0\]\.body\.word is required$/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: '' } }] },
        /^requests\[0\]\.body\.word must be a non-empty string/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 7 } }] },
        /^requests\[0\]\.body\.word must be a non-empty string, got 7$/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'english', word: 'x' } }] },
        /^requests\[0\]\.body\.language must be a supported language code/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x', state: 'off' } }] },
        /^requests\[0\]\.body\.state must be enabled or disabled, got "off"$/,
      ],
      [
        path,
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x', words: ['x'] } }] },
        /^requests\[0\]\.body\.words is unexpected: a stop word entry has objectID, language, word and state$/,
      ],
      [
        path,
        { requests: [{ action: 'deleteEntry', body: { objectID: 'x', language: 'en' } }] },
        /^requests\[0\]\.body\.language is unexpected: the body of deleteEntry has objectID only$/,
      ],
      [path, { requests: [{ action: 'deleteEntry', body: {} }] }, /^requests\[0\]\.body\.objectID is required$/],
      [
        '/1/dictionaries/plurals/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x' } }] },
        /^requests\[0\]\.body\.words is required$/,
      ],
      [
        '/1/dictionaries/plurals/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', words: [] } }] },
        /^requests\[0\]\.body\.words must be a non-empty array of strings/,
      ],
      [
        '/1/dictionaries/plurals/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', words: 'x' } }] },
        /^requests\[0\]\.body\.words must be a non-empty array of strings, got "x"$/,
      ],
      [
        '/1/dictionaries/plurals/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', words: ['a', 2] } }] },
        /^requests\[0\]\.body\.words\[1\] must be a non-empty string, got 2$/,
      ],
      [
        '/1/dictionaries/compounds/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'de', word: 'x' } }] },
        /^requests\[0\]\.body\.decomposition is required$/,
      ],
      [
        '/1/dictionaries/compounds/batch',
        { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x', decomposition: [] } }] },
        /^requests\[0\]\.body\.language must be a language with a compounds dictionary/,
      ],
      [
        '/1/dictionaries/synonyms/batch',
        { requests: [] },
        /^Unknown dictionary "synonyms": the dictionaries are stopwords, plurals and compounds$/,
      ],
      ['/1/dictionaries/*/batch', { requests: [] }, /^Unknown dictionary "\*"/],
    ];
    for (const [where, body, message] of cases) await expect400('POST', where, body, message);
    await expect400('POST', path, undefined, /^requests is required$/);
    const malformed = await svc.call('POST', path, undefined, { raw: '{"requests": [' });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /^Invalid JSON/);
    assert.deepEqual(ids(await entries('stopwords')), ['keep']);
  });

  test('413 above 10 MB, before anything is applied', async () => {
    const word = 'x'.repeat(1000);
    const requests = Array.from({ length: 10_600 }, (_, i) => stop(`big${i}`, word));
    const payload = JSON.stringify({ requests });
    assert.ok(Buffer.byteLength(payload) > 10 * 1024 * 1024);
    const answer = await svc.call('POST', '/1/dictionaries/stopwords/batch', undefined, { raw: payload });
    assert.equal(answer.status, 413);
    assert.match(answer.body.message, /too large.*10485760 bytes/);
    assert.equal((await entries('stopwords', { query: 'xxx' })).nbHits, 0);
  });

  test('403 when a dictionary would exceed the custom entries quota; the batch is refused whole', async () => {
    const small = await startService({ dataDir: ':memory:', maxCustomDictionaryEntries: 2 });
    try {
      const path = '/1/dictionaries/stopwords/batch';
      const add = (objectID: string) => stop(objectID, objectID);
      assert.equal((await small.call('POST', path, { requests: [add('a'), add('b')] })).status, 200);
      const over = await small.call('POST', path, { requests: [add('c')] });
      assert.equal(over.status, 403);
      assert.deepEqual(Object.keys(over.body), ['message']);
      assert.match(
        over.body.message,
        /quota exceeded: the stopwords dictionary would hold 3 custom entries, the limit is 2/,
      );
      // replacing, deleting first, or clearing first stays within the quota
      assert.equal(
        (
          await small.call('POST', path, {
            requests: [add('a'), { action: 'deleteEntry', body: { objectID: 'b' } }, add('c')],
          })
        ).status,
        200,
      );
      assert.equal(
        (await small.call('POST', path, { requests: [add('x'), add('y')], clearExistingDictionaryEntries: true }))
          .status,
        200,
      );
      const left = await small.ok('POST', '/1/dictionaries/stopwords/search', { query: '' });
      assert.deepEqual(ids(left), ['x', 'y']);
      // the quota is per dictionary
      assert.equal(
        (
          await small.call('POST', '/1/dictionaries/plurals/batch', {
            requests: [{ action: 'addEntry', body: { objectID: 'p', language: 'en', words: ['a'] } }],
          })
        ).status,
        200,
      );
    } finally {
      await small.stop();
    }
  });
});

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
