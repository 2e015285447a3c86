/**
 * The demo catalogue's order history as events: one conversion per superstore order (one userToken per
 * customer), shifted so the latest order is yesterday, seeded once per database, kept recent when the data
 * directory is kept for weeks (only the seeded events move), and the Recommend models answer with the real
 * co-occurrence from the first start.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadSuperstore } from '../src/datasets/superstore.js';
import { DEMO_EVENT_NAME, refreshDemoHistory } from '../src/recommend/demo-seed.js';
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

/** The UTC day the demo was seeded on (or a later one: a run may cross midnight between seeding and a check). */
let seededFromDay = 0;
before(async () => {
  seededFromDay = Math.floor(Date.now() / DAY) * DAY;
  svc = await startService({ dataDir, demo: true });
});
after(() => svc.stop());

test('every order becomes one conversion event of its customer, the latest yesterday', async () => {
  const events = await svc.service.services.insights.query({ index: 'products', eventName: DEMO_EVENT_NAME });
  assert.equal(events.length, orders.size);
  const first = orderLines[0]!; // CA-2016-152156, Claire Gute (CG-12520): a bookcase and chairs
  const seeded = events.find((e) => e.userToken === first.customerId && e.objectIDs?.includes(first.productId));
  assert.ok(seeded);
  assert.equal(seeded.eventType, 'conversion');
  assert.deepEqual(new Set(seeded.objectIDs), orders.get(first.orderId)!.productIds);
  const latest = Math.max(...events.map((e) => e.timestamp));
  const today = Math.floor(Date.now() / DAY) * DAY;
  assert.ok(latest >= seededFromDay - DAY && latest < today, `latest order at ${new Date(latest).toISOString()}`);
  // The span of the history is kept (2014-01-03 … 2017-12-30: 1457 days).
  const earliest = Math.min(...events.map((e) => e.timestamp));
  assert.equal(Math.round((latest - earliest) / DAY), 1457);
});

test('bought-together shows the real pairs of the orders', async () => {
  const first = orderLines[0]!;
  const partners = [...orders.get(first.orderId)!.productIds].filter((id) => id !== first.productId);
  const answer = await svc.call(
    'POST',
    '/1/indexes/*/recommendations',
    {
      requests: [{ indexName: 'products', model: 'bought-together', objectID: first.productId, threshold: 0 }],
    },
    { key: SEARCH_KEY },
  );
  assert.equal(answer.status, 200);
  const ids = answer.body.results[0].hits.map((h: { objectID: string }) => h.objectID);
  for (const partner of partners) assert.ok(ids.includes(partner), `${partner} in ${ids}`);
  // Every recommended product was in an order with the source product.
  for (const id of ids) {
    assert.ok(
      [...orders.values()].some((o) => o.productIds.has(first.productId) && o.productIds.has(id)),
      id,
    );
  }
});

test('trending items and trending categories come from the last month of orders', async () => {
  const answer = await svc.call(
    'POST',
    '/1/indexes/*/recommendations',
    {
      requests: [
        { indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 5 },
        { indexName: 'products', model: 'trending-facets', facetName: 'category', threshold: 0 },
      ],
    },
    { key: SEARCH_KEY },
  );
  assert.equal(answer.status, 200);
  const [items, facets] = answer.body.results;
  assert.equal(items.hits.length, 5);
  assert.equal(items.hits[0]._score, 100);
  assert.deepEqual(facets.hits.map((h: { facetValue: string }) => h.facetValue).sort(), [
    'Furniture',
    'Office Supplies',
    'Technology',
  ]);
});

test('seeding happens once: a restart with --demo adds nothing', async () => {
  await svc.stop({ keepData: true });
  svc = await startService({ dataDir, demo: true });
  assert.equal(
    await svc.service.services.insights.count({ index: 'products', eventName: DEMO_EVENT_NAME }),
    orders.size,
  );
});

/** The trending items of the demo index (the 30-day window). */
async function trendingItems(): Promise<string[]> {
  const answer = await svc.call(
    'POST',
    '/1/indexes/*/recommendations',
    {
      requests: [{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 5 }],
    },
    { key: SEARCH_KEY },
  );
  assert.equal(answer.status, 200);
  return answer.body.results[0].hits.map((h: { objectID: string }) => h.objectID);
}

