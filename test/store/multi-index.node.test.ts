/**
 * Several indices in one store tree (`addIndex`), against the real service: one multi-query per tick for
 * every store, results split back per store and checked against the records, the query followed, per-store
 * out-of-order protection and cache, URL state round trips, dispose.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SearchStore } from '../../src/store/types.js';
import {
  catalogue,
  indexProducts,
  startService,
  waitTask,
  type Product,
  type RunningService,
} from '../client/fixture.js';
import { type HeldRequest, type HoldingProxy, queriesOf, settle, sleep, startHoldingProxy } from './fixture.js';

const PRODUCTS = 'multi_products';
const ARTICLES = 'multi_articles';
const products = catalogue();
const TOPICS = ['laptop', 'phone', 'speaker', 'camera'];
const AUTHORS = ['Ann', 'Bob', 'Cy'];
interface Article {
  objectID: string;
  title: string;
  author: string;
  topic: string;
  rank: number;
}
/** 48 articles: every topic × author × kind of piece, ranked by `rank`. */
const articles: Article[] = Array.from({ length: 48 }, (_, i) => ({
  objectID: `a${i}`,
  title: `${TOPICS[i % 4]} ${['guide', 'review', 'news', 'deal'][Math.floor(i / 4) % 4]} ${i}`,
  author: AUTHORS[Math.floor(i / 16) % 3]!,
  topic: TOPICS[i % 4]!,
  rank: i,
}));

let svc: RunningService;
before(async () => {
  svc = await startService();
  await indexProducts(svc.admin, PRODUCTS, products);
  const path = `/1/indexes/${ARTICLES}`;
  const settings = await svc.admin.request<{ taskID: number }>('PUT', `${path}/settings`, {
    searchableAttributes: ['title', 'author'],
    attributesForFaceting: ['author', 'topic'],
    customRanking: ['asc(rank)'],
  });
  await waitTask(svc.admin, ARTICLES, settings.taskID);
  const batch = await svc.admin.request<{ taskID: number }>('POST', `${path}/batch`, {
    requests: articles.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(svc.admin, ARTICLES, batch.taskID);
});
after(async () => {
  await svc?.close();
});

/** A root on products with articles added; both listened to for the whole test, as elements would. */
function makeTree(url: string) {
  const client = createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [url] });
  const store = createSearchStore<Product>({ client, indexName: PRODUCTS });
  store.registerNeeds('list', { disjunctiveFacets: ['brand'], hitsPerPage: 200 });
  const child = store.addIndex<Article>(ARTICLES);
  child.registerNeeds('list', { disjunctiveFacets: ['author'], facets: ['topic'], hitsPerPage: 200 });
  const off = [store.subscribe(() => {}), child.subscribe(() => {})];
  return {
    store,
    child,
    stop: () => {
      for (const f of off) f();
    },
  };
}

const ids = (hits: Array<{ objectID: string }> | undefined) => (hits ?? []).map((h) => h.objectID).sort();
const words = (text: string) => text.toLowerCase().split(' ');
const countBy = <R>(list: R[], key: keyof R) => {
  const counts: Record<string, number> = {};
  for (const r of list) counts[String(r[key])] = (counts[String(r[key])] ?? 0) + 1;
  return counts;
};
async function settleAll(...stores: SearchStore<any>[]) {
  return Promise.all(stores.map((s) => settle(s)));
}

