/**
 * Demo history: the superstore order lines become Insights conversion events, so the demo catalogue has real
 * bought-together pairs, related products and trends from the first start.
 *
 * - one userToken per customer (the Customer ID, e.g. `CG-12520`);
 * - one event per order, with every product of the order (`objectIDs`), eventName `Order Completed`;
 * - one order = one session: an order's time is its date at 12:00 UTC, and a customer's second order on the
 *   same day is two hours later, so two orders never fall within the 30-minute session gap;
 * - dates shifted by whole days so that the latest order is yesterday (day-of-week patterns are kept): the
 *   trending models, which read the last 30 days, see the last month of the history.
 *
 * The events are written straight to the event store (the HTTP endpoint accepts only four days of history),
 * once per database: the table `recommend_demo_seed` remembers that it was done. A database kept across
 * restarts would age (no trends after 30 days): `refreshDemoHistory` moves the seeded events — only those — by
 * whole days so the latest is yesterday again.
 */
import type { ServiceContext } from '../context.js';
import type { OrderLine } from '../datasets/superstore.js';
import { getEventStore } from '../insights/event-store.js';
import type { ValidEvent } from '../insights/validate.js';

const DAY = 24 * 3600 * 1000;

export const DEMO_EVENT_NAME = 'Order Completed';

/**
 * Conversion events of the order lines, shifted so that the latest order is the day before `now`.
 *
 * @example
 * orderLinesToEvents(loadSuperstore().orderLines, 'products', Date.now()).length // 5009 orders
 */
export function orderLinesToEvents(orderLines: readonly OrderLine[], indexName: string, now: number): ValidEvent[] {
  const orders = new Map<string, { date: string; customerId: string; productIds: string[] }>();
  let latest = '';
  for (const line of orderLines) {
    let order = orders.get(line.orderId);
    if (!order)
      orders.set(line.orderId, (order = { date: line.orderDate, customerId: line.customerId, productIds: [] }));
    if (!order.productIds.includes(line.productId)) order.productIds.push(line.productId);
    if (line.orderDate > latest) latest = line.orderDate;
  }
  if (!latest) return [];
  const today = Math.floor(now / DAY) * DAY;
  const shift = today - DAY - Date.parse(`${latest}T00:00:00Z`);
  const perCustomerDay = new Map<string, number>();
  const events: ValidEvent[] = [];
  const sorted = [...orders].sort(([a, x], [b, y]) =>
    x.date < y.date ? -1 : x.date > y.date ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [, order] of sorted) {
    const key = `${order.customerId}\u0000${order.date}`;
    const nth = perCustomerDay.get(key) ?? 0;
    perCustomerDay.set(key, nth + 1);
    const timestamp = Date.parse(`${order.date}T00:00:00Z`) + shift + 12 * 3600 * 1000 + nth * 2 * 3600 * 1000;
    events.push({
      eventType: 'conversion',
      eventName: DEMO_EVENT_NAME,
      index: indexName,
      userToken: order.customerId.replace(/[^a-zA-Z0-9_\-=/+]/g, '_'),
      timestamp,
      objectIDs: order.productIds,
    });
  }
  return events;
}

/** Whether the demo history of `indexName` was seeded into this database. */
export function isSeeded(ctx: ServiceContext, indexName: string): boolean {
  ctx.db.exec(
    'CREATE TABLE IF NOT EXISTS recommend_demo_seed (index_name TEXT PRIMARY KEY, seeded_at INTEGER NOT NULL, events INTEGER NOT NULL)',
  );
  return ctx.db.prepare('SELECT 1 FROM recommend_demo_seed WHERE index_name = ?').get(indexName) !== undefined;
}

/**
 * Seeds the demo history into the event store unless it was done before for this index. Returns the number
 * of events written (0 when already seeded or when `indexName` does not hold the catalogue of the lines).
 */
