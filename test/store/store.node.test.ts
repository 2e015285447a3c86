import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SearchStatus, SearchStore } from '../../src/store/types.js';
import {
  catalogue,
  indexProducts,
  startProxy,
  startService,
  waitTask,
  type Product,
  type Proxy as RecordingProxy,
  type RunningService,
} from '../client/fixture.js';
import { settle, startHoldingProxy } from './fixture.js';

const INDEX = 'store_products';
const records = catalogue();
let svc: RunningService;

before(async () => {
  svc = await startService();
  await indexProducts(svc.admin, INDEX, records);
});
after(async () => {
  await svc?.close();
});

type ProductStore = SearchStore<Product>;

function makeStore(url: string, extra: { stalledDelayMs?: number; initialState?: string } = {}): ProductStore {
  const client = createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [url] });
  return createSearchStore<Product>({ client, indexName: INDEX, ...extra });
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** The queries of one proxied multi-query request, params decoded. */
function queriesOf(proxy: RecordingProxy, n: number): Array<Record<string, string>> {
  const body = proxy.requests[n]!.json as { requests: Array<{ indexName: string; params: string }> };
  return body.requests.map((r) => Object.fromEntries(new URLSearchParams(r.params)));
}

const countBy = (list: Product[], key: keyof Product) => {
  const counts: Record<string, number> = {};
  for (const r of list) counts[String(r[key])] = (counts[String(r[key])] ?? 0) + 1;
  return counts;
};

