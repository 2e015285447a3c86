/**
 * Shared setup of the A/B test suites (`http-abtests*.node.test.ts`): the small shop indexed under every
 * index name the scenarios use, the documented assignment hash written again, and callers that assert 200.
 *
 * The service's clock is injected (`createService({ now })`): A/B status, endAt and the recorded search
 * times follow it. It stays near the real time because Insights checks event timestamps on the real clock.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { index, type Running, SEARCH_KEY, SMALL_SHOP } from './service-helpers.js';

export const DAY = 86_400_000;
export const RECORDS = SMALL_SHOP.records;
export const SETTINGS = SMALL_SHOP.settings;

/** Every index name the A/B test scenarios use; each suite indexes all of them. */
const INDICES = [
  'shop',
  'shop_b',
  'other',
  'solo',
  'expiry_a',
  'expiry_b',
  'stop_a',
  'stop_b',
  'm_a',
  'm_b',
  'sig_a',
  'sig_b',
  'restricted',
];

/**
 * Indexes the small shop under every index name the scenarios use.
 *
 * @example
 * svc = await startService({ now });
 * await indexShops(svc);
 */
export async function indexShops(svc: Running): Promise<void> {
  for (const name of INDICES) await index(svc, name, RECORDS, SETTINGS);
}

/**
 * The assignment as docs/notes/analytics.md documents it, written again here: bucket = first 4 bytes of
 * SHA-256("abTestID\0user") as an unsigned integer mod 100; below the first variant's share → variant 1.
 *
 * @example
 * expectedVariant(3, 'user-7', 70); // 1 or 2
 */
export function expectedVariant(abTestID: number, user: string, firstPercentage: number): 1 | 2 {
  const bucket = createHash('sha256').update(`${abTestID}\u0000${user}`).digest().readUInt32BE(0) % 100;
  return bucket < firstPercentage ? 1 : 2;
}

/**
 * `count` user tokens that the documented hash puts in `variant` of the test.
 *
 * @example
 * const [a] = usersIn(id, 1, 50, 1, 'exp');
 */
export function usersIn(
  abTestID: number,
  variant: 1 | 2,
  firstPercentage: number,
  count: number,
  prefix: string,
): string[] {
  const users: string[] = [];
  for (let i = 0; users.length < count; i += 1) {
    const user = `${prefix}-${i}`;
    if (expectedVariant(abTestID, user, firstPercentage) === variant) users.push(user);
  }
  return users;
}

/**
 * The `variants` of a create body: `a` the current ranking, `b` the new one (with `extraB`).
 *
 * @example
 * variants('shop', 'shop_b', { customSearchParameters: { filters: 'brand:Acme' } }, [70, 30]);
 */
export const variants = (
  a: string,
  b: string,
  extraB: Record<string, unknown> = {},
  percentages: [number, number] = [50, 50],
) => [
  { index: a, trafficPercentage: percentages[0], description: 'current ranking' },
  { index: b, trafficPercentage: percentages[1], description: 'new ranking', ...extraB },
];

/** The metrics of a variant before any search. */
export const NULL_METRICS = {
  averageClickPosition: null,
  clickCount: null,
  clickThroughRate: null,
  conversionCount: null,
  conversionRate: null,
  noResultCount: null,
  searchCount: null,
  trackedSearchCount: null,
  userCount: null,
};

/**
 * The calls the A/B test suites make, each asserting 200, on the service `running()` gives (read at call
 * time: the suites start it in `before`).
 *
 * @example
 * const { create, search, events, getTest } = abTestCalls(() => svc);
 */
export function abTestCalls(running: () => Running) {
  async function create(body: Record<string, unknown>): Promise<{ abTestID: number; taskID: number; index: string }> {
    const answer = await running().call('POST', '/2/abtests', body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  }

  async function search(
    indexName: string,
    params: Record<string, unknown>,
    options: { key?: string; headers?: Record<string, string> } = {},
  ) {
    const answer = await running().call('POST', `/1/indexes/${indexName}/query`, params, {
      key: options.key ?? SEARCH_KEY,
      headers: options.headers ?? {},
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as {
      nbHits: number;
      hits: Array<{ objectID: string; brand: string }>;
      queryID?: string;
      abTestID?: number;
      abTestVariantID?: number;
      hitsPerPage: number;
    };
  }

  async function events(list: Array<Record<string, unknown>>) {
    const answer = await running().call('POST', '/1/events', { events: list }, { key: SEARCH_KEY });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  async function getTest(id: number) {
    const answer = await running().call('GET', `/2/abtests/${id}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  }

  return { create, search, events, getTest };
}
