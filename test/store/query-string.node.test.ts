/**
 * The URL state round-trips exactly: property-style, over generated states (seeded, so a failure is
 * reproducible), with awkward strings — reserved URL characters, brackets, `+`, `%`, spaces, unicode,
 * empty strings, names like `__proto__` — and awkward numbers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { createSearchStore, emptyState, queryStringToState, stateToQueryString } from '../../src/store/index.js';
import type { IndexState } from '../../src/store/types.js';

/** mulberry32: small seeded PRNG. */
function prng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  'a',
  'b',
  'Z',
  '0',
  ' ',
  '+',
  '%',
  '&',
  '=',
  '?',
  '#',
  '[',
  ']',
  ':',
  ',',
  '-',
  '"',
  '\\',
  '/',
  'é',
  '日',
  '😀',
  '%20',
  '\n',
];
const NAMES = [
  'brand',
  'color',
  'price',
  'a b',
  'x[y]',
  'q',
  'page',
  '__proto__',
  'constructor',
  '1',
  'refinementList[brand]',
  'é',
];
const NUMBERS = [0, -0, 1, -1, 0.5, 1e21, -3.25e-7, Number.MAX_SAFE_INTEGER, 42];
const OPERATORS = ['=', '!=', '<', '<=', '>', '>='] as const;

function generate(random: () => number, baseIndex: string): IndexState {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const text = (max: number) => Array.from({ length: Math.floor(random() * (max + 1)) }, () => pick(ALPHABET)).join('');
  const uniqueTexts = (n: number) => [...new Set(Array.from({ length: n }, () => text(6)))];
  const refinements = () => {
    const entries: Array<[string, string[]]> = [];
    for (const name of NAMES) if (random() < 0.2) entries.push([name, uniqueTexts(1 + Math.floor(random() * 3))]);
    return Object.fromEntries(entries);
  };
  const numeric: Array<[string, IndexState['numericRefinements'][string]]> = [];
  for (const name of NAMES) {
    if (random() < 0.15)
      numeric.push([
        name,
        Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
          operator: pick(OPERATORS),
          value: pick(NUMBERS),
        })),
      ]);
  }
  const state: IndexState = {
    ...emptyState(random() < 0.2 ? `${baseIndex}_price_asc` : baseIndex),
    query: text(10),
    page: random() < 0.5 ? 0 : Math.floor(random() * 50),
    facetRefinements: refinements(),
    disjunctiveFacetRefinements: refinements(),
    numericRefinements: Object.fromEntries(numeric),
    tagRefinements: random() < 0.3 ? uniqueTexts(2) : [],
    ruleContexts: random() < 0.2 ? [text(5), text(5)] : [],
  };
  if (random() < 0.3) state.hitsPerPage = Math.floor(random() * 100);
  return state;
}

/** Names of added indices: usual ones and ones with the characters the key escapes (`%`, `.`, `[`, `]`). */
const INDEX_NAMES = [
  'articles',
  'products_price_asc',
  'a.b',
  'x[y]',
  '100%',
  '%2E',
  'q',
  'refinementList[brand]',
  '__proto__',
  'é 日',
  'a..b.',
  '][',
];

/** A state with added indices (nested up to `depth`), each generated like the root. */
function generateTree(random: () => number, baseIndex: string, depth: number): IndexState {
  const state = generate(random, baseIndex);
  if (depth > 0 && random() < 0.7) {
    const names = [
      ...new Set(
        Array.from(
          { length: 1 + Math.floor(random() * 3) },
          () => INDEX_NAMES[Math.floor(random() * INDEX_NAMES.length)]!,
        ),
      ),
    ];
    state.indices = Object.fromEntries(names.map((name) => [name, generateTree(random, name, depth - 1)]));
  }
  return state;
}

