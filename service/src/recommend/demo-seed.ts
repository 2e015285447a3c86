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
import type { OrderLine } from '../datasets/superstore.js';
import type { Catalog } from '../indices/catalog.js';
import { newEvent } from '../insights/events.js';
import { type ValidEvent, validateEvent } from '../insights/validate.js';
import type { EventStore } from '../storage/types.js';

/** What seeding and refreshing the demo history use. */
export interface DemoSeedDependencies {
  /** The event storage (the seed mark, the seeded events). */
  eventStore: EventStore;
  catalog: Catalog;
}

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
    if (!order) {
      order = { date: line.orderDate, customerId: line.customerId, productIds: [] };
      orders.set(line.orderId, order);
    }
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
export async function isSeeded(
  { eventStore }: Pick<DemoSeedDependencies, 'eventStore'>,
  indexName: string,
): Promise<boolean> {
  return (await eventStore.demoSeed(indexName)) !== undefined;
}

/**
 * Seeds the demo history into the event store unless it was done before for this index. Returns the number
 * of events written (0 when already seeded or when `indexName` does not hold the catalogue of the lines).
 */
export async function seedDemoHistory(
  deps: DemoSeedDependencies,
  indexName: string,
  orderLines: readonly OrderLine[],
  now = Date.now(),
): Promise<number> {
  if (await isSeeded(deps, indexName)) return 0;
  const index = deps.catalog.get(indexName);
  if (!index) return 0;
  // Only the catalogue of these order lines: most of their products must be records of the index.
  const productIds = new Set(orderLines.map((line) => line.productId));
  let found = 0;
  for (const id of productIds) if (index.getObject(id)) found++;
  if (productIds.size === 0 || found < productIds.size * 0.9) return 0;
  const events = orderLinesToEvents(orderLines, indexName, now).map((event, i) =>
    newEvent(validateEvent(event, i, { checkAge: false }), now, undefined),
  );
  return deps.eventStore.seedDemo(indexName, events, now);
}

/** The time of the latest seeded demo event of `indexName` (undefined when none). */
export async function latestDemoEvent(
  { eventStore }: Pick<DemoSeedDependencies, 'eventStore'>,
  indexName: string,
): Promise<number | undefined> {
  const events = await eventStore.demoEvents(indexName, DEMO_EVENT_NAME);
  let latest: number | undefined;
  for (const event of events) if (latest === undefined || event.timestamp > latest) latest = event.timestamp;
  return latest;
}

/**
 * Keeps the demo history recent: when the latest seeded event of `indexName` is older than yesterday, moves
 * every seeded event (never another event) forward by whole days so the latest is yesterday again, in one
 * transaction (the rows are replaced, so their duplicate fingerprints follow the new times; same count, same
 * order, same time of receipt). Returns the number of days moved (0: already recent, or nothing seeded). The
 * caller rebuilds the models (`Recommender.reset()`): the events are not emitted again.
 *
 * @example
 * await refreshDemoHistory(deps, 'products') // 40 after 41 days with the data directory kept, then 0
 */
export async function refreshDemoHistory(
  { eventStore }: Pick<DemoSeedDependencies, 'eventStore'>,
  indexName: string,
  now = Date.now(),
): Promise<number> {
  const seed = await eventStore.demoSeed(indexName);
  if (!seed) return 0;
  const seeded = await eventStore.demoEvents(indexName, DEMO_EVENT_NAME);
  if (seeded.length === 0) return 0;
  const latest = Math.max(...seeded.map((event) => event.timestamp));
  const days = Math.floor(now / DAY) - 1 - Math.floor(latest / DAY);
  if (days <= 0) return 0;
  const moved = seeded.map((row) => {
    const event: ValidEvent = {
      eventType: 'conversion',
      eventName: DEMO_EVENT_NAME,
      index: indexName,
      userToken: row.userToken,
      timestamp: row.timestamp + days * DAY,
      objectIDs: row.objectIDs ?? [],
    };
    return newEvent(event, seed.seededAt, undefined);
  });
  await eventStore.replaceDemoEvents(indexName, DEMO_EVENT_NAME, moved);
  return days;
}