describe('several indices', () => {
  let proxy: HoldingProxy;
  before(async () => {
    proxy = await startHoldingProxy(svc.url);
  });
  after(() => proxy.close());

  test('the first search and a parent query: ONE request with both indices, results split back and right', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      const since = proxy.requests.length;
      const [first, firstChild] = await settleAll(store, child);
      assert.equal(proxy.requests.length, since + 1, 'one request for the first searches of both');
      assert.deepEqual(
        queriesOf(proxy.requests[since]!.json).map((q) => q.indexName),
        [PRODUCTS, ARTICLES],
      );
      assert.equal(first.results?.nbHits, products.length);
      assert.equal(firstChild.results?.nbHits, articles.length);

      store.setQuery('laptop');
      assert.equal(child.getSnapshot().state.query, 'laptop', 'followed in the same tick');
      const [p, a] = await settleAll(store, child);
      assert.equal(proxy.requests.length, since + 2, 'one request for the query of both');
      assert.equal(store.requestLog.length, 2);
      assert.equal(child.requestLog, store.requestLog, 'one log for the tree');
      const queries = queriesOf(proxy.requests.at(-1)!.json);
      assert.deepEqual(
        queries.map((q) => [q.indexName, q.query]),
        [
          [PRODUCTS, 'laptop'],
          [ARTICLES, 'laptop'],
        ],
      );
      assert.deepEqual(
        ids(p.results?.hits),
        ids(products.filter((r) => words(r.name).includes('laptop') || r.kind === 'laptop')),
      );
      assert.deepEqual(ids(a.results?.hits), ids(articles.filter((r) => words(r.title).includes('laptop'))));
      assert.deepEqual(
        a.results?.facets.author,
        countBy(
          articles.filter((r) => r.topic === 'laptop'),
          'author',
        ),
      );
      assert.equal(p.results?.index, PRODUCTS);
      assert.equal(a.results?.index, ARTICLES);
    } finally {
      stop();
      store.dispose();
    }
  });

  test('a child refinement changes only its queries, and goes in one request with the parent’s change of the same tick', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      store.setQuery('phone');
      await settleAll(store, child);
      let since = proxy.requests.length;
      child.toggleRefinement('author', 'Ann', 'or');
      const [p0, a0] = await settleAll(store, child);
      assert.equal(proxy.requests.length, since + 1);
      const alone = queriesOf(proxy.requests.at(-1)!.json);
      assert.deepEqual(
        alone.map((q) => q.indexName),
        [ARTICLES, ARTICLES],
        "the child's main and author queries, nothing of the parent",
      );
      assert.deepEqual(JSON.parse(alone[0]!.facetFilters!), [['author:Ann']]);
      assert.equal(alone[1]!.facetFilters, undefined, 'the author query leaves out its own refinement');
      const phones = articles.filter((r) => r.topic === 'phone');
      assert.deepEqual(ids(a0.results?.hits), ids(phones.filter((r) => r.author === 'Ann')));
      assert.deepEqual(a0.results?.facets.author, countBy(phones, 'author'), 'disjunctive counts of the child');
      assert.equal(p0.results?.query, 'phone');

      since = proxy.requests.length;
      store.toggleRefinement('brand', 'Acme', 'or');
      child.toggleRefinement('author', 'Bob', 'or');
      const [p, a] = await settleAll(store, child);
      assert.equal(proxy.requests.length, since + 1, 'one request for both changes');
      const both = queriesOf(proxy.requests.at(-1)!.json);
      assert.deepEqual(
        both.map((q) => q.indexName),
        [PRODUCTS, PRODUCTS, ARTICLES, ARTICLES],
      );
      assert.deepEqual(JSON.parse(both[0]!.facetFilters!), [['brand:Acme']]);
      assert.deepEqual(JSON.parse(both[2]!.facetFilters!), [['author:Ann', 'author:Bob']]);
      const acmePhones = products.filter(
        (r) => r.brand === 'Acme' && (r.kind === 'phone' || words(r.name).includes('phone')),
      );
      assert.deepEqual(ids(p.results?.hits), ids(acmePhones));
      assert.deepEqual(ids(a.results?.hits), ids(phones.filter((r) => r.author !== 'Cy')));
      assert.deepEqual(store.getSnapshot().state.disjunctiveFacetRefinements, { brand: ['Acme'] });
      assert.deepEqual(child.getSnapshot().state.disjunctiveFacetRefinements, { author: ['Ann', 'Bob'] });
    } finally {
      stop();
      store.dispose();
    }
  });

  test('needs registered with inherit (Insights: clickAnalytics, userToken) apply to every added index; an index’s own win', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      await settleAll(store, child);
      const grandchild = child.addIndex<Product>(PRODUCTS); // an index added under an added one
      const offGrand = grandchild.subscribe(() => {});
      await settle(grandchild);
      // A plain need of the root stays the root's own.
      store.registerNeeds('configure', { params: { analyticsTags: ['root-only'] } });
      let since = proxy.requests.length;
      await settleAll(store, child);
      let queries = queriesOf(proxy.requests.at(-1)!.json);
      assert.equal(proxy.requests.length, since + 1);
      assert.deepEqual(queries.map((q) => [q.indexName, q.analyticsTags]).slice(0, 1), [[PRODUCTS, '["root-only"]']]);
      assert.deepEqual([...new Set(queries.map((q) => q.indexName))], [PRODUCTS], 'only the root searches again');

      // An inherited need searches the whole tree again, in one request, each index with the parameters.
      since = proxy.requests.length;
      store.registerNeeds('insights', { params: { clickAnalytics: true, userToken: 'user-1' }, inherit: true });
      const [p, a] = await settleAll(store, child);
      assert.equal(proxy.requests.length, since + 1, 'one request for the tree');
      queries = queriesOf(proxy.requests.at(-1)!.json);
      const mains = queries.filter((q) => q.hitsPerPage !== '0');
      assert.deepEqual(
        mains.map((q) => [q.indexName, q.clickAnalytics, q.userToken, q.analyticsTags]),
        [
          [PRODUCTS, 'true', 'user-1', '["root-only"]'],
          [ARTICLES, 'true', 'user-1', undefined],
          [PRODUCTS, 'true', 'user-1', undefined],
        ],
      );
      assert.match(String(a.results?.queryID), /^[0-9a-f]{32}$/, 'the added index’s answer has its own queryID');
      assert.notEqual(a.results?.queryID, p.results?.queryID);

      // The added index's own need wins over the inherited one.
      since = proxy.requests.length;
      child.registerNeeds('own', { params: { userToken: 'child-user' } });
      await settle(child);
      queries = queriesOf(proxy.requests.at(-1)!.json);
      assert.deepEqual(
        queries.filter((q) => q.hitsPerPage !== '0').map((q) => [q.indexName, q.userToken]),
        [[ARTICLES, 'child-user']],
      );
      offGrand();
    } finally {
      stop();
      store.dispose();
    }
  });

  test('the child follows the parent’s query (page reset), keeps its own until the parent’s changes again', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      child.setPage(1);
      store.setQuery('camera');
      assert.deepEqual([child.getSnapshot().state.query, child.getSnapshot().state.page], ['camera', 0]);
      child.setQuery('review');
      await settleAll(store, child);
      assert.equal(child.getSnapshot().results?.query, 'review');
      store.setPage(1);
      assert.equal(child.getSnapshot().state.query, 'review', 'a page change of the parent is not followed');
      store.setQuery('speaker');
      assert.equal(child.getSnapshot().state.query, 'speaker');
      const [, a] = await settleAll(store, child);
      assert.deepEqual(ids(a.results?.hits), ids(articles.filter((r) => r.topic === 'speaker')));
      // An index added later starts with the parent's query.
      const late = store.addIndex('multi_articles_late');
      assert.equal(late.getSnapshot().state.query, 'speaker');
      assert.deepEqual([...store.indices.keys()], [ARTICLES, 'multi_articles_late']);
      assert.equal(late.parent, store);
      assert.throws(() => store.addIndex(ARTICLES), /already added/);
    } finally {
      stop();
      store.dispose();
    }
  });

  test('out of order per index: a late answer is ignored by the store that has a newer one, shown by the other', async () => {
    // The request whose products query is "a" is held until the child has its answer (a fixed delay can
    // run out first on a loaded machine).
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const isA = (r: HeldRequest) =>
      r.json?.requests?.some(
        (q: any) => q.indexName === PRODUCTS && new URLSearchParams(q.params).get('query') === 'a',
      );
    const held = await startHoldingProxy(svc.url, (r) => (isA(r) ? released : 0));
    const { store, child, stop } = makeTree(held.url);
    try {
      await settleAll(store, child);
      const shown: string[] = [];
      child.subscribe((s) => s.results && shown.push(s.results.query));
      store.setQuery('a'); // products "a" + articles "a": held
      for (let i = 0; i < 2000 && !held.requests.some(isA); i++) await sleep(5); // sent before the child's
      assert.ok(held.requests.some(isA), 'the parent sent its "a" request');
      child.setQuery('ab'); // articles only: at once
      const a = await settle(child);
      assert.equal(a.results?.query, 'ab');
      assert.equal(store.getSnapshot().status, 'loading', 'the parent still waits for its answer');
      release();
      const p = await settle(store);
      assert.equal(p.results?.query, 'a', 'the late answer is the newest for products');
      await sleep(50);
      assert.equal(child.getSnapshot().results?.query, 'ab', 'and older than what articles shows');
      assert.ok(!shown.slice(shown.indexOf('ab')).includes('a'), shown.join(' → '));
      assert.equal(held.requests.length, 3);
    } finally {
      release();
      stop();
      store.dispose();
      await held.close();
    }
  });

  test('a seen state of one index is answered from the cache; an error is the child’s own', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      await settleAll(store, child);
      child.toggleRefinement('topic', 'camera');
      await settleAll(store, child);
      const since = proxy.requests.length;
      const logged = store.requestLog.length;
      child.toggleRefinement('topic', 'camera');
      const a = await settle(child);
      assert.equal(proxy.requests.length, since, 'no request');
      assert.deepEqual(
        store.requestLog.slice(logged).map((e) => [e.kind, e.cached, (e.body as any).requests[0].indexName]),
        [['search', true, ARTICLES]],
      );
      assert.equal(a.results?.nbHits, articles.length);

      // Only the child searches a missing index (it alone is in the request): only it is in error.
      child.setIndex('multi_missing');
      const failed = await settle(child);
      assert.equal(failed.status, 'error');
      assert.equal(failed.results, a.results, 'its last results stay');
      assert.equal(store.getSnapshot().status, 'idle');
      assert.equal(store.getSnapshot().error, null);
    } finally {
      stop();
      store.dispose();
    }
  });

  test('URL state: the children’s states with prefixed keys; round trip through a new store and setState', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      store.setQuery('laptop');
      store.toggleRefinement('brand', 'Acme', 'or');
      child.toggleRefinement('author', 'Ann', 'or');
      child.setPage(1);
      const query = store.toQueryString();
      assert.equal(
        query,
        `q=laptop&refinementList[brand]=Acme&${ARTICLES}.q=laptop&${ARTICLES}.page=2&${ARTICLES}.refinementList[author]=Ann`,
      );
      assert.equal(
        store.createURL((s) => ({ ...s, page: 3 })),
        `?q=laptop&page=4&refinementList[brand]=Acme&${ARTICLES}.q=laptop&${ARTICLES}.page=2&${ARTICLES}.refinementList[author]=Ann`,
      );
      assert.equal(child.toQueryString(), 'q=laptop&page=2&refinementList[author]=Ann', "the child's own form");
      assert.equal(
        child.createURL((s) => ({ ...s, page: 0 })),
        `?q=laptop&refinementList[brand]=Acme&${ARTICLES}.q=laptop&${ARTICLES}.refinementList[author]=Ann`,
        "a child's link is the whole page's URL",
      );
      const parsed = store.fromQueryString(query);
      assert.deepStrictEqual(parsed, {
        ...store.getSnapshot().state,
        indices: { [ARTICLES]: child.getSnapshot().state },
      });

      // A new page from that URL: the state of the index added later is waiting for it.
      const again = createSearchStore({ client: store.client, indexName: PRODUCTS, initialState: query });
      assert.equal(again.toQueryString(), query, 'kept before the index is added');
      const againChild = again.addIndex(ARTICLES, { initialState: { query: 'ignored' } });
      assert.deepStrictEqual(againChild.getSnapshot().state, child.getSnapshot().state);
      assert.equal(again.toQueryString(), query);
      again.dispose();

      // Back button: setState with the parsed state restores both after other changes.
      store.setQuery('phone');
      child.toggleRefinement('author', 'Cy', 'or');
      assert.equal(child.getSnapshot().state.query, 'phone');
      store.setState(parsed);
      assert.equal(store.toQueryString(), query);
      const [, a] = await settleAll(store, child);
      assert.equal(a.results?.nbHits, articles.filter((r) => r.topic === 'laptop' && r.author === 'Ann').length);
      assert.deepEqual([a.results?.page, a.results?.query], [1, 'laptop']);
    } finally {
      stop();
      store.dispose();
    }
  });

  test('dispose: the parent’s disposes its children; a child’s removes it (and its URL keys); no more queries for it', async () => {
    const { store, child, stop } = makeTree(proxy.url);
    try {
      await settleAll(store, child);
      const other = store.addIndex('multi_other');
      child.dispose();
      assert.deepEqual([...store.indices.keys()], ['multi_other']);
      assert.equal(store.toQueryString(), 'multi_other.q=');
      assert.throws(() => child.setQuery('x'), /dispose/);
      assert.equal(store.removeIndex('multi_other'), true);
      assert.equal(store.removeIndex('multi_other'), false);
      assert.throws(() => other.setQuery('x'), /dispose/);
      const since = proxy.requests.length;
      store.setQuery('camera');
      await settle(store);
      assert.deepEqual(
        queriesOf(proxy.requests.at(-1)!.json).map((q) => q.indexName),
        [PRODUCTS],
      );
      assert.equal(proxy.requests.length, since + 1);
      const last = store.addIndex(ARTICLES);
      store.dispose();
      assert.throws(() => last.setQuery('x'), /dispose/);
      assert.equal(store.indices.size, 0);
    } finally {
      stop();
      store.dispose();
    }
  });
});
