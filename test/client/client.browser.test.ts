/**
 * The client and the store in real Chromium against the local service mounted in the test server
 * (same origin). Network calls are counted with the browser's own Resource Timing entries.
 */
import { expect } from '@open-wc/testing';
import { ApiError, createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SearchClient } from '../../src/client/types.js';

const APP_ID = 'SVCLOCAL';
const INDEX = `client_browser_${Date.now()}`;
let admin: SearchClient;

const records = Array.from({ length: 40 }, (_, i) => ({
  objectID: `b${i}`,
  name: `${['Acme', 'Bolt'][i % 2]} ${['laptop', 'phone', 'camera', 'speaker'][i % 4]} ${i}`,
  brand: ['Acme', 'Bolt'][i % 2],
  color: ['red', 'green', 'blue'][i % 3],
}));

/** Network calls the page made to `pathEnd` since `since` (Resource Timing). */
function callsTo(pathEnd: string, since: number): number {
  return performance
    .getEntriesByType('resource')
    .filter((e) => e.startTime >= since && new URL(e.name).pathname.endsWith(pathEnd)).length;
}

async function waitTask(indexName: string, taskID: number) {
  for (let i = 0; i < 200; i++) {
    const task = await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`);
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

before(async () => {
  performance.setResourceTimingBufferSize(10_000);
  admin = createClient({ appId: APP_ID, apiKey: 'local-admin-key', hosts: [location.origin], cache: false });
  const settings = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${INDEX}/settings`, {
    attributesForFaceting: ['brand', 'color'],
  });
  await waitTask(INDEX, settings.taskID);
  const { taskID } = await admin.request<{ taskID: number }>('POST', `/1/indexes/${INDEX}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(INDEX, taskID);
});

describe('client in the browser', () => {
  it('searches the local service; the same search again is answered from the cache', async () => {
    const client = createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] });
    const since = performance.now();
    const first = await client.search(INDEX, { query: 'laptop' });
    const second = await client.search(INDEX, { query: 'laptop' });
    expect(first.nbHits).to.equal(10);
    expect(second.hits.map((h) => h.objectID)).to.deep.equal(first.hits.map((h) => h.objectID));
    expect(callsTo(`/1/indexes/${INDEX}/query`, since)).to.equal(1);
  });

  it('fails over from an unreachable host to the service', async () => {
    // Port 9 on loopback: nothing listens (and Chromium refuses it as unsafe) — a network error either way.
    const client = createClient({
      appId: APP_ID,
      apiKey: 'local-search-key',
      hosts: ['http://127.0.0.1:9', location.origin],
    });
    const answer = await client.search(INDEX, { query: 'camera' });
    expect(answer.nbHits).to.equal(10);
  });

  it('a 404 is an ApiError with the server message', async () => {
    const client = createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] });
    let caught: unknown;
    try {
      await client.search(`${INDEX}_missing`, { query: 'x' });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ApiError);
    expect((caught as ApiError).status).to.equal(404);
    expect((caught as ApiError).message)
      .to.be.a('string')
      .and.not.equal('');
  });

  it('an aborted search rejects with AbortError', async () => {
    const client = createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] });
    const controller = new AbortController();
    const pending = client.search(INDEX, { query: 'phone' }, { signal: controller.signal });
    controller.abort();
    let name = '';
    try {
      await pending;
    } catch (error) {
      name = (error as Error).name;
    }
    expect(name).to.equal('AbortError');
  });

  it('sendEvents with keepalive sends credentials as URL parameters and the events are stored', async () => {
    const client = createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] });
    const userToken = `browser-${Date.now()}`;
    const answer = await client.sendEvents(
      [{ eventType: 'view', eventName: 'Hits Viewed', index: INDEX, userToken, objectIDs: ['b1'] }],
      { keepalive: true },
    );
    expect(answer.status).to.equal(200);
    expect(client.eventsBeaconUrl()).to.equal(
      `${location.origin}/1/events?X-Service-Application-Id=${APP_ID}&X-Service-API-Key=local-search-key`,
    );
    const beacon = navigator.sendBeacon(
      client.eventsBeaconUrl(),
      JSON.stringify({
        events: [{ eventType: 'view', eventName: 'Beacon', index: INDEX, userToken, objectIDs: ['b2'] }],
      }),
    );
    expect(beacon).to.equal(true);
    let names: string[] = [];
    for (let i = 0; i < 50 && names.length < 2; i++) {
      const stored = await admin.request<{ events: Array<{ eventName: string }> }>(
        'GET',
        `/1/_local/events?index=${INDEX}&userToken=${userToken}`,
      );
      names = stored.events.map((e) => e.eventName).sort();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(names).to.deep.equal(['Beacon', 'Hits Viewed']);
  });
});

describe('store in the browser', () => {
  it('two OR refinements in one tick make one HTTP request; a seen state makes none', async () => {
    const client = createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] });
    const store = createSearchStore({ client, indexName: INDEX });
    const settled = () =>
      new Promise<void>((resolve) => {
        setTimeout(() => {
          const off = store.subscribe((s) => {
            if (s.status === 'idle' || s.status === 'error') {
              queueMicrotask(() => off());
              resolve();
            }
          });
        });
      });
    try {
      store.registerNeeds('test', { disjunctiveFacets: ['brand', 'color'] });
      await settled();
      const since = performance.now();
      store.toggleRefinement('brand', 'Acme', 'or');
      store.toggleRefinement('color', 'red', 'or');
      await settled();
      expect(callsTo('/1/indexes/*/queries', since)).to.equal(1);
      const { results } = store.getSnapshot();
      expect(results?.nbHits).to.equal(records.filter((r) => r.brand === 'Acme' && r.color === 'red').length);
      expect(results?.facets.brand).to.deep.equal({ Acme: 7, Bolt: 7 });
      store.toggleRefinement('color', 'red', 'or');
      store.toggleRefinement('brand', 'Acme', 'or');
      const again = performance.now();
      await settled();
      expect(callsTo('/1/indexes/*/queries', again)).to.equal(0);
      expect(store.requestLog.at(-1)?.cached).to.equal(true);
      expect(store.createURL((s) => ({ ...s, query: 'a b' }))).to.equal('?q=a+b');
    } finally {
      store.dispose();
    }
  });
});
