/**
 * The search path's speed-ups for large indices (`src/engine/large-index.ts`) against the general code they stand
 * in for: this file runs in a process of its own that imports only `IndexCore`, as the browser worker does, so the
 * speed-ups are there only once it installs them (the worker installs them for an index of `LARGE_INDEX_AT` records
 * or more, the service always). On a Zipf corpus large enough for every one of them to act — a few very common
 * words, rare words next to them, many ties in the custom ranking, replaced records — every search answers the same
 * without them and with them, and an index whose custom order was built with them (a radix sort) the same as one
 * built without (a comparison sort).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installFeature, optionalFeature } from '../../src/engine/features.js';
import { IndexCore } from '../../src/engine/index-core.js';
import * as largeIndex from '../../src/engine/large-index.js';
import { loadForRequests } from '../../src/local/on-demand.js';
import { zipfProducts } from '../../service/src/datasets/synthetic.js';

const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category'],
  customRanking: ['desc(popularity)'],
};

/** 40,000 Zipf records, popularity in 7 values (ties), then 2,000 of them replaced by longer titles. */
function corpus(): Array<Record<string, unknown> & { objectID: string }>[] {
  const products = zipfProducts({ count: 40_000, seed: 11 }).map((p) => ({ ...p, popularity: p.popularity % 7 }));
  const replaced = products
    .slice(5_000, 7_000)
    .map((p, i) => ({ ...p, name: `${p.name} ${products[i]!.name}`, popularity: i % 5 }));
  return [products, replaced];
}

function build(writes: ReturnType<typeof corpus>, settings: Record<string, unknown> = SETTINGS): IndexCore {
  const index = new IndexCore('large');
  index.applyValidSettings(settings);
  for (const records of writes) index.saveObjects(records);
  return index;
}

/** Title words by the number of live records holding them, most common first. */
function wordsByCount(writes: ReturnType<typeof corpus>): Array<[string, number]> {
  const latest = new Map<string, string>();
  for (const records of writes) for (const record of records) latest.set(record.objectID, String(record.name));
  const counts = new Map<string, number>();
  for (const name of latest.values())
    for (const word of new Set(name.toLowerCase().split(' '))) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** The word with one letter changed in the middle (one typo). */
function typo(word: string): string {
  const at = Math.min(2, word.length - 1);
  return `${word.slice(0, at)}${word[at] === 'x' ? 'q' : 'x'}${word.slice(at + 1)}`;
}

function queriesOf(words: Array<[string, number]>, categories: string[]): Array<Record<string, unknown>> {
  const common = words.slice(0, 6).map(([word]) => word);
  const rare = words.filter(([, count]) => count >= 2 && count <= 20).map(([word]) => word);
  const texts = [
    '',
    ...common,
    ...common.map(typo),
    ...common.slice(0, 5).map((word, i) => `${word} ${common[i + 1]}`),
    ...common.slice(0, 4).map((word, i) => `${typo(word)} ${common[i + 2]}`),
    `${common[0]} ${common[1]} ${common[2]}`,
    `${common[1]} ${common[0]!.slice(0, 3)}`,
    // a rare word next to common ones: the others are matched on the rare word's records' tokens
    ...rare.slice(0, 6).map((word, i) => `${word} ${common[i % common.length]}`),
    ...rare.slice(0, 4).map((word, i) => `${word} ${typo(common[i]!)}`),
    `${common[0]} ${rare[7]} ${common[1]}`,
  ];
  return texts.flatMap((query) => [
    { query, facets: ['brand', 'category'], hitsPerPage: 20 },
    { query, page: 2, hitsPerPage: 50, facetFilters: [categories.map((category) => `category:${category}`)] },
  ]);
}

/** Every answer of the queries, as JSON (the order of hits and of facet values counts). */
function answers(index: IndexCore, queries: Array<Record<string, unknown>>): string[] {
  return queries.map((query) => {
    const { processingTimeMS: _time, ...rest } = index.search(query) as unknown as Record<string, unknown>;
    return JSON.stringify(rest);
  });
}

/** The speed-ups installed with a count of the calls in which each one did the work. */
function installCounted(): Record<string, number> {
  const used: Record<string, number> = {};
  const count = (name: string, didWork: boolean) => {
    if (didWork) used[name] = (used[name] ?? 0) + 1;
  };
  installFeature('largeIndex', {
    ...largeIndex,
    criterionKeys: (state, crit, ids, keys) => {
      count(crit.proximity ? 'proximityKeys' : 'criterionKeys', true);
      return largeIndex.criterionKeys(state, crit, ids, keys);
    },
    fusedKeys: (...args) => {
      const fused = largeIndex.fusedKeys(...args);
      count('fusedKeys', fused !== null);
      return fused;
    },
    walkBucket: (...args) => {
      const walked = largeIndex.walkBucket(...args);
      count('walkBucket', walked);
      return walked;
    },
    matchOnTokens: (...args) => {
      const matched = largeIndex.matchOnTokens(...args);
      count('matchOnTokens', matched);
      return matched;
    },
    keepsPositions: (...args) => {
      const keeps = largeIndex.keepsPositions(...args);
      count('keepsPositions', keeps);
      return keeps;
    },
    sortByNumber: (...args) => {
      const sorted = largeIndex.sortByNumber(...args);
      count('sortByNumber', sorted !== null);
      return sorted;
    },
  });
  return used;
}

describe('the search path’s speed-ups for large indices', () => {
  const writes = corpus();
  const categories = [...new Set(writes[0]!.slice(0, 50).map((record) => String(record.category)))].slice(0, 2);
  const queries = queriesOf(wordsByCount(writes), categories);
  // a sort criterion first, with many ties (prices repeat): its order walked bucket by bucket
  const sortFirst = { ...SETTINGS, ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact'] };
  let general: IndexCore;
  let generalAnswers: string[];
  let sortFirstAnswers: string[];

  before(async () => {
    await loadForRequests(queries);
    assert.equal(optionalFeature('largeIndex'), undefined, 'this process has not installed the speed-ups yet');
    general = build(writes);
    generalAnswers = answers(general, queries);
    sortFirstAnswers = answers(build(writes, sortFirst), queries);
  });

  it('answer every search as the general code does, on an index built with or without them', () => {
    const used = installCounted();
    const fresh = answers(build(writes), queries);
    const orderBuiltWithout = answers(general, queries);
    for (let i = 0; i < queries.length; i++) {
      assert.equal(fresh[i], generalAnswers[i], `built with the speed-ups: ${JSON.stringify(queries[i])}`);
      assert.equal(orderBuiltWithout[i], generalAnswers[i], `order built without them: ${JSON.stringify(queries[i])}`);
    }
    // each speed-up did the work of some of these searches (else this compares the general code with itself)
    for (const name of [
      'criterionKeys',
      'proximityKeys',
      'fusedKeys',
      'walkBucket',
      'matchOnTokens',
      'keepsPositions',
      'sortByNumber',
    ])
      assert.ok((used[name] ?? 0) > 0, `${name} answered none of the searches: ${JSON.stringify(used)}`);
  });

  it('order by a sort criterion first, with many ties, as the general code does', () => {
    const used = installCounted();
    assert.deepEqual(answers(build(writes, sortFirst), queries), sortFirstAnswers);
    assert.ok((used.walkBucket ?? 0) > 0 && (used.sortByNumber ?? 0) > 0, JSON.stringify(used));
  });
});
