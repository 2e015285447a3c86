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
import {
  catalogue,
  indexProducts,
  startProxy,
  startService,
  type Proxy as RecordingProxy,
} from '../test/client/fixture.js';

const INDEX = 'bench_products';

type Step = {
  name: string;
  ours: (store: SearchStore) => void;
  helper: (helper: algoliasearchHelper.AlgoliaSearchHelper) => void;
};

const SESSION: Step[] = [
  { name: 'initial search', ours: () => undefined, helper: (h) => h.search() },
  ...[...'laptop'].map((_, i, letters) => {
    const query = letters.slice(0, i + 1).join('');
    return {
      name: `type "${query}"`,
      ours: (s: SearchStore) => s.setQuery(query),
      helper: (h: algoliasearchHelper.AlgoliaSearchHelper) => h.setQuery(query).search(),
    };
  }),
  {
    name: 'refine brand = Acme (OR)',
    ours: (s) => s.toggleRefinement('brand', 'Acme', 'or'),
    helper: (h) => h.addDisjunctiveFacetRefinement('brand', 'Acme').search(),
  },
  {
    name: 'refine color = red (OR)',
    ours: (s) => s.toggleRefinement('color', 'red', 'or'),
    helper: (h) => h.addDisjunctiveFacetRefinement('color', 'red').search(),
  },
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

/** A lite client on `proxyUrl` whose requester renames the credentials to our header names. */
function helperClient(appId: string, apiKey: string, proxyUrl: string, browserCaches: boolean) {
  const host = new URL(proxyUrl);
  return liteClient(appId, apiKey, {
    hosts: [{ url: host.host, protocol: 'http', accept: 'readWrite' }],
    ...(browserCaches
      ? { responsesCache: createMemoryCache(), requestsCache: createMemoryCache({ serializable: false }) }
      : {}),
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
        const body =
          typeof request.data === 'string' || request.data === undefined ? request.data : Buffer.from(request.data);
        const response = await fetch(url, { method: request.method, headers, body });
        return { status: response.status, content: await response.text(), isTimedOut: false };
      },
    },
  });
}

type Results = { nbHits: number; page: number; brands: string };
const sorted = (counts: Record<string, number>) => JSON.stringify(Object.fromEntries(Object.entries(counts).sort()));

export async function run(): Promise<void> {
  const svc = await startService();
  const proxies: RecordingProxy[] = [];
  try {
    await indexProducts(svc.admin, INDEX, catalogue(2000));
    const counts: Record<'ours' | 'helperCached' | 'helperNode', number[]> = {
      ours: [],
      helperCached: [],
      helperNode: [],
    };
    const finals: Results[] = [];

    // Our store.
    const oursProxy = await startProxy(svc.url);
    proxies.push(oursProxy);
    const store = createSearchStore({
      client: createClient({ appId: svc.appId, apiKey: svc.searchKey, hosts: [oursProxy.url] }),
      indexName: INDEX,
    });
    store.registerNeeds('bench', { disjunctiveFacets: ['brand', 'color'], hitsPerPage: 10 });
    // Listened to for the whole session, as the elements on a page do (a store works while something listens).
    const listening = store.subscribe(() => {});
    for (const step of SESSION) {
      const before = oursProxy.requests.length;
      step.ours(store);
      await settled(store);
      counts.ours.push(oursProxy.requests.length - before);
    }
    const ours = store.getSnapshot().results!;
    finals.push({ nbHits: ours.nbHits, page: ours.page, brands: sorted(ours.facets.brand ?? {}) });
    const cachedEntries = store.requestLog.filter((e) => e.cached).length;
    const logEntries = store.requestLog.length;
    listening();
    store.dispose();

    // The helper, with the browser build's in-memory caches and with the Node build's defaults (none).
    for (const [key, browserCaches] of [
      ['helperCached', true],
      ['helperNode', false],
    ] as const) {
      const proxy = await startProxy(svc.url);
      proxies.push(proxy);
      const client = helperClient(svc.appId, svc.searchKey, proxy.url, browserCaches);
      const helper = algoliasearchHelper(client as unknown as Parameters<typeof algoliasearchHelper>[0], INDEX, {
        disjunctiveFacets: ['brand', 'color'],
        hitsPerPage: 10,
      });
      for (const step of SESSION) {
        const before = proxy.requests.length;
        const answered = helperAnswered(helper);
        step.helper(helper);
        await answered;
        counts[key].push(proxy.requests.length - before);
      }
      const last = helper.lastResults!;
      const brands = Object.fromEntries(
        (last.getFacetValues('brand', {}) as Array<{ name: string; count: number }>).map((v) => [v.name, v.count]),
      );
      finals.push({ nbHits: last.nbHits, page: last.page, brands: sorted(brands) });
    }
    // The comparison is of the same work: same final hits, page and disjunctive counts on every side.
    for (const other of finals.slice(1)) {
      if (JSON.stringify(other) !== JSON.stringify(finals[0]))
        throw new Error(`sessions diverged: ${JSON.stringify(finals)}`);
    }

    const total = (list: number[]) => list.reduce((sum, n) => sum + n, 0);
    console.log('| step | svc-search store | helper + lite (browser caches) | helper + lite (Node defaults) |');
    console.log('|---|---:|---:|---:|');
    for (const [i, step] of SESSION.entries()) {
      console.log(`| ${step.name} | ${counts.ours[i]} | ${counts.helperCached[i]} | ${counts.helperNode[i]} |`);
    }
    console.log(
      `| **requests per session** | **${total(counts.ours)}** | **${total(counts.helperCached)}** | **${total(counts.helperNode)}** |`,
    );
    console.log(
      `\nratio store / helper: ${(total(counts.ours) / total(counts.helperCached)).toFixed(2)} (browser caches), ${(total(counts.ours) / total(counts.helperNode)).toFixed(2)} (Node defaults)`,
    );
    console.log(
      `store requestLog: ${logEntries} entries, ${cachedEntries} answered from the cache; final state: ${finals[0]!.nbHits} hits, page ${finals[0]!.page + 1} of ${ours.nbPages}`,
    );
    if (counts.ours.at(-1) !== 0)
      throw new Error(`the store sent ${counts.ours.at(-1)} request(s) for a state already seen`);
    if (total(counts.ours) > total(counts.helperCached))
      throw new Error(`the store sent more requests than the helper`);
  } finally {
    for (const proxy of proxies) await proxy.close();
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
