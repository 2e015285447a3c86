/**
 * The demo catalogue's shop attributes and rule (`--demo`): `rating` (stars from the share of a product's
 * order lines sold at a profit) and `sameDayShipping` (shipped "Same Day" at least once), worked out here from
 * the superstore CSV itself (not from the loader's code); both are facets; the "chairs" rule answers a banner
 * and its facet order; the index's own facet order otherwise.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { superstoreCsvPath } from '../src/datasets/superstore.js';
import { SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
const asSearch = { key: SEARCH_KEY };

/** Per Product ID: order lines, lines with a profit, and whether one was shipped the same day. */
function fromTheCsv(): Map<string, { lines: number; profitable: number; sameDay: boolean }> {
  const rows = parse(readFileSync(superstoreCsvPath(), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  const out = new Map<string, { lines: number; profitable: number; sameDay: boolean }>();
  for (const row of rows) {
    const id = row['Product ID']!;
    const product = out.get(id) ?? { lines: 0, profitable: 0, sameDay: false };
    product.lines += 1;
    if (Number.parseFloat(row.Profit!) > 0) product.profitable += 1;
    if (row['Ship Mode'] === 'Same Day') product.sameDay = true;
    out.set(id, product);
  }
  return out;
}

before(async () => {
  svc = await startService({ demo: true });
});
after(() => svc.stop());

test('every product has its rating (1 + 4 × profitable share, rounded) and sameDayShipping from the CSV', async () => {
  const expected = fromTheCsv();
  const seen = new Map<string, { rating: number; sameDayShipping: boolean }>();
  let cursor: string | undefined;
  do {
    const page = await svc.ok('POST', '/1/indexes/products/browse', {
      attributesToRetrieve: ['rating', 'sameDayShipping'],
      hitsPerPage: 1000,
      ...(cursor ? { cursor } : {}),
    });
    for (const hit of page.hits) seen.set(hit.objectID, hit);
    cursor = page.cursor;
  } while (cursor);
  assert.equal(seen.size, expected.size);
  const histogram: Record<number, number> = {};
  for (const [id, { lines, profitable, sameDay }] of expected) {
    const record = seen.get(id)!;
    assert.equal(record.rating, Math.round(1 + (4 * profitable) / lines), id);
    assert.equal(record.sameDayShipping, sameDay, id);
    histogram[record.rating] = (histogram[record.rating] ?? 0) + 1;
  }
  // Every star count is used (the rating menu has something under each).
  assert.deepEqual(Object.keys(histogram), ['1', '2', '3', '4', '5']);
});

test('rating and sameDayShipping are facets; rating filters numerically', async () => {
  const expected = [...fromTheCsv().values()];
  const answer = await svc.ok(
    'POST',
    '/1/indexes/products/query',
    { facets: ['rating', 'sameDayShipping'], hitsPerPage: 0 },
    asSearch,
  );
  assert.equal(answer.facets.sameDayShipping.true, expected.filter((p) => p.sameDay).length);
  assert.equal(answer.facets_stats.rating.min, 1);
  assert.equal(answer.facets_stats.rating.max, 5);
  const fourAndUp = await svc.ok(
    'POST',
    '/1/indexes/products/query',
    { numericFilters: ['rating>=4'], hitsPerPage: 0 },
    asSearch,
  );
  assert.equal(fourAndUp.nbHits, expected.filter((p) => Math.round(1 + (4 * p.profitable) / p.lines) >= 4).length);
});

test('the "chairs" rule shows a banner and puts brands first; other queries keep the index order', async () => {
  const chairs = await svc.ok('POST', '/1/indexes/products/query', { query: 'chairs', hitsPerPage: 1 }, asSearch);
  assert.equal(chairs.userData.length, 1);
  assert.equal(chairs.userData[0].title, 'Sit well, work well');
  assert.deepEqual(chairs.appliedRules, [{ objectID: 'chairs-banner' }]);
  assert.equal(chairs.renderingContent.facetOrdering.facets.order[0], 'brand');
  const tables = await svc.ok('POST', '/1/indexes/products/query', { query: 'tables', hitsPerPage: 1 }, asSearch);
  assert.equal(tables.userData, undefined);
  assert.deepEqual(tables.renderingContent.facetOrdering.facets.order, [
    'hierarchicalCategories.lvl0',
    'brand',
    'price',
    'rating',
    'sameDayShipping',
  ]);
});
