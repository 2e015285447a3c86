/**
 * Several indices as InstantSearch users know them, against the real service: one index searched twice under
 * a parent with `indexId` (own refinements, own URL keys, exact round trips), a refused index that no longer
 * blanks the others (the combined request is split; the refused store is then sent alone until it succeeds),
 * and rule contexts computed from the state in the same request as the change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import {
  catalogue,
  indexProducts,
  startService,
  startStatusServer,
  type Product,
  type RunningService,
} from '../client/fixture.js';
import { queriesOf, settle, startHoldingProxy, type HoldingProxy } from './fixture.js';

const PRODUCTS = 'ids_products';
const MISSING = 'ids_missing';
const products = catalogue();

let svc: RunningService;
let proxy: HoldingProxy;
before(async () => {
  svc = await startService();
  await indexProducts(svc.admin, PRODUCTS, products);
  proxy = await startHoldingProxy(svc.url);
});
after(async () => {
  await proxy?.close();
  await svc?.close();
});

const client = (url = proxy.url) => createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [url] });

describe('indexId: one index searched twice under a parent', () => {
  test('two added indices of the same name: own refinements, one request, own results', async () => {
    const store = createSearchStore<Product>({ client: client(), indexName: PRODUCTS });
    const acme = store.addIndex<Product>(PRODUCTS, { indexId: 'acme' });
    const zed = store.addIndex<Product>(PRODUCTS, { indexId: 'zed' });
    const off = [store, acme, zed].map((s) => s.subscribe(() => {}));
    try {
      assert.deepEqual([...store.indices.keys()], ['acme', 'zed']);
      assert.equal(acme.indexId, 'acme');
      assert.equal(acme.baseIndex, PRODUCTS);
      assert.equal(store.indexId, undefined);
      acme.toggleRefinement('brand', 'Acme', 'and');
      zed.toggleRefinement('brand', 'Zed', 'and');
      const since = proxy.requests.length;
      const [root, a, z] = await Promise.all([settle(store), settle(acme), settle(zed)]);
      assert.equal(proxy.requests.length, since + 1, 'one request for the three stores');
      const queries = queriesOf(proxy.requests.at(-1)!.json);
      assert.deepEqual(
        queries.map((q) => [q.indexName, q.facetFilters]),
        [
          [PRODUCTS, undefined],
          [PRODUCTS, '["brand:Acme"]'],
          [PRODUCTS, '["brand:Zed"]'],
        ],
      );
      assert.equal(root.results?.nbHits, products.length);
      assert.equal(a.results?.nbHits, products.filter((p) => p.brand === 'Acme').length);
      assert.ok(a.results!.hits.every((hit) => hit.brand === 'Acme'));
      assert.equal(z.results?.nbHits, products.filter((p) => p.brand === 'Zed').length);
      assert.ok(z.results!.hits.every((hit) => hit.brand === 'Zed'));
      assert.throws(() => store.addIndex(PRODUCTS, { indexId: 'acme' }), /id acme is already added/);
      assert.throws(() => store.addIndex(PRODUCTS, { indexId: '' }), /indexId must be a non-empty string/);
    } finally {
      for (const stop of off) stop();
      store.dispose();
    }
  });

  test('URL state under each id, round trip through a new store (indices added later) and setState', async () => {
    const store = createSearchStore<Product>({ client: client(), indexName: PRODUCTS });
    const acme = store.addIndex(PRODUCTS, { indexId: 'acme' });
    const cheap = store.addIndex(PRODUCTS, { indexId: 'cheap' });
    store.setQuery('phone');
    acme.toggleRefinement('brand', 'Acme', 'or');
    acme.setPage(1);
    cheap.addNumericRefinement('price', '<', 100);
    cheap.setIndex(`${PRODUCTS}_price_asc`);
    const query = store.toQueryString();
    // Without `sortBy`, an id's keys would name the id as the index: the added index's name is written.
    assert.equal(
      query,
      `q=phone&acme.q=phone&acme.page=2&acme.sortBy=${PRODUCTS}&acme.refinementList[brand]=Acme` +
        `&cheap.q=phone&cheap.sortBy=${PRODUCTS}_price_asc&cheap.numeric[price]=%3C100`,
    );
    const again = createSearchStore({ client: client(), indexName: PRODUCTS, initialState: query });
    const acme2 = again.addIndex(PRODUCTS, { indexId: 'acme' });
    const cheap2 = again.addIndex(PRODUCTS, { indexId: 'cheap' });
    assert.deepEqual(acme2.getSnapshot().state, acme.getSnapshot().state);
    assert.deepEqual(cheap2.getSnapshot().state, cheap.getSnapshot().state);
    assert.equal(again.toQueryString(), query);

    // A hand-written URL without sortBy: the id's state searches the added index's own name.
    const hand = createSearchStore({
      client: client(),
      indexName: PRODUCTS,
      initialState: 'q=tv&acme.q=tv&acme.page=3',
    });
    const acme3 = hand.addIndex(PRODUCTS, { indexId: 'acme' });
    assert.deepEqual([acme3.getSnapshot().state.indexName, acme3.getSnapshot().state.page], [PRODUCTS, 2]);
    hand.setState(hand.fromQueryString('q=radio&acme.q=radio'));
    assert.equal(acme3.getSnapshot().state.indexName, PRODUCTS, 'setState (the back button) too');
    assert.equal(acme3.getSnapshot().state.query, 'radio');
    for (const s of [store, again, hand]) s.dispose();
  });
});

describe('a refused index does not blank the others', () => {
  test('a missing index: the others show their results, it shows its error; then it is sent alone until it exists', async () => {
    const store = createSearchStore<Product>({ client: client(), indexName: PRODUCTS });
    const twin = store.addIndex<Product>(PRODUCTS, { indexId: 'twin' });
    const missing = store.addIndex(MISSING);
    // The twin differs from the root (identical requests in flight would share one network call).
    twin.toggleRefinement('brand', 'Acme');
    const off = [store, twin, missing].map((s) => s.subscribe(() => {}));
    try {
      const since = proxy.requests.length;
      const [root, t, m] = await Promise.all([settle(store), settle(twin), settle(missing)]);
      assert.equal(root.status, 'idle');
      assert.equal(root.results?.nbHits, products.length);
      assert.equal(t.status, 'idle');
      assert.equal(t.results?.nbHits, products.filter((p) => p.brand === 'Acme').length);
      assert.equal(m.status, 'error');
      assert.match(String(m.error?.message), new RegExp(MISSING));
      // One combined request (refused), then each store's queries on their own.
      const sent = proxy.requests.slice(since).map((r) => queriesOf(r.json).map((q) => q.indexName));
      assert.deepEqual(sent, [[PRODUCTS, PRODUCTS, MISSING], [PRODUCTS], [PRODUCTS], [MISSING]]);
      assert.deepEqual(
        store.requestLog.slice(-4).map((e) => (e.body as any).requests.length),
        [3, 1, 1, 1],
      );

      // The next change: the refused store goes alone, the others together — no failed request for them.
      const next = proxy.requests.length;
      store.setQuery('laptop');
      const [root2, , m2] = await Promise.all([settle(store), settle(twin), settle(missing)]);
      assert.equal(root2.results?.query, 'laptop');
      assert.equal(m2.status, 'error');
      assert.deepEqual(
        proxy.requests.slice(next).map((r) => queriesOf(r.json).map((q) => q.indexName)),
        [[PRODUCTS, PRODUCTS], [MISSING]],
      );

      // Once the index exists, a retry of that index alone succeeds and it joins the others again.
      await indexProducts(svc.admin, MISSING, products.slice(0, 3));
      missing.refresh();
      const m3 = await settle(missing);
      assert.equal(m3.status, 'idle');
      assert.equal(m3.error, null);
      const last = proxy.requests.length;
      store.setQuery('');
      await Promise.all([settle(store), settle(twin), settle(missing)]);
      assert.deepEqual(
        proxy.requests.slice(last).map((r) => queriesOf(r.json).map((q) => q.indexName)),
        [[PRODUCTS, PRODUCTS, MISSING]],
      );
    } finally {
      for (const stop of off) stop();
      store.dispose();
    }
  });

  test('a server failure (every host answers 503) is not a refusal: nothing is split, every store shows it', async () => {
    const down = await startStatusServer(503);
    const store = createSearchStore({ client: client(down.url), indexName: PRODUCTS });
    const child = store.addIndex(PRODUCTS, { indexId: 'child' });
    const off = [store, child].map((s) => s.subscribe(() => {}));
    try {
      const [root, c] = await Promise.all([settle(store), settle(child)]);
      assert.equal(root.status, 'error');
      assert.equal(c.status, 'error');
      assert.equal(store.requestLog.length, 1, 'one combined request, not split');
    } finally {
      for (const stop of off) stop();
      store.dispose();
      await down.close();
    }
  });
});

describe('rule contexts as needs', () => {
  test('a function of the state goes in the same request as the change it follows, united with the others', async () => {
    const store = createSearchStore<Product>({ client: client(), indexName: PRODUCTS });
    store.registerNeeds('static', { ruleContexts: ['shop'] });
    store.registerNeeds('tracked', {
      ruleContexts: (state) => (state.facetRefinements.brand ?? []).map((brand) => `brand-${brand}`),
    });
    const off = store.subscribe(() => {});
    try {
      await settle(store);
      assert.equal(queriesOf(proxy.requests.at(-1)!.json)[0]!.ruleContexts, '["shop"]');
      const since = proxy.requests.length;
      store.toggleRefinement('brand', 'Acme');
      store.setRuleContexts(['mobile']);
      await settle(store);
      assert.equal(proxy.requests.length, since + 1, 'one request');
      assert.equal(queriesOf(proxy.requests.at(-1)!.json)[0]!.ruleContexts, '["brand-Acme","mobile","shop"]');
    } finally {
      off();
      store.dispose();
    }
  });
});
