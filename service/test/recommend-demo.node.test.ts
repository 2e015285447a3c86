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
import { databaseOf, SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

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
  assert.ok(latest >= today - DAY && latest < today, `latest order at ${new Date(latest).toISOString()}`);
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

/** Every stored event as `id → timestamp`, from the database itself. */
const rows = () =>
  databaseOf(svc.service)
    .prepare('SELECT id, timestamp, event_name, user_token, received_at FROM insights_events ORDER BY id')
    .all() as Array<{ id: number; timestamp: number; event_name: string; user_token: string; received_at: number }>;
/** The seeded rows: they keep the seeding's clock as their time of receipt. */
const seededAt = () =>
  (databaseOf(svc.service).prepare('SELECT seeded_at FROM recommend_demo_seed').get() as { seeded_at: number })
    .seeded_at;
const demoRows = () => rows().filter((r) => r.received_at === seededAt());
const REAL_USER = 'CG-12520'; // a real order of a demo customer: same token, same event name, but received over HTTP
const age = (days: number) =>
  databaseOf(svc.service)
    .prepare('UPDATE insights_events SET timestamp = timestamp - ?')
    .run(days * DAY);
const today = () => Math.floor(Date.now() / DAY) * DAY;

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
  // 40 days pass: every stored time moves back (as if the clock had moved on).
  age(40);
  const aged = rows();
  const real = aged.find((r) => r.user_token === REAL_USER && r.received_at !== seededAt())!;
  assert.ok(real);
  assert.equal(demoRows().length, orders.size);
  await svc.stop({ keepData: true });

  // Without --demo nothing moves: the 30-day window is empty (what the home page showed).
  svc = await startService({ dataDir });
  assert.deepEqual(await trendingItems(), []);
  await svc.stop({ keepData: true });

  svc = await startService({ dataDir, demo: true });
  const after = rows();
  const demo = demoRows();
  assert.equal(demo.length, orders.size, 'the same number of demo events (no duplicate)');
  assert.equal(after.length, aged.length, 'no event added or lost');
  const latest = Math.max(...demo.map((r) => r.timestamp));
  assert.ok(latest >= today() - DAY && latest < today(), `latest demo order at ${new Date(latest).toISOString()}`);
  // Moved by whole days, together: the span and each order's time of day are kept.
  const agedDemo = aged.filter((r) => r.received_at === seededAt());
  const shift = demo[0]!.timestamp - agedDemo[0]!.timestamp;
  assert.equal(shift % DAY, 0);
  assert.ok(shift >= 39 * DAY && shift <= 40 * DAY, `moved ${shift / DAY} days`);
  assert.deepEqual(
    demo.map((r) => r.timestamp - shift),
    agedDemo.map((r) => r.timestamp),
  );
  // The real event is untouched (same row, same time).
  assert.deepEqual(
    after.find((r) => r.id === real.id),
    real,
  );
  assert.equal((await trendingItems()).length, 5);
  // Recent: a second restart moves nothing.
  await svc.stop({ keepData: true });
  svc = await startService({ dataDir, demo: true });
  assert.deepEqual(rows(), after);
});

test('while the service runs: a day after the latest order is yesterday, a Recommend request moves the history and rebuilds the models', async () => {
  await svc.stop({ keepData: true });
  let clock = Date.now();
  svc = await startService({ dataDir, demo: true, now: () => clock });
  assert.equal((await trendingItems()).length, 5); // the models are built
  const before = demoRows();
  // 40 days later, same process: without the move the built models would trend nothing (the window is empty).
  clock += 40 * DAY;
  assert.equal((await trendingItems()).length, 5);
  const moved = demoRows();
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