describe('request counts', () => {
  test('typing a 6-letter query letter by letter: one request per letter; all at once: one', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.registerNeeds('brands', { disjunctiveFacets: ['brand'] });
      await settle(store);
      assert.equal(proxy.requests.length, 1, 'the initial search');
      for (let i = 1; i <= 6; i++) {
        store.setQuery('laptop'.slice(0, i));
        await settle(store);
      }
      assert.equal(proxy.requests.length, 7);
      assert.equal(store.getSnapshot().results?.query, 'laptop');
      assert.equal(store.getSnapshot().results?.nbHits, records.filter((r) => r.kind === 'laptop').length);

      // Backspace to a state already seen: answered from the cache, no request.
      store.setQuery('lapto');
      const snapshot = await settle(store);
      assert.equal(proxy.requests.length, 7);
      assert.equal(snapshot.results?.query, 'lapto');
      assert.equal(store.requestLog.at(-1)?.cached, true);

      const fast = makeStore(proxy.url);
      for (const letter of 'phone') fast.setQuery(fast.getSnapshot().state.query + letter);
      await settle(fast);
      assert.equal(proxy.requests.length, 8, 'five changes in one tick make one request');
      assert.equal(fast.requestLog.length, 1);
      fast.dispose();
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('refining two OR facets in one tick: one HTTP request with the main and two facet queries', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.registerNeeds('lists', {
        disjunctiveFacets: ['brand', 'color'],
        facets: ['kind'],
        params: { clickAnalytics: true },
      });
      await settle(store);
      const before = proxy.requests.length;
      store.toggleRefinement('brand', 'Acme', 'or');
      store.toggleRefinement('color', 'red', 'or');
      await settle(store);
      assert.equal(proxy.requests.length, before + 1);
      const [main, brandQuery, colorQuery] = queriesOf(proxy, before);
      assert.deepEqual(JSON.parse(main!.facetFilters!), [['brand:Acme'], ['color:red']]);
      assert.equal(main!.clickAnalytics, 'true');
      for (const [query, facet, kept] of [
        [brandQuery!, 'brand', [['color:red']]],
        [colorQuery!, 'color', [['brand:Acme']]],
      ] as const) {
        assert.deepEqual(JSON.parse(query.facets!), [facet]);
        assert.deepEqual(JSON.parse(query.facetFilters!), kept, `${facet} query leaves out its own refinements`);
        assert.equal(query.hitsPerPage, '0');
        assert.equal(query.analytics, 'false');
        assert.equal(query.clickAnalytics, 'false');
      }
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('paging: one request per page; a query or refinement change goes back to page 0', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.setHitsPerPage(10);
      await settle(store);
      const before = proxy.requests.length;
      store.setPage(1);
      await settle(store);
      store.setPage(2);
      const snapshot = await settle(store);
      assert.equal(proxy.requests.length, before + 2);
      assert.equal(snapshot.results?.page, 2);
      assert.deepEqual(
        snapshot.results?.hits.map((h) => h.objectID),
        [...records]
          .sort((a, b) => a.price - b.price || a.objectID.localeCompare(b.objectID))
          .slice(20, 30)
          .map((r) => r.objectID),
      );
      store.toggleRefinement('kind', 'phone');
      assert.equal(store.getSnapshot().state.page, 0);
      store.setPage(3);
      store.setQuery('acme');
      assert.equal(store.getSnapshot().state.page, 0);
      await settle(store);
      assert.equal(proxy.requests.length, before + 3);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });
});

describe('disjunctive faceting', () => {
  test('counts match counts computed from the records', async () => {
    const store = makeStore(svc.url);
    try {
      store.registerNeeds('lists', { disjunctiveFacets: ['brand', 'color'], facets: ['kind'], maxValuesPerFacet: 100 });
      store.toggleRefinement('brand', 'Acme', 'or');
      store.toggleRefinement('brand', 'Bolt', 'or');
      store.toggleRefinement('color', 'red', 'or');
      store.toggleRefinement('kind', 'laptop');
      const { results } = await settle(store);
      assert.ok(results);
      const brands = new Set(['Acme', 'Bolt']);
      const matches = (r: Product, skip?: string) =>
        (skip === 'brand' || brands.has(r.brand)) && (skip === 'color' || r.color === 'red') && r.kind === 'laptop';
      assert.equal(results.nbHits, records.filter((r) => matches(r)).length);
      assert.deepEqual(
        results.facets.brand,
        countBy(
          records.filter((r) => matches(r, 'brand')),
          'brand',
        ),
      );
      assert.deepEqual(
        results.facets.color,
        countBy(
          records.filter((r) => matches(r, 'color')),
          'color',
        ),
      );
      assert.deepEqual(
        results.facets.kind,
        countBy(
          records.filter((r) => matches(r)),
          'kind',
        ),
      );
      assert.deepEqual(results.disjunctiveFacets, ['brand', 'color']);

      // With a query too, and a refined value that has no match left (listed with 0).
      store.setQuery('phone');
      store.toggleRefinement('kind', 'laptop');
      store.toggleRefinement('kind', 'phone');
      store.toggleRefinement('color', 'purple', 'or');
      const next = (await settle(store)).results!;
      const colors = new Set(['red', 'purple']);
      const phone = (r: Product, skip?: string) =>
        r.kind === 'phone' && (skip === 'brand' || brands.has(r.brand)) && (skip === 'color' || colors.has(r.color));
      assert.equal(next.nbHits, records.filter((r) => phone(r)).length);
      assert.deepEqual(
        next.facets.brand,
        countBy(
          records.filter((r) => phone(r, 'brand')),
          'brand',
        ),
      );
      assert.deepEqual(next.facets.color, {
        ...countBy(
          records.filter((r) => phone(r, 'color')),
          'color',
        ),
        purple: 0,
      });
    } finally {
      store.dispose();
    }
  });

  test('searchForFacetValues applies the other refinements, not the facet’s own', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.toggleRefinement('brand', 'Acme');
      store.toggleRefinement('category', 'media', 'or');
      await settle(store);
      const facetHits = await store.searchForFacetValues('category', '');
      const acme = records.filter((r) => r.brand === 'Acme');
      assert.deepEqual(Object.fromEntries(facetHits.map((h) => [h.value, h.count])), countBy(acme, 'category'));
      const sent = proxy.requests.at(-1)!;
      assert.equal(sent.url.split('?')[0], `/1/indexes/${INDEX}/facets/category/query`);
      assert.deepEqual(JSON.parse(new URLSearchParams((sent.json as { params: string }).params).get('facetFilters')!), [
        'brand:Acme',
      ]);
      const before = proxy.requests.length;
      await store.searchForFacetValues('category', '');
      assert.equal(proxy.requests.length, before, 'the same facet search again is cached');
      assert.deepEqual(
        store.requestLog.filter((e) => e.kind === 'searchForFacetValues').map((e) => e.cached),
        [false, true],
      );
    } finally {
      store.dispose();
      await proxy.close();
    }
  });
});

