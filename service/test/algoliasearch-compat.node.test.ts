/**
 * Wire compatibility: the official `algoliasearch` v5 client (devDependency) drives the local service
 * through a requester that only renames its two credential headers to ours. Indexing helpers,
 * waitForTask, settings, search, facet search, browse, get objects, partial updates, delete by, copy and
 * secured keys all work unchanged — the service speaks the document's wire format.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

interface EndRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string | Uint8Array;
}

/** Requests the client sent gzip-compressed. */
let gzipped = 0;

/** Sends the client's requests with `X-Service-*` instead of `X-Algolia-*` (headers or URL parameters). */
const requester = {
  async send(request: EndRequest) {
    if (
      Object.entries(request.headers).some(
        ([name, value]) => name.toLowerCase() === 'content-encoding' && value === 'gzip',
      )
    )
      gzipped += 1;
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
    for (const name of ['x-algolia-application-id', 'x-algolia-api-key']) {
      const value = url.searchParams.get(name);
      if (value !== null) {
        headers[name.replace('x-algolia-', 'x-service-')] = value;
        url.searchParams.delete(name);
      }
    }
    const body = request.data as string | Uint8Array | undefined;
    const response = await fetch(url, {
      method: request.method,
      headers,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    return { content: await response.text(), isTimedOut: false, status: response.status };
  },
};

function client(apiKey: string, options: { compression?: 'gzip' } = {}) {
  const { host } = new URL(svc.url);
  return algoliasearch(APP_ID, apiKey, {
    hosts: [{ url: host, accept: 'readWrite', protocol: 'http' }],
    requester,
    ...options,
  });
}

test('indexing, settings, search and reads through the official client', async () => {
  const admin = client(ADMIN_KEY);
  const settings = await admin.setSettings({
    indexName: 'compat',
    indexSettings: {
      searchableAttributes: ['name'],
      attributesForFaceting: ['searchable(brand)', 'price'],
      customRanking: ['desc(sold)'],
    },
  });
  await admin.waitForTask({ indexName: 'compat', taskID: settings.taskID });
  const saved = await admin.saveObjects({
    indexName: 'compat',
    objects: [
      { objectID: 'a', name: 'Oak chair', brand: 'Hon', price: 120, sold: 5 },
      { objectID: 'b', name: 'Office chair', brand: 'Hon', price: 300, sold: 9 },
      { objectID: 'c', name: 'Desk lamp', brand: 'Tensor', price: 30, sold: 2 },
    ],
    waitForTasks: true,
  });
  assert.equal(saved.length, 1);

  const search = client(SEARCH_KEY);
  const { results } = await search.search({
    requests: [
      { indexName: 'compat', query: 'chiar', facets: ['brand'], clickAnalytics: true },
      { indexName: 'compat', type: 'facet', facet: 'brand', facetQuery: 'ten' },
    ],
  });
  const hits = results[0] as {
    hits: Array<{ objectID: string }>;
    facets: Record<string, Record<string, number>>;
    queryID: string;
  };
  assert.deepEqual(
    hits.hits.map((hit) => hit.objectID),
    ['b', 'a'],
  );
  assert.deepEqual(hits.facets.brand, { Hon: 2 });
  assert.match(hits.queryID, /^[0-9a-f]{32}$/);
  assert.deepEqual(
    (results[1] as { facetHits: Array<{ value: string }> }).facetHits.map((hit) => hit.value),
    ['Tensor'],
  );

  const single = await search.searchSingleIndex({
    indexName: 'compat',
    searchParams: { query: 'lamp', attributesToRetrieve: ['name'] },
  });
  assert.deepEqual(
    single.hits.map((hit) => hit.objectID),
    ['c'],
  );
  const facetValues = await search.searchForFacetValues({
    indexName: 'compat',
    facetName: 'brand',
    searchForFacetValuesRequest: { facetQuery: 'h' },
  });
  assert.equal(facetValues.facetHits[0]?.value, 'Hon');

  const objects = await search.getObjects({
    requests: [
      { indexName: 'compat', objectID: 'a' },
      { indexName: 'compat', objectID: 'zz' },
    ],
  });
  assert.equal((objects.results[0] as { name: string }).name, 'Oak chair');
  assert.equal(objects.results[1], null);
  assert.equal(
    (
      (await admin.getObject({ indexName: 'compat', objectID: 'b', attributesToRetrieve: ['price'] })) as {
        price: number;
      }
    ).price,
    300,
  );

  const partial = await admin.partialUpdateObject({
    indexName: 'compat',
    objectID: 'c',
    attributesToUpdate: { sold: { _operation: 'Increment', value: 10 } },
  });
  await admin.waitForTask({ indexName: 'compat', taskID: partial.taskID! });
  const reordered = await search.searchSingleIndex({ indexName: 'compat', searchParams: { query: '' } });
  assert.deepEqual(
    reordered.hits.map((hit) => hit.objectID),
    ['c', 'b', 'a'],
  );

  const browsed: string[] = [];
  await admin.browseObjects({
    indexName: 'compat',
    browseParams: { hitsPerPage: 1 },
    aggregator: (response) => browsed.push(...response.hits.map((hit) => hit.objectID)),
  });
  assert.deepEqual(browsed.sort(), ['a', 'b', 'c']);

  const copied = await admin.operationIndex({
    indexName: 'compat',
    operationIndexParams: { operation: 'copy', destination: 'compat_copy' },
  });
  await admin.waitForTask({ indexName: 'compat', taskID: copied.taskID });
  const list = await admin.listIndices();
  assert.ok(list.items.some((item) => item.name === 'compat_copy' && item.entries === 3));

  const deleted = await admin.deleteBy({ indexName: 'compat_copy', deleteByParams: { filters: 'price < 100' } });
  await admin.waitForTask({ indexName: 'compat_copy', taskID: deleted.taskID });
  const remaining = await admin.searchSingleIndex({ indexName: 'compat_copy', searchParams: { query: '' } });
  assert.equal(remaining.nbHits, 2);

  const got = await admin.getSettings({ indexName: 'compat' });
  assert.deepEqual(got.customRanking, ['desc(sold)']);
});

test('gzip-compressed writes from the official client (compression: gzip)', async () => {
  const admin = client(ADMIN_KEY, { compression: 'gzip' });
  const objects = Array.from({ length: 50 }, (_, i) => ({
    objectID: `z${i}`,
    name: `compressed record number ${i}`,
    padding: 'x'.repeat(50),
  }));
  await admin.saveObjects({ indexName: 'compat_gzip', objects, waitForTasks: true });
  assert.ok(gzipped > 0, 'the client compressed its batch');
  const answer = await client(SEARCH_KEY).searchSingleIndex({
    indexName: 'compat_gzip',
    searchParams: { query: 'compressed' },
  });
  assert.equal(answer.nbHits, 50);
});

test('replaceAllObjects (copy with scope to a temporary index, batch, move back) keeps settings, rules and replicas', async () => {
  const admin = client(ADMIN_KEY);
  const settings = await admin.setSettings({
    indexName: 'compat_replace',
    indexSettings: { customRanking: ['desc(n)'], replicas: ['compat_replace_asc'] },
  });
  await admin.waitForTask({ indexName: 'compat_replace', taskID: settings.taskID });
  await admin.saveObjects({ indexName: 'compat_replace', objects: [{ objectID: 'old', n: 1 }], waitForTasks: true });
  await admin.saveRule({
    indexName: 'compat_replace',
    objectID: 'r',
    rule: { objectID: 'r', consequence: { userData: { kept: true } } },
  });
  await admin.replaceAllObjects({
    indexName: 'compat_replace',
    objects: [
      { objectID: 'new1', n: 1 },
      { objectID: 'new2', n: 2 },
    ],
    batchSize: 1,
  });
  const answer = await client(SEARCH_KEY).searchSingleIndex({
    indexName: 'compat_replace',
    searchParams: { query: '' },
  });
  assert.deepEqual(
    answer.hits.map((hit) => hit.objectID),
    ['new2', 'new1'],
  );
  assert.deepEqual((answer as { userData?: unknown[] }).userData, [{ kept: true }]);
  const replica = await client(SEARCH_KEY).searchSingleIndex({
    indexName: 'compat_replace_asc',
    searchParams: { query: '' },
  });
  assert.deepEqual(replica.hits.map((hit) => hit.objectID).sort(), ['new1', 'new2']);
  assert.ok(
    !(await admin.listIndices()).items.some((item) => item.name.includes('tmp')),
    'the temporary index is gone',
  );
});

test('API keys through the official client: addApiKey + waitForApiKey, then the key works', async () => {
  const admin = client(ADMIN_KEY);
  const { key } = await admin.addApiKey({ acl: ['search'], indexes: ['compat'], description: 'from algoliasearch' });
  await admin.waitForApiKey({ operation: 'add', key });
  const got = await admin.getApiKey({ key });
  assert.equal(got.description, 'from algoliasearch');
  const answer = await client(key).searchSingleIndex({ indexName: 'compat', searchParams: { query: 'chair' } });
  assert.equal(answer.nbHits, 2);
  await admin.deleteApiKey({ key });
  await admin.waitForApiKey({ operation: 'delete', key });
  await assert.rejects(
    client(key).searchSingleIndex({ indexName: 'compat' }),
    (error: Error & { status?: number }) => error.status === 403,
  );
});

test('a secured key made by the official client is enforced', async () => {
  const admin = client(ADMIN_KEY);
  const securedKey = admin.generateSecuredApiKey({
    parentApiKey: SEARCH_KEY,
    restrictions: { restrictIndices: ['compat'], filters: 'brand:Hon', validUntil: Math.floor(Date.now() / 1000) + 60 },
  });
  const secured = client(await securedKey);
  const answer = await secured.searchSingleIndex({ indexName: 'compat', searchParams: { query: '' } });
  assert.deepEqual(answer.hits.map((hit) => hit.objectID).sort(), ['a', 'b']);
  await assert.rejects(
    secured.searchSingleIndex({ indexName: 'compat_copy', searchParams: { query: '' } }),
    (error: Error & { status?: number }) => error.status === 403,
  );
});

test('errors reach the official client as ApiError with the status and message', async () => {
  const search = client(SEARCH_KEY);
  await assert.rejects(
    search.searchSingleIndex({ indexName: 'does-not-exist', searchParams: { query: '' } }),
    (error: Error & { status?: number }) => error.status === 404 && /does-not-exist/.test(error.message),
  );
  await assert.rejects(
    search.searchSingleIndex({ indexName: 'compat', searchParams: { filters: 'brand:Hon AND' } }),
    (error: Error & { status?: number }) => error.status === 400,
  );
  await assert.rejects(
    client('wrong').searchSingleIndex({ indexName: 'compat' }),
    (error: Error & { status?: number }) =>
      error.status === 403 && error.message === 'Invalid Application-Id or API-Key',
  );
});

test('dictionaries through the official client: batch + waitForAppTask, search, settings, languages, and their effect on a search', async () => {
  const admin = client(ADMIN_KEY);
  const settings = await admin.setSettings({
    indexName: 'compat_dict',
    indexSettings: { searchableAttributes: ['name'] },
  });
  await admin.waitForTask({ indexName: 'compat_dict', taskID: settings.taskID });
  await admin.saveObjects({
    indexName: 'compat_dict',
    objects: [{ objectID: '1', name: 'Oak chair' }],
    waitForTasks: true,
  });
  const stopwords = await admin.batchDictionaryEntries({
    dictionaryName: 'stopwords',
    batchDictionaryEntriesParams: {
      clearExistingDictionaryEntries: true,
      requests: [{ action: 'addEntry', body: { objectID: 'deluxe', language: 'en', word: 'deluxe' } }],
    },
  });
  await admin.waitForAppTask({ taskID: stopwords.taskID });
  const found = await admin.searchDictionaryEntries({
    dictionaryName: 'stopwords',
    searchDictionaryEntriesParams: { query: 'del' },
  });
  assert.deepEqual(found, {
    hits: [{ objectID: 'deluxe', language: 'en', word: 'deluxe', state: 'enabled' }],
    nbHits: 1,
    page: 0,
    nbPages: 1,
  });
  const search = await admin.searchSingleIndex({
    indexName: 'compat_dict',
    searchParams: { query: 'deluxe oak chair', removeStopWords: true },
  });
  assert.deepEqual(
    search.hits.map((hit) => hit.objectID),
    ['1'],
  );

  const set = await admin.setDictionarySettings({ disableStandardEntries: { stopwords: { en: true } } });
  await admin.waitForAppTask({ taskID: set.taskID });
  assert.deepEqual(await admin.getDictionarySettings(), { disableStandardEntries: { stopwords: { en: true } } });
  await admin.setDictionarySettings({ disableStandardEntries: { stopwords: null } });
  assert.deepEqual(await admin.getDictionarySettings(), { disableStandardEntries: { stopwords: {} } });

  const languages = await admin.getDictionaryLanguages();
  assert.deepEqual(languages.en, {
    plurals: { nbCustomEntries: 0 },
    stopwords: { nbCustomEntries: 1 },
    compounds: null,
  });
  await admin.batchDictionaryEntries({
    dictionaryName: 'stopwords',
    batchDictionaryEntriesParams: { clearExistingDictionaryEntries: true, requests: [] },
  });
  await assert.rejects(
    admin.batchDictionaryEntries({
      dictionaryName: 'plurals',
      batchDictionaryEntriesParams: {
        requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x' } }],
      },
    }),
    (error: Error & { status?: number }) => error.status === 400 && /words is required/.test(error.message),
  );
});