describe('URL state', () => {
  test('fromQueryString(toQueryString(state)) equals state for 2000 generated states', () => {
    const random = prng(20261122);
    for (let i = 0; i < 2000; i++) {
      const state = generate(random, 'products');
      const query = stateToQueryString(state, 'products');
      assert.doesNotThrow(() => new URL(`https://example.org/search?${query}`));
      // Through a real URL, as a router does.
      const parsed = queryStringToState(new URL(`https://example.org/search?${query}`).search, 'products');
      assert.deepStrictEqual(parsed, state, `round trip #${i}: ${query}`);
      assert.equal(stateToQueryString(parsed, 'products'), query);
    }
  });

  test('with added indices (nested, awkward names): the round trip is exact for 1000 generated states', () => {
    const random = prng(20260607);
    let added = 0;
    for (let i = 0; i < 1000; i++) {
      const state = generateTree(random, 'products', 2);
      added += Object.keys(state.indices ?? {}).length;
      const query = stateToQueryString(state, 'products');
      const parsed = queryStringToState(new URL(`https://example.org/search?${query}`).search, 'products');
      assert.deepStrictEqual(parsed, state, `round trip #${i}: ${query}`);
      assert.equal(stateToQueryString(parsed, 'products'), query);
    }
    assert.ok(added > 1000, `${added} added indices generated`);
  });

  test('added indices: readable prefixed keys, escaped names, q always present, keys without q ignored', () => {
    const state: IndexState = {
      ...emptyState('products'),
      query: 'tv',
      indices: {
        articles: {
          ...emptyState('articles'),
          query: 'tv',
          page: 1,
          disjunctiveFacetRefinements: { author: ['Ann'] },
          indices: { comments: emptyState('comments') },
        },
        'a.b[c]%': emptyState('a.b[c]%'),
      },
    };
    const query = stateToQueryString(state, 'products');
    assert.equal(
      query,
      'q=tv&articles.q=tv&articles.page=2&articles.refinementList[author]=Ann&articles.comments.q=&a%252Eb%255Bc%255D%2525.q=',
    );
    assert.deepStrictEqual(queryStringToState(query, 'products'), state);
    assert.deepStrictEqual(queryStringToState('q=tv&blog.page=3&utm.source=x&.q=1', 'products'), {
      ...emptyState('products'),
      query: 'tv',
    });
  });

  test('readable form: q, 1-based page, refinementList, numeric, sortBy', () => {
    const state: IndexState = {
      ...emptyState('products'),
      query: 'red shoes',
      page: 2,
      disjunctiveFacetRefinements: { brand: ['Acme', 'B&O'] },
      facetRefinements: { kind: ['phone'] },
      numericRefinements: { price: [{ operator: '>=', value: 10 }] },
    };
    assert.equal(
      stateToQueryString(state, 'products'),
      'q=red+shoes&page=3&refinementList[brand]=Acme&refinementList[brand]=B%26O&facets[kind]=phone&numeric[price]=%3E%3D10',
    );
    assert.equal(stateToQueryString(emptyState('products'), 'products'), '');
    assert.equal(stateToQueryString({ ...emptyState('products_desc') }, 'products'), 'sortBy=products_desc');
  });

  test('hand-edited URLs: invalid parts are ignored, not thrown on', () => {
    const state = queryStringToState(
      '?page=zero&page=-2&hitsPerPage=1.5&numeric[price]=~3&numeric[x]=>abc&unknown=1&refinementList[brand]=A',
      'products',
    );
    assert.deepStrictEqual(state, { ...emptyState('products'), disjunctiveFacetRefinements: { brand: ['A'] } });
  });

  test('the store: initial state from a query string, toQueryString and createURL', () => {
    const client = createClient({ appId: 'A', apiKey: 'k', hosts: ['http://127.0.0.1:9'] });
    const store = createSearchStore({
      client,
      indexName: 'products',
      initialState: '?q=tv&page=2&refinementList[brand]=LG',
    });
    try {
      assert.equal(store.getSnapshot().state.query, 'tv');
      assert.equal(store.getSnapshot().state.page, 1);
      assert.equal(store.toQueryString(), 'q=tv&page=2&refinementList[brand]=LG');
      assert.equal(
        store.createURL((s) => ({ ...s, page: 4 })),
        '?q=tv&page=5&refinementList[brand]=LG',
      );
      assert.deepStrictEqual(store.fromQueryString(store.toQueryString()), store.getSnapshot().state);
      assert.equal(store.getSnapshot().state.page, 1, 'createURL does not change the state');
    } finally {
      store.dispose();
    }
  });
});
