/**
 * A store started from another store's results (`initialResults`, what server-side rendering hands the browser):
 * the results are on screen from the start, the first search is not sent when its requests are those of the
 * results (the user token aside), and it is sent when they differ (other needs, another state, an error).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { createSearchStore, requestsDigest } from '../../src/store/index.js';
import type { InitialResults, StoreSnapshot } from '../../src/store/types.js';
import { catalogue, indexProducts, startProxy, startService, type RunningService } from '../client/fixture.js';
import { settle } from './fixture.js';

const INDEX = 'initial_results_products';
let svc: RunningService;

before(async () => {
  svc = await startService();
  await indexProducts(svc.admin, INDEX, catalogue());
});
after(async () => {
  await svc?.close();
});

const NEEDS = { disjunctiveFacets: ['brand'], hitsPerPage: 5 };
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

function makeStore(url: string, initialResults?: InitialResults) {
  const client = createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [url] });
  return createSearchStore({
    client,
    indexName: INDEX,
    initialState: 'q=laptop&refinementList%5Bbrand%5D=Acme',
    initialResults,
  });
}

/** What a "server" store showed for the state, searched with a user token of its own. */
async function serverResults(userToken?: string): Promise<InitialResults> {
  const store = makeStore(svc.url);
  store.registerNeeds('list', NEEDS);
  if (userToken) store.registerNeeds('insights', { params: { clickAnalytics: true, userToken } });
  await settle(store);
  const initial = store.getInitialResults();
  store.dispose();
  assert.ok(initial?.results, 'the server store has results');
  return JSON.parse(JSON.stringify(initial)) as InitialResults;
}

describe('initialResults', () => {
  test('the results are on screen at once and the first search is not sent (another user token)', async () => {
    const initial = await serverResults('server-token');
    assert.ok(!initial.requests.includes('server-token'), 'the digest leaves the user token out');
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url, initial);
    try {
      const seen: StoreSnapshot[] = [];
      store.registerNeeds('list', NEEDS);
      store.registerNeeds('insights', { params: { clickAnalytics: true, userToken: 'browser-token' } });
      const unsubscribe = store.subscribe((snapshot) => seen.push(snapshot));
      await tick();
      assert.equal(proxy.requests.length, 0, 'no search for the state the results are for');
      assert.ok(
        seen.every((snapshot) => snapshot.status === 'idle' && snapshot.results),
        'never loading, never empty',
      );
      assert.deepEqual(seen[0]!.results!.hits, initial.results!.hits);
      assert.ok(seen[0]!.results!.queryID, 'the queryID of the other store’s search');
      assert.equal(store.requestLog.length, 0);

      // A change is searched as usual.
      store.setPage(1);
      await settle(store);
      assert.equal(proxy.requests.length, 1);
      assert.notDeepEqual(store.getSnapshot().results!.hits, initial.results!.hits);
      unsubscribe();
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('other needs than those of the results: the first search is sent', async () => {
    const initial = await serverResults();
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url, initial);
    try {
      store.registerNeeds('list', { ...NEEDS, facets: ['color'] });
      // Until its first search, a store with initial results shows them as idle; that search then decides.
      const unsubscribe = store.subscribe(() => undefined);
      await tick();
      const snapshot = await settle(store);
      unsubscribe();
      assert.equal(proxy.requests.length, 1);
      assert.ok(snapshot.results!.facets.color, 'the new facet is in the results');
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('a state changed before the first search is searched; the adoptable results are gone after it', async () => {
    const initial = await serverResults();
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url, initial);
    try {
      store.registerNeeds('list', NEEDS);
      store.setQuery('laptops');
      const unsubscribe = store.subscribe(() => undefined);
      await tick();
      await settle(store);
      unsubscribe();
      assert.equal(proxy.requests.length, 1);
      store.setQuery('laptop');
      await settle(store);
      assert.equal(proxy.requests.length, 2, 'back to the first state: searched (only the first search adopts)');
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('an error is shown at once and searched again; getInitialResults carries it', async () => {
    const failing = makeStore('http://127.0.0.1:9');
    failing.registerNeeds('list', NEEDS);
    const failed = await settle(failing);
    assert.equal(failed.status, 'error');
    const initial = failing.getInitialResults()!;
    failing.dispose();
    assert.equal(initial.results, undefined);
    assert.ok(initial.error);
    assert.equal(initial.requests, requestsDigest(JSON.parse(initial.requests)));

    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url, initial);
    try {
      assert.equal(store.getSnapshot().status, 'error');
      assert.equal(store.getSnapshot().error!.message, initial.error);
      store.registerNeeds('list', NEEDS);
      const seen: StoreSnapshot[] = [];
      const unsubscribe = store.subscribe((snapshot) => seen.push(snapshot));
      assert.equal(seen[0]!.status, 'error', 'the error stays on screen until the first search is sent');
      await tick();
      const snapshot = await settle(store);
      unsubscribe();
      assert.equal(proxy.requests.length, 1, 'the browser tries again');
      assert.ok(seen.some((s) => s.status === 'loading'));
      assert.equal(snapshot.status, 'idle');
      assert.ok(snapshot.results!.hits.length);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('getInitialResults is undefined before the first answer and while a newer search is pending', async () => {
    const store = makeStore(svc.url);
    try {
      store.registerNeeds('list', NEEDS);
      assert.equal(store.getInitialResults(), undefined);
      await settle(store);
      assert.ok(store.getInitialResults());
      const unsubscribe = store.subscribe(() => undefined);
      store.setQuery('phone');
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(store.getSnapshot().status, 'loading');
      assert.equal(store.getInitialResults(), undefined);
      unsubscribe();
    } finally {
      store.dispose();
    }
  });
});
