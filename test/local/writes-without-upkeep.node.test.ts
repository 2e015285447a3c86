/**
 * The browser worker's engine without the upkeep of sorted structures (`src/engine/upkeep.ts`, which only
 * `svc-search/engine` installs): this file runs in a process of its own that imports only `IndexCore`, as the worker
 * does. The worker builds each index in one write; an `IndexCore` still takes later writes (replacements, new
 * records, new facet values) after reads built its custom ranking's order and a facet's alphabetical order: they are
 * dropped and built again, and the postings of each write stay in a segment of their own. Its answers are those of
 * an index built in one write from the same records in the same order. What the queries need beyond the search
 * path (the filters) is loaded as the worker loads it before a request (`loadForRequests`).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { optionalFeature } from '../../src/engine/features.js';
import { IndexCore, type IndexRecord } from '../../src/engine/index-core.js';
import type { IndexState } from '../../src/engine/index-state.js';
import { loadForRequests } from '../../src/local/on-demand.js';

const SETTINGS = {
  searchableAttributes: ['name', 'brand'],
  attributesForFaceting: ['brand', 'price'],
  customRanking: ['desc(popularity)'],
};
const BRANDS = ['Acme', 'Bolt', 'Crest', 'Dune', 'Ember'];

function record(i: number, round: number): IndexRecord {
  return {
    objectID: `r${i}`,
    name: `${['oak', 'pine', 'birch'][i % 3]} ${['chair', 'table', 'shelf', 'lamp'][(i + round) % 4]} ${i}`,
    // every round brings brands no earlier record had (new facet values into the alphabetical order)
    brand: round === 0 ? BRANDS[i % BRANDS.length]! : `${BRANDS[i % BRANDS.length]} ${round}`,
    price: (i * 7) % 50,
    // ties on purpose: records of equal popularity rank by insertion
    popularity: (i * 13 + round) % 10,
  };
}

const QUERIES: Array<Record<string, unknown>> = [
  { query: '', facets: ['brand', 'price'], sortFacetValuesBy: 'alpha', maxValuesPerFacet: 100, hitsPerPage: 50 },
  { query: '', facets: ['brand'], maxValuesPerFacet: 3, hitsPerPage: 1000 },
  { query: 'oak chair', facets: ['brand'], sortFacetValuesBy: 'alpha' },
  { query: 'tabel', hitsPerPage: 30 },
  { query: 'pine', filters: 'price < 20', hitsPerPage: 40 },
];

/** A search's answer as JSON (the order of facet values counts, which a deep equality of objects ignores). */
function answer(index: IndexCore, params: Record<string, unknown>): string {
  const { processingTimeMS: _time, ...rest } = index.search(params) as unknown as Record<string, unknown>;
  return JSON.stringify(rest);
}

describe('an IndexCore without the engine’s upkeep (the browser worker’s)', () => {
  before(() => loadForRequests(QUERIES));

  it('answers after writes that follow reads as an index built in one write from the same records', () => {
    assert.equal(optionalFeature('upkeep'), undefined, 'this process has not installed the upkeep');
    const index = new IndexCore('live');
    index.applyValidSettings(SETTINGS);
    // the records in the order of their last write (a replaced record goes last, as its new internal id does)
    const latest = new Map<string, IndexRecord>();
    const write = (records: IndexRecord[]) => {
      index.saveObjects(records);
      for (const r of records) {
        latest.delete(r.objectID);
        latest.set(r.objectID, r);
      }
    };
    write(Array.from({ length: 300 }, (_, i) => record(i, 0)));
    for (let round = 1; round <= 4; round++) {
      // reads build the custom ranking's order and the brands' alphabetical order...
      for (const params of QUERIES) index.search(params);
      // ...then a write replaces some records and adds new ones
      write([
        ...Array.from({ length: 40 }, (_, k) => record(k * 7 + round, round)),
        ...Array.from({ length: 25 }, (_, k) => record(300 + round * 25 + k, round)),
      ]);
    }
    const segments = (index as unknown as { state: IndexState }).state.postings.segments.length;
    assert.ok(segments > 1, `the writes' postings stay in segments of their own (${segments})`);

    const built = new IndexCore('built');
    built.beginBatch();
    built.applyValidSettings(SETTINGS);
    built.saveObjects([...latest.values()]);
    built.endBatch();
    assert.equal(index.size, built.size);
    for (const params of QUERIES) assert.equal(answer(index, params), answer(built, params), JSON.stringify(params));
  });
});
