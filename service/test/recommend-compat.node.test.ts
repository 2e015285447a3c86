/**
 * Wire compatibility of Recommend: the official `algoliasearch` v5 Recommend client (`initRecommend`,
 * devDependency) asks the local service through a requester that only renames its two credential headers
 * to ours; its requests and our answers need no other translation.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { APP_ID, index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;

interface EndRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string | Uint8Array;
}

const requester = {
  async send(request: EndRequest) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
    const body = request.data as string | Uint8Array | undefined;
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    return { content: await response.text(), isTimedOut: false, status: response.status };
  },
};

function recommend(apiKey: string) {
  const { host } = new URL(svc.url);
  return algoliasearch(APP_ID, apiKey).initRecommend({
    options: { hosts: [{ url: host, accept: 'readWrite', protocol: 'http' }], requester },
  });
}

before(async () => {
  svc = await startService();
  await index(
    svc,
    'compat_rec',
    [
      { objectID: 'a', name: 'Espresso machine', category: 'Kitchen' },
      { objectID: 'b', name: 'Coffee grinder', category: 'Kitchen' },
      { objectID: 'c', name: 'Milk jug', category: 'Kitchen' },
    ],
    { attributesForFaceting: ['category'] },
  );
  const t = Date.now() - 3600_000;
  // a is bought in 2 orders: with b in both, with c in one → b 100·2/3 = 66.67, c 100·1/3 = 33.33.
  await svc.service.services.insights.append([
    {
      eventType: 'conversion',
      eventName: 'Order',
      index: 'compat_rec',
      userToken: 'x1',
      timestamp: t,
      objectIDs: ['a', 'b', 'c'],
    },
    {
      eventType: 'conversion',
      eventName: 'Order',
      index: 'compat_rec',
      userToken: 'x2',
      timestamp: t,
      objectIDs: ['a', 'b'],
    },
  ]);
});
after(() => svc.stop());

test('getRecommendations through the official client', async () => {
  const client = recommend(SEARCH_KEY);
  const { results } = await client.getRecommendations({
    requests: [
      {
        indexName: 'compat_rec',
        model: 'bought-together',
        objectID: 'a',
        threshold: 0,
        queryParameters: { clickAnalytics: true },
      },
      { indexName: 'compat_rec', model: 'trending-facets', facetName: 'category', threshold: 0 },
    ],
  });
  assert.deepEqual(
    results[0]!.hits.map((h) => [(h as { objectID: string }).objectID, h._score]),
    [
      ['b', 66.67],
      ['c', 33.33],
    ],
  );
  assert.equal(results[0]!.nbHits, 2);
  assert.match(results[0]!.queryID!, /^[0-9a-f]{32}$/);
  assert.deepEqual(results[1]!.hits, [{ facetName: 'category', facetValue: 'Kitchen', _score: 100 }]);
});

test("the client surfaces the service's 400 and 401 messages", async () => {
  await assert.rejects(
    recommend(SEARCH_KEY).getRecommendations({
      requests: [{ indexName: 'compat_rec', model: 'bought-together', objectID: 'a', threshold: 120 }],
    }),
    (error: { status?: number; message: string }) =>
      error.status === 400 && /threshold must be a number from 0 to 100/.test(error.message),
  );
  await assert.rejects(
    recommend('wrong-key').getRecommendations({
      requests: [{ indexName: 'compat_rec', model: 'trending-items', threshold: 0 }],
    }),
    (error: { status?: number }) => error.status === 401,
  );
});
