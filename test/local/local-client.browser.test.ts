/**
 * `svc-search/local` in Chromium: the engine in a Web Worker, loaded from a `.svcidx` the test service exports
 * (`/__svcidx/…`, web-test-runner.config.mjs), answers the conformance queries exactly as the service does
 * (hits, order, facet counts, highlights, rules, synonyms, typos, distinct), facet value searches and Recommend
 * too; `<svc-search local-index>` searches with no request to `/1/`; Insights events with no host are kept in
 * IndexedDB and shown in the `svc-insights` stream, with no console error. The filters are a chunk the worker
 * imports with the first request (or the first file of rules) that needs them: a fresh worker whose first request
 * filters, or is refused for a bad filter, or is filtered by a rule, answers as the service.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { createClient } from '../../src/client/index.js';
import { createLocalClient, encodeBundle, type LocalClient } from '../../src/local/index.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import '../../src/elements/search/define.js';
import '../../src/elements/search-box/define.js';
import '../../src/elements/hits/define.js';
import { admin, APP_ID, createIndex, SEARCH_KEY, settled } from '../elements/search-fixture.js';
import {
  BAD_FILTERS,
  BAD_PARAMETERS,
  comparable,
  CONFORMANCE_FACET_QUERIES,
  CONFORMANCE_QUERIES,
  CONFORMANCE_RECORDS,
  CONFORMANCE_RULES,
  CONFORMANCE_SETTINGS,
  CONFORMANCE_SYNONYMS,
  FILTER_RULE,
  FIRST_FILTERED_QUERIES,
} from './fixture.js';

const service = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin], cache: false });

describe('svc-search/local', () => {
  let indexName: string;
  let url: string;
  let client: LocalClient;

  before(async () => {
    indexName = await createIndex('local_conf', CONFORMANCE_RECORDS, CONFORMANCE_SETTINGS);
    await admin.request('POST', `/1/indexes/${indexName}/synonyms/batch`, CONFORMANCE_SYNONYMS);
    await admin.request('POST', `/1/indexes/${indexName}/rules/batch`, CONFORMANCE_RULES);
    const order = (userToken: string, objectIDs: string[]) => ({
      eventType: 'conversion' as const,
      eventName: 'Order Completed',
      index: indexName,
      userToken,
      objectIDs,
      timestamp: Date.now() - 60_000,
    });
    await admin.sendEvents([order('local-u1', ['p1', 'p2']), order('local-u2', ['p1', 'p3'])]);
    url = `/__svcidx/${indexName}.svcidx`;
    client = createLocalClient({ indices: [url] });
    const load = await client.ready;
    expect(load.indices).to.deep.equal([indexName]);
  });
  after(() => client.terminate());

  for (const params of CONFORMANCE_QUERIES) {
    it(`answers ${JSON.stringify(params)} as the service`, async () => {
      const [local, remote] = await Promise.all([
        client.multiSearch([{ indexName, params }]),
        service.multiSearch([{ indexName, params }]),
      ]);
      expect(comparable(local.results[0] as never)).to.deep.equal(comparable(remote.results[0] as never));
    });
  }

  for (const { facet, facetQuery, params } of CONFORMANCE_FACET_QUERIES) {
    it(`answers the facet value search ${facet}:${facetQuery} as the service`, async () => {
      const [local, remote] = await Promise.all([
        client.searchForFacetValues(indexName, facet, facetQuery, params),
        service.searchForFacetValues(indexName, facet, facetQuery, params),
      ]);
      expect(local.facetHits.length).to.be.greaterThan(0);
      expect(comparable(local as never)).to.deep.equal(comparable(remote as never));
    });
  }

  it('builds an index from records given in code (not an exported .svcidx) and answers every query as the service', async () => {
    // The bytes a page makes itself: records, settings, synonyms and rules, no engine structures, so the worker
    // builds the index from the records (and validates the settings given in code).
    const bytes = await encodeBundle({
      name: indexName,
      exportedAt: 0,
      indices: [
        {
          name: indexName,
          settings: CONFORMANCE_SETTINGS,
          rules: CONFORMANCE_RULES as never,
          synonyms: CONFORMANCE_SYNONYMS as never,
          records: CONFORMANCE_RECORDS,
        },
      ],
    });
    const fromCode = createLocalClient({ indices: [bytes.slice().buffer] });
    try {
      expect((await fromCode.ready).indices).to.deep.equal([indexName]);
      for (const params of CONFORMANCE_QUERIES) {
        const [local, remote] = await Promise.all([
          fromCode.multiSearch([{ indexName, params }]),
          service.multiSearch([{ indexName, params }]),
        ]);
        expect(comparable(local.results[0] as never), JSON.stringify(params)).to.deep.equal(
          comparable(remote.results[0] as never),
        );
      }
    } finally {
      fromCode.terminate();
    }
  });

  it('answers Recommend (related, bought together, trending) as the service', async () => {
    const requests = [
      { indexName, model: 'related-products' as const, objectID: 'p3', threshold: 0, maxRecommendations: 5 },
      { indexName, model: 'bought-together' as const, objectID: 'p1', threshold: 0 },
      { indexName, model: 'trending-items' as const, threshold: 0, maxRecommendations: 4 },
      { indexName, model: 'trending-facets' as const, facetName: 'brand', threshold: 0 },
    ];
    const [local, remote] = await Promise.all([client.recommend(requests), service.recommend(requests)]);
    expect(local.results.map((result) => result.hits.length)).to.deep.equal(
      remote.results.map((result) => result.hits.length),
    );
    expect(local.results[1]!.hits.length, 'bought together from the stored orders').to.be.greaterThan(0);
    expect(local.results.map((result) => comparable(result as never))).to.deep.equal(
      remote.results.map((result) => comparable(result as never)),
    );
  });

  it('sends Insights events to the configured host when there is one (not to IndexedDB)', async () => {
    const forwarding = createLocalClient({ indices: [url], insights: service });
    try {
      const userToken = `local-host-${Date.now()}`;
      const event = { eventType: 'view' as const, eventName: 'Seen', index: indexName, userToken, objectIDs: ['p1'] };
      expect((await forwarding.sendEvents([event])).status).to.equal(200);
      const stored = await admin.request<{ events: Array<{ userToken: string }> }>('GET', '/1/_local/events', {
        userToken,
      });
      expect(stored.events.map((e) => e.userToken)).to.deep.equal([userToken]);
      expect((await forwarding.storedEvents()).some((e) => e.userToken === userToken)).to.equal(false);
    } finally {
      forwarding.terminate();
    }
  });

  it('refuses a bad filter with the service’s status and message', async () => {
    const params = { filters: 'brand:(' };
    const [local, remote] = await Promise.all([
      client.multiSearch([{ indexName, params }]).catch((error) => error),
      service.multiSearch([{ indexName, params }]).catch((error) => error),
    ]);
    expect(local.status).to.equal(400);
    expect(local.message).to.equal(remote.message);
  });

  for (const params of BAD_PARAMETERS) {
    it(`refuses ${JSON.stringify(params)} with the service’s status and message`, async () => {
      const [local, remote] = await Promise.all([
        client.multiSearch([{ indexName, params }]).catch((error) => error),
        service.multiSearch([{ indexName, params }]).catch((error) => error),
      ]);
      expect(remote.status).to.equal(400);
      expect(local.status).to.equal(400);
      expect(local.message).to.equal(remote.message);
    });
  }

  it('<svc-search local-index insights-host> sends the events to that host, not to IndexedDB', async () => {
    const userToken = `local-attr-${Date.now()}`;
    const root = await fixture<SvcSearch>(html`<svc-search
      local-index=${url}
      index-name=${indexName}
      app-id=${APP_ID}
      api-key=${SEARCH_KEY}
      insights-host=${location.origin}
      insights-user-token=${userToken}
    >
      <svc-hits></svc-hits>
    </svc-search>`);
    await waitUntil(() => root.store, 'the local client was made', { timeout: 8000 });
    root.store!.setQuery('chair');
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await waitUntil(() => hits.shadowRoot!.querySelectorAll('li').length > 0, 'hits painted', { timeout: 8000 });
    const first = hits.shadowRoot!.querySelector('li')!;
    const objectID = first.getAttribute('data-svc-object-id')!;
    (first.querySelector('a, button') ?? first).dispatchEvent(
      new MouseEvent('click', { bubbles: true, composed: true }),
    );
    await waitUntil(
      async () => {
        await root.insights!.flush();
        const stored = await admin.request<{ events: Array<{ objectIDs?: string[] }> }>('GET', '/1/_local/events', {
          userToken,
        });
        return stored.events.some((event) => event.objectIDs?.includes(objectID));
      },
      'the click received by the Insights host',
      { timeout: 8000 },
    );
    const localClient = root.store!.client as LocalClient;
    expect((await localClient.storedEvents()).some((event) => event.userToken === userToken)).to.equal(false);
  });

  it('<svc-search local-index> (app-id and hosts too) searches, paints hits and asks nothing of /1/; Insights go to IndexedDB', async () => {
    const errors: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    const startedAt = performance.now();
    try {
      const root = await fixture<SvcSearch>(html`<svc-search
        local-index=${url}
        index-name=${indexName}
        app-id=${APP_ID}
        api-key=${SEARCH_KEY}
        hosts=${location.origin}
      >
        <svc-search-box></svc-search-box>
        <svc-hits></svc-hits>
      </svc-search>`);
      await waitUntil(() => root.store, 'the local client was made', { timeout: 8000 });
      const queued: Array<{ eventType: string; objectIDs?: string[] }> = [];
      root.addEventListener('svc-insights', (event) => queued.push((event as CustomEvent).detail.event));
      root.store!.setQuery('chiar');
      await settled(root.store!);
      const hits = root.querySelector('svc-hits')!;
      await waitUntil(() => hits.shadowRoot!.querySelectorAll('li').length > 0, 'hits painted', { timeout: 8000 });
      const names = [...hits.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent ?? '');
      expect(names.every((name) => name.includes('Chair'))).to.equal(true);
      const first = hits.shadowRoot!.querySelector('li')!;
      const objectID = first.getAttribute('data-svc-object-id')!;
      expect(first.getAttribute('data-svc-query-id')).to.match(/^[0-9a-f]{32}$/);
      (first.querySelector('a, button') ?? first).dispatchEvent(
        new MouseEvent('click', { bubbles: true, composed: true }),
      );
      await waitUntil(() => queued.some((event) => event.eventType === 'click'), 'a click in the event stream');
      await root.insights!.flush();
      const localClient = root.store!.client as LocalClient;
      await waitUntil(
        async () => (await localClient.storedEvents()).some((event) => event.objectIDs?.includes(objectID)),
        'the click kept in IndexedDB',
        { timeout: 8000 },
      );
      const requests = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime >= startedAt)
        .map((entry) => new URL(entry.name).pathname);
      expect(requests.filter((path) => path.startsWith('/1/'))).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    } finally {
      console.error = consoleError;
    }
  });
});

describe('svc-search/local: the filters, loaded by the first request that needs them', () => {
  /** An index without rules: no file-level reason to load the filters, so only a request can. */
  let plain: string;
  /** An index whose one rule adds filters to a search that has none. */
  let ruled: string;

  before(async () => {
    plain = await createIndex('local_filters', CONFORMANCE_RECORDS, CONFORMANCE_SETTINGS);
    ruled = await createIndex('local_filter_rule', CONFORMANCE_RECORDS, CONFORMANCE_SETTINGS);
    await admin.request('POST', `/1/indexes/${ruled}/rules/batch`, [FILTER_RULE]);
  });

  /** The answer (or the error) of the first request of a fresh worker, and the service's to the same request. */
  async function firstAnswers(indexName: string, params: Record<string, unknown>) {
    const fresh = createLocalClient({ indices: [`/__svcidx/${indexName}.svcidx?recommendations=0`] });
    try {
      expect((await fresh.ready).indices).to.deep.equal([indexName]);
      return await Promise.all([
        fresh.multiSearch([{ indexName, params }]).catch((error) => error),
        service.multiSearch([{ indexName, params }]).catch((error) => error),
      ]);
    } finally {
      fresh.terminate();
    }
  }

  for (const params of FIRST_FILTERED_QUERIES) {
    it(`answers ${JSON.stringify(params)} as the first request of a fresh worker, as the service`, async () => {
      const [local, remote] = await firstAnswers(plain, params);
      expect(remote.results[0].nbHits, 'the filtered query finds something').to.be.greaterThan(0);
      expect(local.results, local.message).to.exist;
      expect(comparable(local.results[0] as never)).to.deep.equal(comparable(remote.results[0] as never));
    });
  }

  for (const params of BAD_FILTERS) {
    it(`refuses ${JSON.stringify(params)} as the first request of a fresh worker with the service’s message`, async () => {
      const [local, remote] = await firstAnswers(plain, params);
      expect(remote.status).to.equal(400);
      expect(local.status).to.equal(400);
      expect(local.message).to.equal(remote.message);
    });
  }

  it('applies a rule whose consequence adds filters to the first request of a fresh worker, as the service', async () => {
    const params = { query: 'lamp', facets: ['color'] };
    const [local, remote] = await firstAnswers(ruled, params);
    expect(remote.results[0].appliedRules, 'the rule applies').to.deep.equal([{ objectID: FILTER_RULE.objectID }]);
    expect(remote.results[0].nbHits).to.be.greaterThan(0);
    expect(Object.keys(remote.results[0].facets.color).sort()).to.deep.equal(['black', 'blue']);
    expect(local.results, local.message).to.exist;
    expect(comparable(local.results[0] as never)).to.deep.equal(comparable(remote.results[0] as never));
  });
});