export function seedDemoHistory(
  ctx: ServiceContext,
  indexName: string,
  orderLines: readonly OrderLine[],
  now = Date.now(),
): number {
  if (isSeeded(ctx, indexName)) return 0;
  const index = ctx.indices.get(indexName);
  if (!index) return 0;
  // Only the catalogue of these order lines: most of their products must be records of the index.
  const productIds = new Set(orderLines.map((line) => line.productId));
  let found = 0;
  for (const id of productIds) if (index.getObject(id)) found++;
  if (productIds.size === 0 || found < productIds.size * 0.9) return 0;
  const events = orderLinesToEvents(orderLines, indexName, now);
  const store = getEventStore(ctx);
  let written = 0;
  ctx.db.transaction(() => {
    for (let i = 0; i < events.length; i += 1000)
      written += store.append(events.slice(i, i + 1000), { receivedAt: now }).length;
    ctx.db
      .prepare('INSERT INTO recommend_demo_seed (index_name, seeded_at, events) VALUES (?, ?, ?)')
      .run(indexName, now, written);
  })();
  return written;
}

/**
 * The seeded demo events of `indexName`: the rows written by `seedDemoHistory` keep its clock as their time of
 * receipt (`seeded_at`), which no event received over HTTP has (the seeding runs before the service listens).
 */
const SEEDED = `FROM insights_events WHERE index_name = @indexName AND event_type = 'conversion' AND event_name = @eventName AND query_id IS NULL
  AND received_at = (SELECT seeded_at FROM recommend_demo_seed WHERE index_name = @indexName)`;

/** The time of the latest seeded demo event of `indexName` (undefined when none). */
export function latestDemoEvent(ctx: ServiceContext, indexName: string): number | undefined {
  if (!isSeeded(ctx, indexName)) return undefined;
  getEventStore(ctx); // the table
  return (
    (
      ctx.db.prepare(`SELECT MAX(timestamp) AS latest ${SEEDED}`).get({ indexName, eventName: DEMO_EVENT_NAME }) as {
        latest: number | null;
      }
    ).latest ?? undefined
  );
}

/**
 * Keeps the demo history recent: when the latest seeded event of `indexName` is older than yesterday, moves
 * every seeded event (never another event) forward by whole days so the latest is yesterday again, in one
 * transaction (the rows are replaced, so their duplicate fingerprints follow the new times; same count, same
 * order, same time of receipt). Returns the number of days moved (0: already recent, or nothing seeded). The
 * caller rebuilds the models (`Recommender.reset()`): the events are not emitted again.
 *
 * @example
 * refreshDemoHistory(ctx, 'products') // 40 after 41 days with the data directory kept, then 0
 */
export function refreshDemoHistory(ctx: ServiceContext, indexName: string, now = Date.now()): number {
  const latest = latestDemoEvent(ctx, indexName);
  if (latest === undefined) return 0;
  const days = Math.floor(now / DAY) - 1 - Math.floor(latest / DAY);
  if (days <= 0) return 0;
  const params = { indexName, eventName: DEMO_EVENT_NAME };
  const store = getEventStore(ctx);
  ctx.db.transaction(() => {
    const { seeded_at } = ctx.db
      .prepare('SELECT seeded_at FROM recommend_demo_seed WHERE index_name = ?')
      .get(indexName) as { seeded_at: number };
    const rows = ctx.db.prepare(`SELECT user_token, timestamp, object_ids ${SEEDED} ORDER BY id`).all(params) as Array<{
      user_token: string;
      timestamp: number;
      object_ids: string;
    }>;
    ctx.db.prepare(`DELETE ${SEEDED}`).run(params);
    const events = rows.map(
      (row): ValidEvent => ({
        eventType: 'conversion',
        eventName: DEMO_EVENT_NAME,
        index: indexName,
        userToken: row.user_token,
        timestamp: row.timestamp + days * DAY,
        objectIDs: JSON.parse(row.object_ids) as string[],
      }),
    );
    for (let i = 0; i < events.length; i += 1000)
      store.append(events.slice(i, i + 1000), { receivedAt: seeded_at, emit: false });
  })();
  return days;
}
