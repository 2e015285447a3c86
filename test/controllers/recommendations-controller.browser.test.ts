import { expect, waitUntil } from '@open-wc/testing';
import { RecommendationsController } from '../../src/controllers/recommendations-controller.js';
import type { SearchStore } from '../../src/store/types.js';
import { admin, createIndex } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

/** The Recommend requests the store sent (cached answers left out). */
const sentRequests = (store: SearchStore) =>
  store.requestLog
    .filter((entry) => entry.kind === 'recommend' && !entry.cached)
    .flatMap((entry) => (entry.body as { requests: Array<Record<string, unknown>> }).requests);

/** Applies `config` to the controller, lets the host update, and waits until the answer is in. */
async function ask(
  host: PlainHost,
  controller: RecommendationsController,
  config: Partial<RecommendationsController>,
): Promise<void> {
  Object.assign(controller, config);
  host.requestUpdate();
  await host.updateComplete;
  await waitUntil(() => controller.status !== 'loading', 'no answer', { timeout: 8000 });
}

const ids = (controller: RecommendationsController) => controller.items.map((item) => item.hit.objectID);

describe('RecommendationsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_rec');
    // bought-together(p0): p1 50, p2 25, p3 25 (100 × together / (orders of p0 + 1)).
    const order = (userToken: string, objectIDs: string[], minutesAgo: number) => ({
      eventType: 'conversion' as const,
      eventName: 'Order Completed',
      index: indexName,
      userToken,
      objectIDs,
      timestamp: Date.now() - minutesAgo * 60_000,
    });
    await admin.sendEvents([
      order('crec-1', ['p0', 'p1', 'p2'], 30),
      order('crec-2', ['p0', 'p1'], 20),
      order('crec-3', ['p0', 'p3'], 10),
    ]);
  });

  it('asks nothing without an objectID, then gives the items with positions 1..n and the queryID it asked for', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new RecommendationsController(host, { store });
    controller.model = 'bought-together';
    host.connect();
    await host.updateComplete;
    expect(controller.status).to.equal('idle');
    expect(controller.items).to.deep.equal([]);
    expect(sentRequests(store)).to.deep.equal([]);

    controller.objectID = 'p0';
    host.requestUpdate();
    await host.updateComplete;
    expect(controller.isLoading).to.be.true;
    await waitUntil(() => controller.status === 'ready', 'no answer', { timeout: 8000 });
    expect(ids(controller)).to.deep.equal(['p1', 'p2', 'p3']);
    expect(controller.items.map((item) => item.ref.position)).to.deep.equal([1, 2, 3]);
    expect(controller.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(controller.items[0].ref).to.deep.equal({
      objectID: 'p1',
      queryID: controller.queryID,
      position: 1,
      indexName,
    });
    expect(controller.isEmpty).to.be.false;
    // The request: the store's index, clickAnalytics for the queryID, no maxRecommendations (0 = all).
    expect(sentRequests(store)).to.deep.equal([
      { indexName, threshold: 0, model: 'bought-together', objectID: 'p0', queryParameters: { clickAnalytics: true } },
    ]);

    // An unchanged configuration asks nothing more, even on further updates.
    host.requestUpdate();
    await host.updateComplete;
    expect(store.requestLog.filter((entry) => entry.kind === 'recommend')).to.have.length(1);
    host.disconnect();
    store.dispose();
  });

  it('threshold, maxRecommendations, queryParameters and fallbackParameters shape the request and the answer', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new RecommendationsController(host, { store });
    host.connect();
    await ask(host, controller, { model: 'bought-together', objectID: 'p0', threshold: 30 });
    expect(ids(controller)).to.deep.equal(['p1']);
    await ask(host, controller, { threshold: 0, maxRecommendations: 2 });
    expect(ids(controller)).to.deep.equal(['p1', 'p2']);
    await ask(host, controller, { maxRecommendations: 0, queryParameters: { filters: 'brand:Sony' } });
    expect(ids(controller)).to.deep.equal(['p3']);
    await ask(host, controller, { maxRecommendations: 3, fallbackParameters: { filters: 'brand:Sony' } });
    // Filled up by the fallback search (by rank; p3 already recommended), with score 0.
    expect(ids(controller)).to.deep.equal(['p3', 'p9', 'p15']);
    expect(controller.items.map((item) => item.hit._score)).to.deep.equal([25, 0, 0]);
    expect(sentRequests(store).at(-1)).to.deep.equal({
      indexName,
      threshold: 0,
      model: 'bought-together',
      objectID: 'p0',
      maxRecommendations: 3,
      queryParameters: { filters: 'brand:Sony', clickAnalytics: true },
      fallbackParameters: { filters: 'brand:Sony' },
    });
    // A record nobody bought: empty.
    await ask(host, controller, {
      objectID: 'p35',
      queryParameters: undefined,
      fallbackParameters: undefined,
      maxRecommendations: 0,
    });
    expect(controller.isEmpty).to.be.true;
    expect(controller.items).to.deep.equal([]);
    host.disconnect();
    store.dispose();
  });

  it('keeps only the answer to the latest request, reports errors, and asks nothing once disconnected', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new RecommendationsController(host, { store });
    host.connect();
    // Two requests in a row: the first answer (p35: empty) must not replace the second.
    controller.model = 'bought-together';
    controller.objectID = 'p35';
    host.requestUpdate();
    await host.updateComplete;
    controller.objectID = 'p0';
    host.requestUpdate();
    await host.updateComplete;
    await waitUntil(() => controller.status === 'ready', 'no answer', { timeout: 8000 });
    await new Promise((r) => setTimeout(r, 100));
    expect(ids(controller)).to.deep.equal(['p1', 'p2', 'p3']);

    await ask(host, controller, { index: 'ctrl_rec_no_such_index' });
    expect(controller.status).to.equal('error');
    expect(controller.error).to.be.instanceOf(Error);
    expect(controller.items).to.deep.equal([]);
    expect(controller.isEmpty).to.be.false;

    host.disconnect();
    const logged = store.requestLog.length;
    controller.index = undefined;
    controller.objectID = 'p1';
    host.requestUpdate();
    await host.updateComplete;
    await new Promise((r) => setTimeout(r, 50));
    expect(store.requestLog.length).to.equal(logged);
    store.dispose();
  });

  it('picks up a store given later through a function', async () => {
    let current: SearchStore | undefined;
    const host = new PlainHost();
    const controller = new RecommendationsController(host, { store: () => current });
    controller.model = 'bought-together';
    controller.objectID = 'p0';
    host.connect();
    await host.updateComplete;
    expect(controller.status).to.equal('idle');
    current = storeFor(indexName);
    await ask(host, controller, {});
    expect(ids(controller)).to.deep.equal(['p1', 'p2', 'p3']);
    host.disconnect();
    current.dispose();
  });
});
