/**
 * The demo catalogue's order history as events: one conversion per superstore order (one userToken per
 * customer), shifted so the latest order is yesterday, seeded once per database, and the Recommend models
 * answer with the real co-occurrence from the first start.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadSuperstore } from '../../src/service/datasets/superstore.js';
import { getEventStore } from '../../src/service/insights/event-store.js';
import { DEMO_EVENT_NAME } from '../../src/service/recommend/demo-seed.js';
import { SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

const DAY = 24 * 3600 * 1000;
let svc: Running;
const dataDir = tempDir();
const { orderLines } = loadSuperstore();
const orders = new Map<string, { customerId: string; productIds: Set<string> }>();
for (const line of orderLines) {
  const order = orders.get(line.orderId) ?? { customerId: line.customerId, productIds: new Set<string>() };
  order.productIds.add(line.productId);
  orders.set(line.orderId, order);
}

before(async () => {
  svc = await startService({ dataDir, demo: true });
});
after(() => svc.stop());

test('every order becomes one conversion event of its customer, the latest yesterday', () => {
  const events = getEventStore(svc.service.ctx).query({ index: 'products', eventName: DEMO_EVENT_NAME });
  assert.equal(events.length, orders.size);
  const first = orderLines[0]!; // CA-2016-152156, Claire Gute (CG-12520): a bookcase and chairs
  const seeded = events.find((e) => e.userToken === first.customerId && e.objectIDs?.includes(first.productId));
  assert.ok(seeded);
  assert.equal(seeded.eventType, 'conversion');
  assert.deepEqual(new Set(seeded.objectIDs), orders.get(first.orderId)!.productIds);
  const latest = Math.max(...events.map((e) => e.timestamp));
  const today = Math.floor(Date.now() / DAY) * DAY;
  assert.ok(latest >= today - DAY && latest < today, `latest order at ${new Date(latest).toISOString()}`);
  // The span of the history is kept (2014-01-03 … 2017-12-30: 1457 days).
  const earliest = Math.min(...events.map((e) => e.timestamp));
  assert.equal(Math.round((latest - earliest) / DAY), 1457);
});

test('bought-together shows the real pairs of the orders', async () => {
  const first = orderLines[0]!;
  const partners = [...orders.get(first.orderId)!.productIds].filter((id) => id !== first.productId);
  const answer = await svc.call('POST', '/1/indexes/*/recommendations', {
    requests: [{ indexName: 'products', model: 'bought-together', objectID: first.productId, threshold: 0 }],
  }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200);
  const ids = answer.body.results[0].hits.map((h: { objectID: string }) => h.objectID);
  for (const partner of partners) assert.ok(ids.includes(partner), `${partner} in ${ids}`);
  // Every recommended product was in an order with the source product.
  for (const id of ids) {
    assert.ok([...orders.values()].some((o) => o.productIds.has(first.productId) && o.productIds.has(id)), id);
  }
});

test('trending items and trending categories come from the last month of orders', async () => {
  const answer = await svc.call('POST', '/1/indexes/*/recommendations', {
    requests: [
      { indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 5 },
      { indexName: 'products', model: 'trending-facets', facetName: 'category', threshold: 0 },
    ],
  }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200);
  const [items, facets] = answer.body.results;
  assert.equal(items.hits.length, 5);
  assert.equal(items.hits[0]._score, 100);
  assert.deepEqual(facets.hits.map((h: { facetValue: string }) => h.facetValue).sort(), ['Furniture', 'Office Supplies', 'Technology']);
});

test('seeding happens once: a restart with --demo adds nothing', async () => {
  await svc.stop({ keepData: true });
  svc = await startService({ dataDir, demo: true });
  assert.equal(getEventStore(svc.service.ctx).count({ index: 'products', eventName: DEMO_EVENT_NAME }), orders.size);
});