describe('answers and status', () => {
  test('an answer that arrives late never overwrites a newer one', async () => {
    // The request for "a" is held 300 ms at the proxy; "ab" passes at once.
    const proxy = await startProxy(svc.url, (request) => {
      const body = request.json as { requests?: Array<{ params: string }> } | undefined;
      return new URLSearchParams(body?.requests?.[0]?.params ?? '').get('query') === 'a' ? 300 : 0;
    });
    const store = makeStore(proxy.url);
    try {
      await settle(store);
      const shown: string[] = [];
      store.subscribe((s) => s.results && shown.push(s.results.query));
      store.setQuery('a');
      await tick();
      store.setQuery('ab');
      const snapshot = await settle(store);
      assert.equal(snapshot.results?.query, 'ab');
      await new Promise((r) => setTimeout(r, 450)); // the late "a" answer has come back by now
      assert.equal(proxy.requests.length, 3);
      assert.equal(store.getSnapshot().results?.query, 'ab');
      assert.ok(!shown.slice(shown.indexOf('ab')).includes('a'), `shown in order: ${shown.join(' → ')}`);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('loading becomes stalled after the delay, then idle', async () => {
    const proxy = await startProxy(svc.url, () => 300);
    const store = makeStore(proxy.url, { stalledDelayMs: 100 });
    try {
      const statuses: SearchStatus[] = [store.getSnapshot().status];
      // The first listener starts the first search: it sees `loading` at once.
      store.subscribe((s) => statuses.at(-1) !== s.status && statuses.push(s.status));
      await settle(store);
      assert.deepEqual(statuses, ['idle', 'loading', 'stalled', 'idle']);
      assert.equal(store.getSnapshot().initialising, false);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('typing on does not postpone stalled; unchanged needs do not notify', async () => {
    const proxy = await startProxy(svc.url, () => 300);
    const store = makeStore(proxy.url, { stalledDelayMs: 100 });
    try {
      const needs = { facets: ['brand'] };
      store.registerNeeds('list', needs);
      await settle(store);
      let stalledAt = 0;
      const started = Date.now();
      store.subscribe((s) => {
        if (s.status === 'stalled' && !stalledAt) stalledAt = Date.now() - started;
      });
      let lastKeystroke = 0;
      for (const query of ['c', 'ca', 'cam', 'came', 'camer']) {
        store.setQuery(query);
        lastKeystroke = Date.now() - started;
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 60));
      // Postponed by each keystroke, stalled could not come before the last keystroke + the delay.
      assert.ok(
        stalledAt > 0 && stalledAt < lastKeystroke + 100,
        `stalled after ${stalledAt} ms, last keystroke at ${lastKeystroke} ms`,
      );
      await settle(store);
      let calls = 0;
      store.subscribe(() => calls++);
      store.registerNeeds('list', { ...needs });
      await tick();
      assert.equal(calls, 1, 'only the immediate call of subscribe');
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('a failed search sets status error and keeps the last results', async () => {
    const store = makeStore(svc.url);
    try {
      store.setQuery('camera');
      const good = await settle(store);
      store.setIndex('store_missing_index');
      const failed = await settle(store);
      assert.equal(failed.status, 'error');
      assert.ok(failed.error instanceof ApiError);
      assert.equal((failed.error as ApiError).status, 404);
      assert.equal(failed.results, good.results, 'the last results stay on screen');
      store.setIndex(INDEX);
      const back = await settle(store);
      assert.equal(back.status, 'idle');
      assert.equal(back.error, null);
      assert.equal(back.results?.query, 'camera');
    } finally {
      store.dispose();
    }
  });

  test('needs of several controllers merge into one request', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.registerNeeds('hits', { hitsPerPage: 8, attributesToHighlight: ['name'] });
      const remove = store.registerNeeds('brand-list', { disjunctiveFacets: ['brand'], maxValuesPerFacet: 5 });
      store.registerNeeds('kinds', {
        facets: ['kind'],
        hitsPerPage: 4,
        attributesToHighlight: ['brand'],
        params: { analyticsTags: ['web'] },
      });
      const { results } = await settle(store);
      assert.equal(proxy.requests.length, 1);
      const [main] = queriesOf(proxy, 0);
      assert.equal(main!.hitsPerPage, '8');
      assert.deepEqual(JSON.parse(main!.facets!), ['brand', 'kind']);
      assert.deepEqual(JSON.parse(main!.attributesToHighlight!), ['brand', 'name']);
      assert.equal(main!.maxValuesPerFacet, '5');
      assert.deepEqual(JSON.parse(main!.analyticsTags!), ['web']);
      assert.equal(results?.hits.length, 8);
      remove();
      store.setQuery('a');
      await settle(store);
      assert.deepEqual(JSON.parse(queriesOf(proxy, 1)[0]!.facets!), ['kind']);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('refresh searches again; unsubscribe stops notifications; dispose ignores pending answers', async () => {
    const proxy = await startProxy(svc.url, () => 100);
    const store = makeStore(proxy.url);
    try {
      await settle(store);
      store.refresh();
      await settle(store);
      assert.equal(proxy.requests.length, 2);
      let calls = 0;
      const unsubscribe = store.subscribe(() => calls++);
      assert.equal(calls, 1, 'called at once with the current snapshot');
      unsubscribe();
      store.setQuery('phone');
      await settle(store);
      assert.equal(calls, 1);

      const listener = { calls: 0 };
      store.subscribe(() => listener.calls++);
      store.setQuery('speaker');
      await tick();
      store.dispose();
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(listener.calls, 2, 'subscribe + loading, then nothing after dispose');
      assert.throws(() => store.setQuery('x'), /dispose/);
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('bad input is refused with a clear error', () => {
    const store = makeStore(svc.url);
    try {
      assert.throws(() => store.setPage(-1), RangeError);
      assert.throws(() => store.setPage(1.5), RangeError);
      assert.throws(() => store.addNumericRefinement('price', '~' as '=', 1), /operator/);
      assert.throws(() => store.addNumericRefinement('price', '<', Number.NaN), /finite/);
      assert.throws(() => store.setQuery(3 as unknown as string), TypeError);
      assert.throws(() => createSearchStore({ client: store.client, indexName: '' }), /indexName/);
    } finally {
      store.dispose();
    }
  });
});

describe('subscription', () => {
  test('the first search runs at the first subscribe, not at creation', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      store.setQuery('phone');
      await new Promise((r) => setTimeout(r, 30));
      assert.deepEqual([proxy.requests.length, store.requestLog.length, store.getSnapshot().status], [0, 0, 'idle']);
      const statuses: string[] = [];
      const off = store.subscribe((s) => statuses.push(s.status));
      assert.deepEqual(statuses, ['loading'], 'told at once that a search is coming');
      const snapshot = await settle(store);
      assert.equal(proxy.requests.length, 1);
      assert.equal(snapshot.results?.query, 'phone');
      off();
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('after the last unsubscribe an action sends nothing; resubscribing searches the new state once', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      const a = store.subscribe(() => {});
      const b = store.subscribe(() => {});
      await settle(store);
      a();
      store.setQuery('camera');
      await settle(store);
      assert.equal(proxy.requests.length, 2, 'one listener left: it still searches');
      b();
      const logged = store.requestLog.length;
      store.setQuery('speaker');
      store.toggleRefinement('brand', 'Acme', 'or');
      store.refresh();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(store.requestLog.length, logged, 'nothing logged');
      assert.equal(proxy.requests.length, 2, 'nothing reached the service');
      assert.equal(store.getSnapshot().state.query, 'speaker', 'the state changed');
      assert.equal(store.getSnapshot().results?.query, 'camera');

      const off = store.subscribe(() => {});
      const snapshot = await settle(store);
      assert.equal(proxy.requests.length, 3, 'one search of the new state');
      assert.equal(snapshot.results?.query, 'speaker');
      assert.deepEqual(
        snapshot.results?.hits.map((h) => h.objectID).sort(),
        records
          .filter((r) => r.kind === 'speaker' && r.brand === 'Acme')
          .map((r) => r.objectID)
          .sort(),
      );
      off();
      store.subscribe(() => {});
      await new Promise((r) => setTimeout(r, 30));
      assert.equal(proxy.requests.length, 3, 'nothing changed since the results on screen: no search');
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('the last unsubscribe aborts the search in flight; the next subscriber searches again', async () => {
    const proxy = await startHoldingProxy(svc.url, () => 300);
    const store = makeStore(proxy.url);
    try {
      const off = store.subscribe(() => {});
      await settle(store);
      store.setQuery('camera');
      for (let i = 0; i < 100 && proxy.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(store.getSnapshot().status, 'loading');
      off();
      assert.equal(store.getSnapshot().status, 'idle', 'nothing pending any more');
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(proxy.requests[1]!.aborted, true, 'the HTTP request was aborted');
      assert.equal(store.getSnapshot().results?.query, '', 'its answer never shown');

      const again = await settle(store);
      assert.equal(proxy.requests.length, 3, 'searched again');
      assert.equal(proxy.requests[2]!.aborted, false);
      assert.equal(again.results?.query, 'camera');
    } finally {
      store.dispose();
      await proxy.close();
    }
  });

  test('an added index without listeners does not search; the shared request is aborted only when no store waits on it', async () => {
    const proxy = await startHoldingProxy(svc.url, () => 200);
    const store = makeStore(proxy.url);
    const child = store.addIndex(`${INDEX}`);
    try {
      const offParent = store.subscribe(() => {});
      await settle(store);
      assert.deepEqual(
        proxy.requests.map((r) => r.json.requests.length),
        [1],
        'only the parent searched',
      );
      const offChild = child.subscribe(() => {});
      store.setQuery('laptop');
      for (let i = 0; i < 100 && proxy.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(proxy.requests[1]!.json.requests.length, 2, 'parent and child in one request');
      offChild();
      assert.equal(child.getSnapshot().status, 'idle');
      const parent = await settle(store);
      assert.equal(proxy.requests[1]!.aborted, false, 'the parent still waited on it');
      assert.equal(parent.results?.query, 'laptop');
      assert.equal(child.getSnapshot().results, null, 'the child gave its part up');
      offParent();
    } finally {
      store.dispose();
      await proxy.close();
    }
  });
});

describe('Recommend', () => {
  test('requests of one tick go in one call; a repeated one is answered from the cache', async () => {
    const proxy = await startProxy(svc.url);
    const store = makeStore(proxy.url);
    try {
      await settle(store);
      const before = proxy.requests.length;
      const [a, b, c] = await Promise.all([
        store.recommend({ indexName: INDEX, model: 'related-products', objectID: 'p1', threshold: 0 }),
        store.recommend({ indexName: INDEX, model: 'trending-items', threshold: 0 }),
        store.recommend({ indexName: INDEX, model: 'related-products', objectID: 'p1', threshold: 0 }),
      ]);
      assert.equal(proxy.requests.length, before + 1);
      const sent = proxy.requests.at(-1)!;
      assert.equal(sent.url.split('?')[0], '/1/indexes/*/recommendations');
      assert.equal((sent.json as { requests: unknown[] }).requests.length, 2, 'identical requests are sent once');
      assert.deepEqual(a, c);
      assert.ok(Array.isArray(b.hits));
      await store.recommend({ indexName: INDEX, model: 'trending-items', threshold: 0 });
      assert.equal(proxy.requests.length, before + 1);
      assert.deepEqual(
        store.requestLog.filter((e) => e.kind === 'recommend').map((e) => e.cached),
        [false, true],
      );
    } finally {
      store.dispose();
      await proxy.close();
    }
  });
});

describe('other refinements', () => {
  test('a range on an attribute asked as an OR facet gets its own stats query: its bounds without its own range', async () => {
    const store = makeStore(svc.url);
    try {
      store.registerNeeds('range', { disjunctiveFacets: ['price'] });
      store.registerNeeds('list', { facets: ['kind'] });
      const all = (await settle(store)).results!;
      const prices = records.map((r) => r.price);
      assert.deepEqual(
        [all.facets_stats?.price?.min, all.facets_stats?.price?.max],
        [Math.min(...prices), Math.max(...prices)],
      );

      const sent = store.requestLog.length;
      store.addNumericRefinement('price', '>=', 300);
      store.addNumericRefinement('price', '<=', 400);
      const { results } = await settle(store);
      assert.equal(store.requestLog.length, sent + 1, 'one HTTP request');
      const queries = (store.requestLog.at(-1)!.body as { requests: Array<{ params: Record<string, unknown> }> })
        .requests;
      assert.equal(queries.length, 2, 'the main query and the stats query of price');
      assert.deepEqual(queries[0]!.params.numericFilters, ['price>=300', 'price<=400']);
      assert.equal(queries[1]!.params.numericFilters, undefined, "the stats query leaves out price's own range");
      assert.deepEqual(
        [queries[1]!.params.hitsPerPage, queries[1]!.params.analytics, queries[1]!.params.facets],
        [0, false, ['price']],
      );
      // Hits are in the range; price's stats are those without the range; the other facets follow the range.
      const inRange = records.filter((r) => r.price >= 300 && r.price <= 400);
      assert.equal(results!.nbHits, inRange.length);
      assert.deepEqual(results!.facets_stats?.price, all.facets_stats?.price);
      assert.equal(
        Object.values(results!.facets.kind ?? {}).reduce((a, b) => a + b, 0),
        inRange.length,
      );

      // A range on an attribute nobody asked as an OR facet adds no query (its stats follow its range).
      store.clearRefinements();
      store.addNumericRefinement('stock', '>=', 1);
      await settle(store);
      assert.equal((store.requestLog.at(-1)!.body as { requests: unknown[] }).requests.length, 1);
    } finally {
      store.dispose();
    }
  });

  test('numeric and tag refinements, configure params and a sort replica reach the service', async () => {
    const replica = `${INDEX}_price_desc`;
    const primary = await svc.admin.request<{ taskID: number }>('PUT', `/1/indexes/${INDEX}/settings`, {
      replicas: [replica],
    });
    await waitTask(svc.admin, INDEX, primary.taskID);
    const replicaSettings = await svc.admin.request<{ taskID: number }>('PUT', `/1/indexes/${replica}/settings`, {
      searchableAttributes: ['name', 'brand', 'kind'],
      attributesForFaceting: ['brand', 'color', 'kind', 'price'],
      customRanking: ['desc(price)'],
    });
    await waitTask(svc.admin, replica, replicaSettings.taskID);

    const store = makeStore(svc.url);
    try {
      store.registerNeeds('configure', { params: { filters: 'kind:phone' }, hitsPerPage: 100 });
      store.addNumericRefinement('price', '>=', 500);
      store.toggleTag('sale');
      const expected = records.filter((r) => r.kind === 'phone' && r.price >= 500 && r._tags.includes('sale'));
      assert.ok(expected.length > 2);
      const { results } = await settle(store);
      assert.deepEqual(results?.hits.map((h) => h.objectID).sort(), expected.map((r) => r.objectID).sort());

      store.setIndex(replica);
      const sorted = (await settle(store)).results!;
      assert.equal(sorted.index ?? replica, replica);
      assert.deepEqual(
        sorted.hits.map((h) => h.price),
        expected.map((r) => r.price).sort((a, b) => b - a),
      );
      assert.equal(store.toQueryString(), `sortBy=${replica}&numeric[price]=%3E%3D500&tags=sale`);

      store.removeNumericRefinement('price');
      store.toggleTag('sale');
      const phones = (await settle(store)).results!;
      assert.equal(phones.nbHits, records.filter((r) => r.kind === 'phone').length);
    } finally {
      store.dispose();
    }
  });
});
