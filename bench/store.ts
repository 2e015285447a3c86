/**
 * Requests per scripted search session: our store vs `algoliasearch-helper` + `algoliasearch/lite`.
 *
 * Both talk to the real local service, started in-process, through a counting loopback proxy (one per
 * side), so the figures are HTTP requests that reached the network, not library-internal counters.
 * The helper's client gets a custom requester that renames its credential headers (and URL parameters)
 * `x-algolia-application-id` / `x-algolia-api-key` to ours, and the in-memory response and request
 * caches its browser build uses by default (the Node build has none), so it runs at its best.
 *
 * Session: type "laptop" letter by letter, refine two OR facets (brand, color), go to page 2 and 3,
 * go back to page 2 (a state already seen).
 */
import { createMemoryCache } from '@algolia/client-common';
import algoliasearchHelper from 'algoliasearch-helper';
import { liteClient } from 'algoliasearch/lite';
import { createClient } from '../src/client/index.js';
import { createSearchStore } from '../src/store/index.js';
import type { SearchStore } from '../src/store/types.js';
import { catalogue, indexProducts, startProxy, startService } from '../test/client/fixture.js';

const INDEX = 'bench_products';

type Step = { name: string; ours: (store: SearchStore) => void; helper: (helper: algoliasearchHelper.AlgoliaSearchHelper) => void };

const SESSION: Step[] = [
  { name: 'initial search', ours: () => undefined, helper: (h) => h.search() },
  ...[...'laptop'].map((_, i, letters) => {
    const query = letters.slice(0, i + 1).join('');
    return { name: `type "${query}"`, ours: (s: SearchStore) => s.setQuery(query), helper: (h: algoliasearchHelper.AlgoliaSearchHelper) => h.setQuery(query).search() };
  }),
  { name: 'refine brand = Acme (OR)', ours: (s) => s.toggleRefinement('brand', 'Acme', 'or'), helper: (h) => h.addDisjunctiveFacetRefinement('brand', 'Acme').search() },
  { name: 'refine color = red (OR)', ours: (s) => s.toggleRefinement('color', 'red', 'or'), helper: (h) => h.addDisjunctiveFacetRefinement('color', 'red').search() },
  { name: 'page 2', ours: (s) => s.setPage(1), helper: (h) => h.setPage(1).search() },
  { name: 'page 3', ours: (s) => s.setPage(2), helper: (h) => h.setPage(2).search() },
  { name: 'back to page 2 (seen)', ours: (s) => s.setPage(1), helper: (h) => h.setPage(1).search() },
];

function settled(store: SearchStore): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      const unsubscribe = store.subscribe((s) => {
        if (s.status === 'idle' || s.status === 'error') {
          queueMicrotask(() => unsubscribe());
          resolve();
        }
      });
    }, 0);
  });
}

function helperAnswered(helper: algoliasearchHelper.AlgoliaSearchHelper): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      helper.removeListener('result', done);
      helper.removeListener('error', failed);
      resolve();
    };
    const failed = (event: { error: unknown }) => {
      helper.removeListener('result', done);
      helper.removeListener('error', failed);
      reject(event.error);
    };
    helper.on('result', done);
    helper.on('error', failed);
  });
}

export async function run(): Promise<void> {
  const svc = await startService();
  const oursProxy = await startProxy(svc.url);
  const helperProxy = await startProxy(svc.url);
  try {
    await indexProducts(svc.admin, INDEX, catalogue(500));

    const store = createSearchStore({ client: createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [oursProxy.url] }), indexName: INDEX });
    store.registerNeeds('bench', { disjunctiveFacets: ['brand', 'color'], hitsPerPage: 10 });

    const helperHost = new URL(helperProxy.url);
    const lite = liteClient(svc.appId, svc.searchKey, {
      hosts: [{ url: helperHost.host, protocol: 'http', accept: 'readWrite' }],
      responsesCache: createMemoryCache(),
      requestsCache: createMemoryCache({ serializable: false }),
      requester: {
        async send(request) {
          const url = new URL(request.url);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(request.headers)) headers[renameCredential(name)] = value;
          for (const name of ['x-algolia-application-id', 'x-algolia-api-key']) {
            const value = url.searchParams.get(name);
            if (value !== null) {
              headers[renameCredential(name)] = value;
              url.searchParams.delete(name);
            }
          }
          const response = await fetch(url, { method: request.method, headers, body: typeof request.data === 'string' || request.data === undefined ? request.data : Buffer.from(request.data) });
          return { status: response.status, content: await response.text(), isTimedOut: false };
        },
      },
    });
    const helper = algoliasearchHelper(lite as unknown as Parameters<typeof algoliasearchHelper>[0], INDEX, { disjunctiveFacets: ['brand', 'color'], hitsPerPage: 10 });

    const rows: Array<{ step: string; ours: number; helper: number }> = [];
    for (const step of SESSION) {
      const before = { ours: oursProxy.requests.length, helper: helperProxy.requests.length };
      step.ours(store);
      await settled(store);
      const answered = helperAnswered(helper);
      step.helper(helper);
      await answered;
      rows.push({ step: step.name, ours: oursProxy.requests.length - before.ours, helper: helperProxy.requests.length - before.helper });
    }
    // Same results on both sides for the final state (the comparison is of the same work).
    const ours = store.getSnapshot().results!;
    const theirs = helper.lastResults!;
    if (ours.nbHits !== theirs.nbHits || ours.page !== theirs.page) throw new Error(`sessions diverged: ${ours.nbHits}/${ours.page} vs ${theirs.nbHits}/${theirs.page}`);
    const brandsOurs = JSON.stringify(ours.facets.brand);
    const brandsTheirs = JSON.stringify(Object.fromEntries((theirs.getFacetValues('brand', {}) as Array<{ name: string; count: number }>).map((v) => [v.name, v.count]).sort()));
    const sortedOurs = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(brandsOurs) as Record<string, number>).sort()));
    if (sortedOurs !== brandsTheirs) throw new Error(`disjunctive brand counts differ: ${sortedOurs} vs ${brandsTheirs}`);

    const total = (key: 'ours' | 'helper') => rows.reduce((sum, row) => sum + row[key], 0);
    console.log('| step | svc-search store | algoliasearch-helper + lite |');
    console.log('|---|---:|---:|');
    for (const row of rows) console.log(`| ${row.step} | ${row.ours} | ${row.helper} |`);
    console.log(`| **requests per session** | **${total('ours')}** | **${total('helper')}** |`);
    console.log(`\nratio store / helper: ${(total('ours') / total('helper')).toFixed(2)}`);
    console.log(`store requestLog: ${store.requestLog.length} entries, ${store.requestLog.filter((e) => e.cached).length} answered from the cache`);
    const seen = rows.at(-1)!;
    if (seen.ours !== 0) throw new Error(`the store sent ${seen.ours} request(s) for a state already seen`);
    if (total('ours') > total('helper')) throw new Error(`the store sent more requests (${total('ours')}) than the helper (${total('helper')})`);
    store.dispose();
  } finally {
    await oursProxy.close();
    await helperProxy.close();
    await svc.close();
  }
}

function renameCredential(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'x-algolia-application-id') return 'X-Service-Application-Id';
  if (lower === 'x-algolia-api-key') return 'X-Service-API-Key';
  return name;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