/** Every stored event (its id, time, name, user and time of receipt), read from the storage, by id. */
async function rows() {
  const events = await svc.service.services.storage.events.query({});
  return events
    .map(({ id, timestamp, eventName, userToken, receivedAt }) => ({ id, timestamp, eventName, userToken, receivedAt }))
    .sort((a, b) => a.id - b.id);
}
/** The seeded rows: they keep the seeding's clock as their time of receipt. */
async function seededAt() {
  const seed = await svc.service.services.storage.events.demoSeed('products');
  assert.ok(seed, 'the demo history was seeded');
  return seed.seededAt;
}
async function demoRows() {
  const at = await seededAt();
  return (await rows()).filter((r) => r.receivedAt === at);
}
const REAL_USER = 'CG-12520'; // a real order of a demo customer: same token, same event name, but received over HTTP
/**
 * How far the service clock is ahead of the real one: the time a kept data directory has waited (the stored
 * events stay as they were; the service is started later).
 */
let waited = 0;
const later = () => Date.now() + waited;
const today = () => Math.floor(later() / DAY) * DAY;

test('a data directory kept 40 days: a restart with --demo moves the seeded events (only those) so the latest is yesterday', async () => {
  // A real order over HTTP by a demo customer, with the demo's event name: it must never move.
  const first = orderLines[0]!;
  const sent = await svc.call(
    'POST',
    '/1/events',
    {
      events: [
        {
          eventType: 'conversion',
          eventName: DEMO_EVENT_NAME,
          index: 'products',
          userToken: REAL_USER,
          objectIDs: [first.productId],
          timestamp: Date.now() - 3600_000,
        },
      ],
    },
    { key: SEARCH_KEY },
  );
  assert.equal(sent.status, 200);
  assert.ok((await trendingItems()).length > 0);
  const kept = await rows();
  const seeded = await seededAt();
  const real = kept.find((r) => r.userToken === REAL_USER && r.receivedAt !== seeded)!;
  assert.ok(real);
  assert.equal((await demoRows()).length, orders.size);
  await svc.stop({ keepData: true });
  // 40 days pass: the services below start with a clock 40 days on.
  waited = 40 * DAY;

  // Without --demo nothing moves: the 30-day window is empty (what the home page showed).
  svc = await startService({ dataDir, now: later });
  assert.deepEqual(await trendingItems(), []);
  await svc.stop({ keepData: true });

  const movedFromDay = today();
  svc = await startService({ dataDir, demo: true, now: later });
  const after = await rows();
  const demo = await demoRows();
  assert.equal(demo.length, orders.size, 'the same number of demo events (no duplicate)');
  assert.equal(after.length, kept.length, 'no event added or lost');
  const latest = Math.max(...demo.map((r) => r.timestamp));
  assert.ok(latest >= movedFromDay - DAY && latest < today(), `latest demo order at ${new Date(latest).toISOString()}`);
  // Moved by whole days, together: the span and each order's time of day are kept.
  const keptDemo = kept.filter((r) => r.receivedAt === seeded);
  const shift = demo[0]!.timestamp - keptDemo[0]!.timestamp;
  assert.equal(shift % DAY, 0);
  assert.ok(shift >= 39 * DAY && shift <= 40 * DAY, `moved ${shift / DAY} days`);
  assert.deepEqual(
    demo.map((r) => r.timestamp - shift),
    keptDemo.map((r) => r.timestamp),
  );
  // The real event is untouched (same row, same time).
  assert.deepEqual(
    after.find((r) => r.id === real.id),
    real,
  );
  assert.equal((await trendingItems()).length, 5);
  // Recent: a second restart moves nothing.
  await svc.stop({ keepData: true });
  svc = await startService({ dataDir, demo: true, now: later });
  assert.deepEqual(await rows(), after);
});

test('while the service runs: a day after the latest order is yesterday, a Recommend request moves the history and rebuilds the models', async () => {
  await svc.stop({ keepData: true });
  // The data directory as the previous test left it: recent for a clock that has waited 40 days.
  let clock = later();
  svc = await startService({ dataDir, demo: true, now: () => clock });
  assert.equal((await trendingItems()).length, 5); // the models are built
  const before = await demoRows();
  // 40 days later, same process: without the move the built models would trend nothing (the window is empty).
  clock += 40 * DAY;
  assert.equal((await trendingItems()).length, 5);
  const moved = await demoRows();
  assert.equal(moved.length, before.length);
  assert.deepEqual(
    moved.map((r) => r.timestamp - 40 * DAY),
    before.map((r) => r.timestamp),
  );
  const day = Math.floor(clock / DAY) * DAY;
  const latest = Math.max(...moved.map((r) => r.timestamp));
  assert.ok(latest >= day - DAY && latest < day);
  assert.equal(
    await refreshDemoHistory({ eventStore: svc.service.services.storage.events }, 'products', clock),
    0,
    'recent: nothing more to move',
  );
});
