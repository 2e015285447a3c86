/**
 * `--demo` creates the Query Suggestions configuration `products_query_suggestions` (source `products`,
 * query-suggestions/demo-hook.ts) once per database, and its first build makes suggestions ranked by the
 * real order history. The expected suggestions are worked out here from the superstore data itself, not
 * from the hook's code: the combinations (sub-category, category, brand, brand + sub-category) of the
 * products, each with the orders of its products.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadSuperstore } from '../src/datasets/superstore.js';
import { SEARCH_KEY, startService, tempDir, type Running } from './service-helpers.js';

const SUGGESTIONS = 'products_query_suggestions';
const dataDir = tempDir();
let svc: Running;

interface Status {
  isRunning: boolean;
  lastBuiltAt: string | null;
  lastSuccessfulBuiltAt: string | null;
}

/** Waits until the configuration's status shows a finished build (one other than `after`'s, when given). */
async function builtStatus(running: Running, after?: string | null): Promise<Status> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await running.ok<Status>('GET', `/1/configs/${SUGGESTIONS}/status`);
    if (!status.isRunning && status.lastBuiltAt && status.lastBuiltAt !== after) return status;
    if (Date.now() > deadline) throw new Error(`no build of ${SUGGESTIONS}: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The generated queries of the data (lower case), each with its number of products and their orders. */
function combinationsOfTheData(): Map<string, { products: number; orders: number; category: string }> {
  const combos = new Map<string, { products: number; orders: number; category: string }>();
  for (const product of loadSuperstore().products) {
    for (const query of [
      product.subCategory,
      product.category,
      product.brand,
      `${product.brand} ${product.subCategory}`,
    ]) {
      const key = query.toLowerCase();
      const combo = combos.get(key) ?? { products: 0, orders: 0, category: product.category };
      combo.products++;
      combo.orders += product.popularity;
      combos.set(key, combo);
    }
  }
  return combos;
}

interface Suggestion {
  query: string;
  popularity: number;
  products: {
    exact_nb_hits: number;
    facets: { exact_matches: Record<string, Array<{ value: string; count: number }>> };
  };
  _highlightResult: { query: { value: string } };
}

async function suggest(query: string, hitsPerPage = 5): Promise<{ nbHits: number; hits: Suggestion[] }> {
  const answer = await svc.call('POST', `/1/indexes/${SUGGESTIONS}/query`, { query, hitsPerPage }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

before(async () => {
  svc = await startService({ dataDir, demo: true });
});
after(() => svc.stop());

test('the demo creates the configuration at start and builds it successfully', async () => {
  const status = await builtStatus(svc);
  assert.equal(status.lastSuccessfulBuiltAt, status.lastBuiltAt, 'the first build succeeded');
  const config = await svc.ok('GET', `/1/configs/${SUGGESTIONS}`);
  assert.equal(config.sourceIndices[0].indexName, 'products');
  assert.deepEqual(config.sourceIndices[0].generate, [
    ['subCategory'],
    ['category'],
    ['brand'],
    ['brand', 'subCategory'],
  ]);
  const log: string = await (
    await fetch(`${svc.url}/1/logs/${SUGGESTIONS}`, {
      headers: { 'X-Service-Application-Id': 'SVCLOCAL', 'X-Service-API-Key': 'local-admin-key' },
    })
  ).text();
  assert.ok(!log.includes('"ERROR"'), log);
});

test('"pho": the phones suggestions, most ordered first, each in Technology, highlighted', async () => {
  await builtStatus(svc);
  // Every combination with a word starting with "pho", found on at least two products (minHits 2). Each
  // is one prefix match without typos, so the engine's `attribute` criterion decides first — the earlier
  // the matched word, the better ("phones" before "cisco phones" before "at&t phones", whose "at&t" is two
  // words) — then customRanking desc(popularity): the orders of its products.
  const position = (query: string) => query.split(/[^\p{L}\p{N}]+/u).findIndex((word) => word.startsWith('pho'));
  const expected = [...combinationsOfTheData()]
    .filter(([query, combo]) => combo.products >= 2 && position(query) >= 0)
    .sort(([q, a], [r, b]) => position(q) - position(r) || b.orders - a.orders)
    .slice(0, 5);
  assert.equal(expected[0]![0], 'phones');
  const { hits } = await suggest('pho');
  assert.deepEqual(
    hits.map((hit) => [hit.query, hit.popularity]),
    expected.map(([query, combo]) => [query, combo.orders]),
  );
  for (const hit of hits) {
    assert.equal(hit.products.facets.exact_matches.category![0]!.value, 'Technology', hit.query);
    assert.equal(hit.products.facets.exact_matches.subCategory![0]!.value, 'Phones', hit.query);
    assert.match(hit._highlightResult.query.value, /<em>pho<\/em>nes/);
  }
  // The top category's count is the suggestion's hits in it: at least the Phones products (every one is
  // found by "phones"), at most all the hits (a name such as "… for phones" can be in another category).
  const phones = hits[0]!;
  const technology = phones.products.facets.exact_matches.category![0]!.count;
  assert.ok(
    technology >= expected[0]![1].products && technology <= phones.products.exact_nb_hits,
    `${technology} of ${phones.products.exact_nb_hits}`,
  );
  assert.equal(phones.products.facets.exact_matches.subCategory![0]!.count, expected[0]![1].products);
});

test('"hon": the brand and its sub-categories before other brands starting with "hon"; sizes and one-product brands are left out', async () => {
  await builtStatus(svc);
  const combos = combinationsOfTheData();
  const hon = [...combos]
    .filter(([query, combo]) => combo.products >= 2 && (query === 'hon' || query.startsWith('hon ')))
    .sort(([, a], [, b]) => b.orders - a.orders);
  const { hits } = await suggest('hon', 20);
  // The exact word "hon" ranks before the prefix ("honeywell"), then the orders decide.
  assert.deepEqual(
    hits
      .slice(0, hon.length)
      .map((hit) => [hit.query, hit.popularity, hit.products.facets.exact_matches.category![0]!.value]),
    hon.map(([query, combo]) => [query, combo.orders, combo.category]),
  );
  assert.ok(hits.slice(hon.length).every((hit) => !hit.query.split(' ').includes('hon')));
  // exclude: "#10- Envelopes" names give no "#10-" suggestion; languages: "staples" folded into "staple".
  assert.equal((await suggest('#10')).hits.filter((hit) => hit.query.startsWith('#')).length, 0);
  assert.deepEqual(
    (await suggest('staple', 50)).hits.filter((hit) => hit.query === 'staples'),
    [],
  );
});

test('a restart keeps the configuration as edited and does not build again', async () => {
  const first = await builtStatus(svc);
  const config = await svc.ok('GET', `/1/configs/${SUGGESTIONS}`);
  config.sourceIndices[0].minHit = 3;
  await svc.ok('PUT', `/1/configs/${SUGGESTIONS}`, config);
  // The build the edit started, not the one before it: waiting only for "not running" could read the status
  // before that build was visible (a PostgreSQL run did once), and fails here if the edit never builds.
  const edited = await builtStatus(svc, first.lastBuiltAt);
  await svc.stop({ keepData: true });
  svc = await startService({ dataDir, demo: true });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const status = await svc.ok<Status>('GET', `/1/configs/${SUGGESTIONS}/status`);
  assert.equal(status.isRunning, false);
  assert.equal(status.lastBuiltAt, edited.lastBuiltAt, 'no build at start');
  assert.equal((await svc.ok('GET', `/1/configs/${SUGGESTIONS}`)).sourceIndices[0].minHit, 3);
  assert.equal((await suggest('pho')).hits[0]!.query, 'phones');
});
