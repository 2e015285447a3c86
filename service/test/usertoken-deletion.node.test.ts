/**
 * `DELETE /1/usertokens/{userToken}` (the hosted Insights API's "delete user token", the privacy request):
 * every stored event of the token goes, and what was built on them forgets them — Recommend's models,
 * the Personalization profile, the click and conversion figures of Analytics (and so of A/B tests), the
 * token on the user's recorded searches — while another user's events and the search counts stay. Also
 * through the official v5 Insights client's `deleteUserToken`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { ADMIN_KEY, APP_ID, index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await index(
    svc,
    'shop',
    [
      { objectID: 'A', name: 'Red pen', brand: 'Acme' },
      { objectID: 'B', name: 'Blue pen', brand: 'Acme' },
      { objectID: 'C', name: 'Paper pad', brand: 'Zeta' },
    ],
    { searchableAttributes: ['name'], attributesForFaceting: ['brand'] },
  );
  await svc.ok('POST', '/1/strategies/personalization', {
    eventsScoring: [{ eventName: 'Purchase', eventType: 'conversion', score: 50 }],
    facetsScoring: [{ facetName: 'brand', score: 100 }],
    personalizationImpact: 100,
  });
});
after(() => svc.stop());

const today = () => new Date().toISOString().slice(0, 10);
/** The reports span from the day the file started to today: a run crossing midnight UTC still counts its searches. */
const firstDay = today();

/** A search of `userToken` answered with a queryID, then a click on its first hit and a purchase of `bought`. */
async function searchClickAndBuy(userToken: string, query: string, bought: string[]) {
  const answer = await svc.ok(
    'POST',
    '/1/indexes/shop/query',
    { query, clickAnalytics: true, userToken },
    { key: SEARCH_KEY },
  );
  const now = Date.now();
  await svc.ok(
    'POST',
    '/1/events',
    {
      events: [
        {
          eventType: 'click',
          eventName: 'Hit Clicked',
          index: 'shop',
          userToken,
          queryID: answer.queryID,
          objectIDs: [answer.hits[0].objectID],
          positions: [1],
          timestamp: now,
        },
        { eventType: 'conversion', eventName: 'Purchase', index: 'shop', userToken, objectIDs: bought, timestamp: now },
      ],
    },
    { key: SEARCH_KEY },
  );
}

const storedOf = async (userToken: string) =>
  (await svc.ok('GET', `/1/_local/events?userToken=${userToken}`)).nbEvents as number;
const boughtWithA = async () =>
  (
    await svc.ok('POST', '/1/indexes/*/recommendations', {
      requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 }],
    })
  ).results[0].hits.map((hit: { objectID: string }) => hit.objectID);
const clicks = async () =>
  (await svc.ok('GET', `/2/clicks/clickThroughRate?index=shop&startDate=${firstDay}&endDate=${today()}`)).clickCount;
const searchCount = async () =>
  (await svc.ok('GET', `/2/searches/count?index=shop&startDate=${firstDay}&endDate=${today()}`)).count;
const userCount = async () =>
  (await svc.ok('GET', `/2/users/count?index=shop&startDate=${firstDay}&endDate=${today()}`)).count;

describe('DELETE /1/usertokens/{userToken}', () => {
  test('the events go; Recommend, Personalization and Analytics forget them; the other user stays', async () => {
    await searchClickAndBuy('alice', 'red', ['A', 'B']);
    await searchClickAndBuy('bob', 'paper', ['A', 'C']);
    // Before: alice's purchase puts B with A; her profile exists; both clicks count.
    assert.deepEqual((await boughtWithA()).sort(), ['B', 'C']);
    assert.equal((await svc.call('GET', '/1/profiles/personalization/alice')).status, 200);
    assert.equal(await clicks(), 2);
    const [searches, users] = [await searchCount(), await userCount()];
    assert.equal(await storedOf('alice'), 2);
    const { storage } = svc.service.services;
    assert.equal(await storage.analytics.count({ userKey: 'alice' }), 1, 'her search, in Analytics');
    assert.equal(await storage.searchLog.countOfUser('alice'), 1, 'her search, in the search log');

    const answer = await svc.call('DELETE', '/1/usertokens/alice');
    assert.equal(answer.status, 204);
    assert.equal(answer.body, undefined, 'no body');

    assert.equal(await storedOf('alice'), 0);
    assert.equal(await storedOf('bob'), 2);
    assert.deepEqual(await boughtWithA(), ['C'], 'the model no longer holds alice’s purchase');
    assert.equal((await svc.call('GET', '/1/profiles/personalization/alice')).status, 404);
    assert.equal((await svc.call('GET', '/1/profiles/personalization/bob')).status, 200);
    assert.equal(await clicks(), 1, 'only bob’s click counts');
    // The searches were searches: counted as before, by as many users, but no longer under her token.
    assert.equal(await searchCount(), searches);
    assert.equal(await userCount(), users);
    assert.equal(await storage.analytics.count({ userKey: 'alice' }), 0);
    assert.equal(await storage.searchLog.countOfUser('alice'), 0);
  });

  test('rights and errors: deleteObject (the search key has not: 403), credentials 401, a bad token 400', async () => {
    assert.equal((await svc.call('DELETE', '/1/usertokens/bob', undefined, { key: SEARCH_KEY })).status, 403);
    assert.equal((await svc.call('DELETE', '/1/usertokens/bob', undefined, { key: null })).status, 401);
    assert.equal((await svc.call('DELETE', '/1/usertokens/bob', undefined, { key: 'wrong' })).status, 401);
    const bad = await svc.call('DELETE', `/1/usertokens/${encodeURIComponent('a b')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.status, 400);
    const { key } = await svc.ok('POST', '/1/keys', { acl: ['deleteObject'] });
    assert.equal((await svc.call('DELETE', '/1/usertokens/nobody', undefined, { key })).status, 204);
    assert.equal(await storedOf('bob'), 2);
  });

  test('the official v5 Insights client’s deleteUserToken', async () => {
    const { host } = new URL(svc.url);
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
        const body =
          typeof request.data === 'string' || request.data === undefined ? request.data : new Uint8Array(request.data);
        const response = await fetch(request.url, { method: request.method, headers, body });
        return { content: await response.text(), isTimedOut: false, status: response.status };
      },
    };
    const insights = algoliasearch(APP_ID, ADMIN_KEY).initInsights({
      region: 'us',
      options: { hosts: [{ url: host, accept: 'readWrite', protocol: 'http' }], requester },
    });
    await insights.deleteUserToken({ userToken: 'bob' });
    assert.equal(await storedOf('bob'), 0);
    assert.deepEqual(await boughtWithA(), []);
  });
});
