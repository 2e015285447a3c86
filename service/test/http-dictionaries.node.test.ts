/**
 * Dictionaries over HTTP (document 1, Dictionaries): credentials and rights of every endpoint, and batch
 * (addEntry / deleteEntry / clearExistingDictionaryEntries) with every error code (400 schema and unknown
 * dictionary, 403 quota, 413 over 10 MB).
 *
 * Its sibling suites: search, settings and languages (`http-dictionaries-search`), the effect of custom stop
 * words, plurals and compounds on searches and durability across a restart (`http-dictionaries-effects`);
 * their shared setup is `dictionaries-helpers.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dictionaryCalls, ids, indexDictionaryShops, stop } from './dictionaries-helpers.js';
import { type Running, SEARCH_KEY, startService } from './service-helpers.js';

let svc: Running;
const { batch, entries, clearAll, expect400 } = dictionaryCalls(() => svc);

before(async () => {
  svc = await startService();
  await indexDictionaryShops(svc);
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
