import { expect, waitUntil } from '@open-wc/testing';
import { TrendingController } from '../../src/controllers/trending-controller.js';
import type { SearchStore } from '../../src/store/types.js';
import { admin, createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

/** The Recommend requests the store sent (cached answers left out). */
const sentRequests = (store: SearchStore) =>
  store.requestLog
    .filter((entry) => entry.kind === 'recommend' && !entry.cached)
    .flatMap((entry) => (entry.body as { requests: Array<Record<string, unknown>> }).requests);

/** Applies `config` to the controller, lets the host update, and waits until the answer is in. */
async function ask(
  host: PlainHost,
  controller: TrendingController,
  config: Partial<TrendingController>,
): Promise<void> {
  Object.assign(controller, config);
  host.requestUpdate();
  await host.updateComplete;
  await waitUntil(() => controller.status !== 'loading', 'no answer', { timeout: 8000 });
}

const ids = (controller: TrendingController) => controller.items.map((item) => item.hit.objectID);

describe('TrendingController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_trend');
    // Within the last hour: p5 converted 3 times (Dell), p7 twice (Samsung), p4 once (Lenovo) and clicked
    // twice → trending items p5 3, p4 2, p7 2; trending brands (conversions only) Dell 3, Samsung 2, Lenovo 1.
    const at = Date.now() - 30 * 60_000;
    const event = (eventType: 'conversion' | 'click', objectID: string, i: number) => ({
      eventType,
      eventName: eventType === 'click' ? 'Product Clicked' : 'Order Completed',
      index: indexName,
      userToken: `ctr-${i}`,
      objectIDs: [objectID],
      timestamp: at + i * 1000,
    });
    await admin.sendEvents([
      event('conversion', 'p5', 1),
      event('conversion', 'p5', 2),
      event('conversion', 'p5', 3),
      event('conversion', 'p7', 4),
      event('conversion', 'p7', 5),
      event('click', 'p4', 6),
      event('click', 'p4', 7),
      event('conversion', 'p4', 8),
    ]);
  });

  it('trending items globally, or within one facet value (both facet fields or neither), with the queryID asked for', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new TrendingController(host, { store });
    host.connect();
    await ask(host, controller, {});
    expect(ids(controller)).to.deep.equal(['p5', 'p4', 'p7']);
    expect(controller.items.map((item) => [item.ref.position, item.hit._score])).to.deep.equal([
      [1, 100],
      [2, 66.67],
      [3, 66.67],
    ]);
    expect(controller.queryID).to.match(/^[0-9a-f]{32}$/);
    expect(controller.facets).to.deep.equal([]);
    expect(sentRequests(store)).to.deep.equal([
      { indexName, threshold: 0, model: 'trending-items', queryParameters: { clickAnalytics: true } },
    ]);

    await ask(host, controller, { facetName: 'brand', facetValue: 'Samsung' });
    expect(ids(controller)).to.deep.equal(['p7']);
    expect(sentRequests(store).at(-1)).to.deep.include({ facetName: 'brand', facetValue: 'Samsung' });
    // A facet name alone: global again (the same request as the first, answered by the store's cache).
    await ask(host, controller, { facetValue: undefined });
    expect(ids(controller)).to.deep.equal(['p5', 'p4', 'p7']);
    expect(sentRequests(store)).to.have.length(2);
    expect(store.requestLog.at(-1)).to.deep.include({ kind: 'recommend', cached: true });
    host.disconnect();
    store.dispose();
  });

  it('trending facet values: nothing asked without a facet name; refine() toggles the value and reports only turning it on', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new TrendingController(host, { store });
    controller.model = 'trending-facets';
    host.connect();
    await host.updateComplete;
    expect(controller.status).to.equal('idle');
    expect(sentRequests(store)).to.deep.equal([]);

    await ask(host, controller, { facetName: 'brand' });
    expect(controller.facets.map((f) => [f.facetValue, f._score])).to.deep.equal([
      ['Dell', 100],
      ['Samsung', 66.67],
      ['Lenovo', 33.33],
    ]);
    expect(controller.items).to.deep.equal([]); // facet values are not records
    // trending-facets takes no queryParameters (document 2).
    expect(sentRequests(store)).to.deep.equal([
      { indexName, threshold: 0, model: 'trending-facets', facetName: 'brand' },
    ]);

    const applied: string[][] = [];
    const insights = {
      filterApplied: (index: string, attribute: string, value: string) => void applied.push([index, attribute, value]),
    };
    await settled(store);
    expect(controller.isRefined('Samsung')).to.be.false;
    controller.refine('Samsung', insights);
    expect(controller.isRefined('Samsung')).to.be.true;
    await settled(store);
    expect(store.getSnapshot().results!.hits.every((hit) => hit.brand === 'Samsung')).to.be.true;
    controller.refine('Samsung', insights);
    expect(controller.isRefined('Samsung')).to.be.false;
    controller.refine('Dell', insights);
    expect(applied).to.deep.equal([
      [indexName, 'brand', 'Samsung'],
      [indexName, 'brand', 'Dell'],
    ]);
    // Without a facet name there is nothing to refine.
    controller.facetName = undefined;
    controller.refine('Sony', insights);
    expect(store.isRefined('brand', 'Sony')).to.be.false;
    expect(applied).to.have.length(2);
    host.disconnect();
    store.dispose();
  });

  it('reports an error, and asks nothing once disconnected', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const controller = new TrendingController(host, { store });
    host.connect();
    await ask(host, controller, { index: 'ctrl_trend_no_such_index' });
    expect(controller.status).to.equal('error');
    expect(controller.error).to.be.instanceOf(Error);
    expect(controller.items).to.deep.equal([]);
    host.disconnect();
    const logged = store.requestLog.length;
    controller.index = undefined;
    host.requestUpdate();
    await host.updateComplete;
    await new Promise((r) => setTimeout(r, 50));
    expect(store.requestLog.length).to.equal(logged);
    store.dispose();
  });
});
