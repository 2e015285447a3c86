/**
 * The Query Suggestions API (document 2) over HTTP against the real service, around the builds: status
 * during and after one, reads with every default filled, rebuilds, delete leaving the index, every
 * endpoint's errors (401, 403, 400, 422, 404), the 100-configuration limit, the official v5 client, and a
 * restart keeping configurations, status, log and suggestions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { BASE, FACETS, querySuggestionCalls, type Status } from './query-suggestions-helpers.js';
import { ADMIN_KEY, APP_ID, index, type Running, SEARCH_KEY, startService } from './service-helpers.js';

let svc: Running;
const { built, rebuild, records, suggestions, buildLog, recordScenario } = querySuggestionCalls(() => svc);

before(async () => {
  svc = await startService();
  await recordScenario();
  // The configuration of the build suite (`http-query-suggestions`), built once.
  await svc.ok('POST', '/1/configs', BASE);
  await built('shop_qs');
});

after(async () => {
  await svc.stop();
});

describe('status, reads and rebuilds', () => {
  test('status: isRunning during a build, lastBuiltAt after it; the build comes right after the answer', async () => {
    // 2,000 records with a word each: generate gives 2,000 candidates to search, a build long enough to watch.
    await index(
      svc,
      'parts',
      Array.from({ length: 2000 }, (_, i) => ({ objectID: `p${i}`, sku: `part${i}x` })),
      { attributesForFaceting: ['sku'] },
    );
    const created = await svc.call('POST', '/1/configs', {
      indexName: 'parts_qs',
      sourceIndices: [{ indexName: 'parts', minHits: 1, generate: [['sku']] }],
    });
    assert.equal(created.status, 200);
    const during = (await svc.ok('GET', '/1/configs/parts_qs/status')) as Status;
    assert.deepEqual(during, {
      indexName: 'parts_qs',
      isRunning: true,
      lastBuiltAt: null,
      lastSuccessfulBuiltAt: null,
      lastSuccessfulBuildDuration: null,
    });
    // Other calls are answered during the build (it gives the event loop back).
    assert.equal((await svc.call('POST', '/1/indexes/shop/query', { query: 'oak', analytics: false })).status, 200);
    const after1 = await built('parts_qs');
    assert.equal((await records('parts_qs')).size, 2000);
    const first = after1 as Status & { lastSuccessfulBuiltAt: string; lastSuccessfulBuildDuration: string };
    assert.equal(first.lastSuccessfulBuiltAt, first.lastBuiltAt);
    assert.match(first.lastSuccessfulBuildDuration, /^\d+\.\d{3}$/);

    // An update answers at once and builds again; two rebuild requests during it queue one more build.
    await svc.ok('PUT', '/1/configs/parts_qs', {
      sourceIndices: [{ indexName: 'parts', minHits: 1, minLetters: 7, generate: [['sku']] }],
    });
    assert.equal(((await svc.ok('GET', '/1/configs/parts_qs/status')) as Status).isRunning, true);
    const [a, b] = await Promise.all([rebuild('parts_qs'), rebuild('parts_qs')]);
    assert.equal(a.isRunning, false);
    assert.equal(a.lastBuiltAt, b.lastBuiltAt);
    assert.ok(Date.parse(a.lastBuiltAt!) > Date.parse(first.lastBuiltAt!));
    // part0x … part9x have 6 letters: 10 fewer.
    assert.equal((await records('parts_qs')).size, 1990);
    await svc.ok('DELETE', '/1/configs/parts_qs');
  });

  test('read answers: minHit, replicas, every default filled; the list of configurations', async () => {
    await svc.ok('POST', '/1/configs', {
      indexName: 'shop_mobile_qs',
      sourceIndices: [{ indexName: 'shop', analyticsTags: ['mobile'] }],
    });
    await built('shop_mobile_qs');
    const config = await svc.ok('GET', '/1/configs/shop_mobile_qs');
    assert.deepEqual(config, {
      appID: APP_ID,
      indexName: 'shop_mobile_qs',
      sourceIndices: [
        {
          indexName: 'shop',
          replicas: false,
          analyticsTags: ['mobile'],
          facets: [],
          minHit: 0,
          minLetters: 0,
          generate: [],
          external: [],
        },
      ],
      languages: [],
      exclude: [],
    });
    assert.deepEqual(await suggestions('shop_mobile_qs'), ['cushion:1']);
    const base = await svc.ok('GET', '/1/configs/shop_qs');
    assert.deepEqual(base.sourceIndices[0], {
      indexName: 'shop',
      replicas: false,
      analyticsTags: [],
      facets: FACETS,
      minHit: 1,
      minLetters: 3,
      generate: [['brand', 'category']],
      external: [],
    });
    // A read answer can be sent back as it is (minHit, appID).
    await svc.ok('PUT', '/1/configs/shop_mobile_qs', config);
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_mobile_qs'), config);
    const list = await svc.ok('GET', '/1/configs');
    assert.deepEqual(
      list.map((item: { indexName: string }) => item.indexName),
      ['shop_qs', 'shop_mobile_qs'],
    );
    assert.deepEqual(list[1], config);
  });

  test('PUT creates a configuration too (deprecated)', async () => {
    const answer = await svc.call('PUT', '/1/configs/shop_put_qs', {
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3 }],
    });
    assert.equal(answer.status, 200);
    assert.match(answer.body.message, /deprecated/);
    await built('shop_put_qs');
    // No languages and no exclude: chairs and cheap desk are suggestions.
    assert.deepEqual(await suggestions('shop_put_qs'), [
      'chair:5',
      'lamp:4',
      'chairs:2',
      'cheap desk:2',
      'desk:2',
      'cushion:1',
    ]);
  });

  test('delete stops the updates and leaves the suggestions index', async () => {
    const before = await records('shop_put_qs');
    const answer = await svc.call('DELETE', '/1/configs/shop_put_qs');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 200);
    assert.equal((await svc.call('GET', '/1/configs/shop_put_qs')).status, 404);
    assert.equal((await svc.call('GET', '/1/configs/shop_put_qs/status')).status, 404);
    assert.equal((await svc.call('GET', '/1/logs/shop_put_qs')).status, 404);
    assert.equal((await svc.call('POST', '/1/_local/configs/shop_put_qs/build')).status, 404);
    assert.deepEqual(await records('shop_put_qs'), before);
    assert.ok(
      !(await svc.ok('GET', '/1/configs')).some((item: { indexName: string }) => item.indexName === 'shop_put_qs'),
    );
  });
});

describe('errors', () => {
  test('401 without or with wrong credentials, 403 for any key but the admin key', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/1/configs', BASE],
      ['GET', '/1/configs'],
      ['GET', '/1/configs/shop_qs'],
      ['PUT', '/1/configs/shop_qs', BASE],
      ['DELETE', '/1/configs/shop_qs'],
      ['GET', '/1/configs/shop_qs/status'],
      ['GET', '/1/logs/shop_qs'],
      ['POST', '/1/_local/configs/shop_qs/build'],
    ];
    const allRights = await svc.ok('POST', '/1/keys', {
      acl: [
        'search',
        'browse',
        'addObject',
        'deleteObject',
        'deleteIndex',
        'settings',
        'editSettings',
        'analytics',
        'listIndexes',
        'logs',
      ],
    });
    for (const [method, path, body] of routes) {
      for (const options of [{ key: null }, { key: 'wrong-key' }, { appId: 'OTHER' }]) {
        const answer = await svc.call(method, path, body, options);
        assert.equal(answer.status, 401, `${method} ${path} ${JSON.stringify(options)}`);
        assert.match(
          answer.body.message,
          options.key === null ? /are required/ : /^Invalid Application-Id or API-Key$/,
        );
      }
      for (const key of [SEARCH_KEY, allRights.key as string]) {
        const answer = await svc.call(method, path, body, { key });
        assert.equal(answer.status, 403, `${method} ${path}`);
        assert.equal(typeof answer.body.message, 'string');
      }
    }
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs'), (await svc.ok('GET', '/1/configs'))[0]);
  });

  test('400 for a body that is not a JSON object or a path that cannot be an index name', async () => {
    for (const raw of ['{"indexName":', '[]', '"shop_qs"', 'null']) {
      const answer = await svc.call('POST', '/1/configs', undefined, { raw });
      assert.equal(answer.status, 400, raw);
      assert.equal(typeof answer.body.message, 'string');
    }
    assert.equal((await svc.call('PUT', '/1/configs/x', undefined, { raw: '{' })).status, 400);
    for (const path of ['/1/configs/a*b', '/1/configs/a*b/status', '/1/logs/a*b']) {
      assert.equal((await svc.call('GET', path)).status, 400, path);
    }
  });

  test('422 naming the invalid field', async () => {
    const source = { indexName: 'shop' };
    const cases: Array<[unknown, RegExp]> = [
      [{ sourceIndices: [source] }, /^indexName: is required/],
      [{ indexName: '', sourceIndices: [source] }, /^indexName: /],
      [{ indexName: 'a*', sourceIndices: [source] }, /^indexName: /],
      [{ indexName: 'q' }, /^sourceIndices: is required/],
      [{ indexName: 'q', sourceIndices: [] }, /^sourceIndices: must be a non-empty list/],
      [{ indexName: 'q', sourceIndices: {} }, /^sourceIndices: /],
      [{ indexName: 'q', sourceIndices: [{}] }, /^sourceIndices\[0\]\.indexName: is required/],
      [{ indexName: 'q', sourceIndices: ['shop'] }, /^sourceIndices\[0\]: must be an object/],
      [
        { indexName: 'q', sourceIndices: [{ ...source, minHits: -1 }] },
        /^sourceIndices\[0\]\.minHits: must be an integer ≥ 0/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, minHits: 1.5 }] }, /^sourceIndices\[0\]\.minHits: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, minHit: '2' }] }, /^sourceIndices\[0\]\.minHit: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, minHits: 1, minHit: 2 }] },
        /^sourceIndices\[0\]\.minHits: differs/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, minLetters: 'x' }] }, /^sourceIndices\[0\]\.minLetters: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, replicas: 'yes' }] }, /^sourceIndices\[0\]\.replicas: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, analyticsTags: 'mobile' }] },
        /^sourceIndices\[0\]\.analyticsTags: must be a list/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, analyticsTags: [1] }] },
        /^sourceIndices\[0\]\.analyticsTags\[0\]: /,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand' }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.amount: is required/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ amount: 2 }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.attribute: is required/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand', amount: 0 }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.amount: must be an integer from 1 to 1000/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, facets: [{ attribute: 'brand', amount: 1, sort: 'x' }] }] },
        /^sourceIndices\[0\]\.facets\[0\]\.sort: is not a field/,
      ],
      [
        {
          indexName: 'q',
          sourceIndices: [
            {
              ...source,
              facets: [
                { attribute: 'b', amount: 1 },
                { attribute: 'b', amount: 2 },
              ],
            },
          ],
        },
        /^sourceIndices\[0\]\.facets\[1\]\.attribute: "b" is listed twice/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, generate: ['brand'] }] },
        /^sourceIndices\[0\]\.generate\[0\]: must be a non-empty list/,
      ],
      [{ indexName: 'q', sourceIndices: [{ ...source, generate: [[]] }] }, /^sourceIndices\[0\]\.generate\[0\]: /],
      [{ indexName: 'q', sourceIndices: [{ ...source, external: ['a*'] }] }, /^sourceIndices\[0\]\.external\[0\]: /],
      [
        { indexName: 'q', sourceIndices: [{ ...source, colour: 'red' }] },
        /^sourceIndices\[0\]\.colour: is not a field/,
      ],
      [{ indexName: 'q', sourceIndices: [source, source] }, /^sourceIndices\[1\]\.indexName: "shop" is listed twice/],
      [
        { indexName: 'q', sourceIndices: [{ indexName: 'popularity' }] },
        /^sourceIndices\[0\]\.indexName: "popularity" is an attribute of every suggestion record/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ indexName: 'q' }] },
        /^sourceIndices\[0\]\.indexName: the suggestions index "q" cannot be one of its own source indices/,
      ],
      [
        { indexName: 'q', sourceIndices: [{ ...source, external: ['q'] }] },
        /^sourceIndices\[0\]\.external\[0\]: the suggestions index "q" cannot be/,
      ],
      [{ indexName: 'q', sourceIndices: [source], languages: 'en' }, /^languages: must be a list/],
      [
        { indexName: 'q', sourceIndices: [source], languages: ['english'] },
        /^languages\[0\]: "english" is not a supported language code/,
      ],
      [{ indexName: 'q', sourceIndices: [source], exclude: [''] }, /^exclude\[0\]: must be a non-empty string/],
      [
        { indexName: 'q', sourceIndices: [source], enablePersonalization: true },
        /^enablePersonalization: is not a field/,
      ],
      [{ ...BASE }, /^indexName: a Query Suggestions configuration for shop_qs exists already/],
    ];
    for (const [body, message] of cases) {
      const answer = await svc.call('POST', '/1/configs', body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys(answer.body), ['message']);
      assert.match(answer.body.message, message, JSON.stringify(body));
    }
    const mismatch = await svc.call('PUT', '/1/configs/shop_qs', { ...BASE, indexName: 'other' });
    assert.equal(mismatch.status, 422);
    assert.match(mismatch.body.message, /^indexName: "other" differs from the index of the path/);
    const selfSource = await svc.call('PUT', '/1/configs/shop', { sourceIndices: [{ indexName: 'shop' }] });
    assert.equal(selfSource.status, 422);
    // Nothing of the refused calls was kept.
    assert.deepEqual(
      (await svc.ok('GET', '/1/configs')).map((item: { indexName: string }) => item.indexName),
      ['shop_qs', 'shop_mobile_qs'],
    );
  });

  test('404 for an unknown configuration, and for the log of one that was never built', async () => {
    for (const [method, path] of [
      ['GET', '/1/configs/nothing'],
      ['DELETE', '/1/configs/nothing'],
      ['GET', '/1/configs/nothing/status'],
      ['GET', '/1/logs/nothing'],
      ['POST', '/1/_local/configs/nothing/build'],
    ] as const) {
      const answer = await svc.call(method, path);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.deepEqual(Object.keys(answer.body), ['message']);
    }
  });

  test('up to 100 configurations per application', async () => {
    await index(svc, 'tiny', [{ objectID: '1', name: 'tiny' }]);
    const existing = (await svc.ok('GET', '/1/configs')).length as number;
    const names = Array.from({ length: 100 - existing }, (_, i) => `tiny_qs_${i}`);
    for (const name of names)
      await svc.ok('POST', '/1/configs', { indexName: name, sourceIndices: [{ indexName: 'tiny' }] });
    assert.equal((await svc.ok('GET', '/1/configs')).length, 100);
    const refused = await svc.call('POST', '/1/configs', {
      indexName: 'tiny_qs_extra',
      sourceIndices: [{ indexName: 'tiny' }],
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /Up to 100 Query Suggestions configurations/);
    assert.equal(
      (await svc.call('PUT', '/1/configs/tiny_qs_extra', { sourceIndices: [{ indexName: 'tiny' }] })).status,
      403,
    );
    // Updating one of the 100 is not creating.
    await svc.ok('PUT', `/1/configs/${names[0]}`, { sourceIndices: [{ indexName: 'tiny', minLetters: 2 }] });
    await svc.ok('DELETE', `/1/configs/${names[0]}`);
    await svc.ok('POST', '/1/configs', { indexName: 'tiny_qs_extra', sourceIndices: [{ indexName: 'tiny' }] });
    for (const name of [...names.slice(1), 'tiny_qs_extra']) {
      await built(name);
      await svc.ok('DELETE', `/1/configs/${name}`);
    }
    assert.equal((await svc.ok('GET', '/1/configs')).length, existing);
  });
});

describe('the official client', () => {
  test('algoliasearch v5 querySuggestionsClient: create, read, status, list, update, delete', async () => {
    const requester = {
      async send(request: {
        method: string;
        url: string;
        headers: Record<string, string>;
        data?: string | Uint8Array;
      }) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
        const response = await fetch(request.url, {
          method: request.method,
          headers,
          ...(request.data === undefined ? {} : { body: request.data as string }),
        });
        return { content: await response.text(), isTimedOut: false, status: response.status };
      },
    };
    const client = algoliasearch(APP_ID, ADMIN_KEY).initQuerySuggestions({
      region: 'us',
      options: { hosts: [{ url: new URL(svc.url).host, accept: 'readWrite', protocol: 'http' }], requester },
    });
    const created = await client.createConfig({
      indexName: 'shop_client_qs',
      sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 4 }],
      languages: ['en'],
      exclude: ['cheap'],
    });
    assert.equal(created.status, 200);
    await built('shop_client_qs');
    const config = await client.getConfig({ indexName: 'shop_client_qs' });
    assert.equal(config.appID, APP_ID);
    assert.equal((config.sourceIndices[0] as Record<string, unknown>).minHit, 1);
    const status = await client.getConfigStatus({ indexName: 'shop_client_qs' });
    assert.equal(status.isRunning, false);
    assert.equal(typeof status.lastBuiltAt, 'string');
    assert.ok((await client.getAllConfigs()).some((item) => item.indexName === 'shop_client_qs'));
    await client.updateConfig({
      indexName: 'shop_client_qs',
      configuration: { sourceIndices: [{ indexName: 'shop', minHits: 3 }] },
    });
    await rebuild('shop_client_qs');
    // No languages, exclude or minLetters any more: chair 4 hits, chairs 4, desk 3, ch 5 (lamp 2, cheap desk 1, cushion 1 are skipped).
    assert.deepEqual(await suggestions('shop_client_qs'), ['chair:5', 'chairs:2', 'desk:2', 'ch:1']);
    assert.equal((await client.deleteConfig({ indexName: 'shop_client_qs' })).status, 200);
    await assert.rejects(
      client.getConfig({ indexName: 'shop_client_qs' }),
      (error: { status?: number }) => error.status === 404,
    );
  });
});

describe('durability', () => {
  test('configurations, status, log and suggestions survive a restart', async () => {
    const config = await svc.ok('GET', '/1/configs/shop_qs');
    const status = await svc.ok('GET', '/1/configs/shop_qs/status');
    const log = await buildLog('shop_qs');
    const suggestionRecords = await records('shop_qs');
    const list = await svc.ok('GET', '/1/configs');
    const dataDir = svc.dataDir;
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir });
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs'), config);
    assert.deepEqual(await svc.ok('GET', '/1/configs/shop_qs/status'), status);
    assert.deepEqual(await buildLog('shop_qs'), log);
    assert.deepEqual(await records('shop_qs'), suggestionRecords);
    assert.deepEqual(await svc.ok('GET', '/1/configs'), list);
    // The searches are still there: a rebuild gives the same suggestions.
    await rebuild('shop_qs');
    assert.deepEqual(await records('shop_qs'), suggestionRecords);
  });
});
