// Engine filters: every form of the filter syntax, the array forms (facetFilters, numericFilters,
// tagFilters), string-encoded parameters, and 400 errors with clear messages on bad filter strings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, Index, parseFilters, parseSearchParams } from '../../src/engine/index.js';

const index = new Index('filters');
index.setSettings({
  attributesForFaceting: ['brand', 'category', 'filterOnly(price)', 'inStock', 'meta.color', '_tags'],
});
index.saveObjects([
  {
    objectID: 'a',
    name: 'lamp',
    brand: 'Acme',
    category: 'Home & Garden',
    price: 5,
    inStock: true,
    _tags: ['sale', 'new'],
    meta: { color: 'red' },
  },
  {
    objectID: 'b',
    name: 'lamp',
    brand: 'Bolt',
    category: 'Office',
    price: 10,
    inStock: false,
    _tags: ['sale'],
    meta: { color: 'blue' },
  },
  {
    objectID: 'c',
    name: 'lamp',
    brand: 'Big Co',
    category: 'Office',
    price: 15.5,
    inStock: true,
    _tags: [],
    meta: { color: 'red' },
  },
  {
    objectID: 'd',
    name: 'lamp',
    brand: 'acme',
    category: 'Home & Garden',
    price: 20,
    inStock: true,
    meta: { color: 'green' },
  },
  { objectID: 'e', name: 'lamp', brand: ['Acme', 'Bolt'], category: 'Kids', price: [30, 40], inStock: false },
]);

function ids(params: Record<string, unknown>): string[] {
  return index
    .search({ query: '', hitsPerPage: 100, ...params })
    .hits.map((h) => h.objectID)
    .sort();
}

describe('filters string', () => {
  it('attr:value (case-insensitive), quoted values and quoted attributes', () => {
    assert.deepEqual(ids({ filters: 'brand:Acme' }), ['a', 'd', 'e']);
    assert.deepEqual(ids({ filters: 'brand:ACME' }), ['a', 'd', 'e']);
    assert.deepEqual(ids({ filters: 'brand:"Big Co"' }), ['c']);
    assert.deepEqual(ids({ filters: "category:'Home & Garden'" }), ['a', 'd']);
    assert.deepEqual(ids({ filters: '"brand":Bolt' }), ['b', 'e']);
  });

  it('nested attributes', () => {
    assert.deepEqual(ids({ filters: 'meta.color:red' }), ['a', 'c']);
  });

  it('numeric comparisons < <= = != >= >', () => {
    assert.deepEqual(ids({ filters: 'price < 10' }), ['a']);
    assert.deepEqual(ids({ filters: 'price <= 10' }), ['a', 'b']);
    assert.deepEqual(ids({ filters: 'price = 15.5' }), ['c']);
    assert.deepEqual(ids({ filters: 'price != 10' }), ['a', 'c', 'd', 'e']);
    assert.deepEqual(ids({ filters: 'price >= 20' }), ['d', 'e']);
    assert.deepEqual(ids({ filters: 'price>35' }), ['e']);
    assert.deepEqual(ids({ filters: 'price > -1 AND price < 6' }), ['a']);
  });

  it('ranges attr:a TO b (inclusive) and numeric equality with attr:value', () => {
    assert.deepEqual(ids({ filters: 'price:10 TO 20' }), ['b', 'c', 'd']);
    assert.deepEqual(ids({ filters: 'price:35 TO 100' }), ['e']);
    assert.deepEqual(ids({ filters: 'price:10' }), ['b']);
  });

  it('_tags and boolean values', () => {
    assert.deepEqual(ids({ filters: '_tags:sale' }), ['a', 'b']);
    assert.deepEqual(ids({ filters: '_tags:new' }), ['a']);
    assert.deepEqual(ids({ filters: 'inStock:true' }), ['a', 'c', 'd']);
    assert.deepEqual(ids({ filters: 'inStock:false' }), ['b', 'e']);
    assert.deepEqual(ids({ filters: 'inStock = 1' }), ['a', 'c', 'd']);
  });

  it('AND, OR, NOT and parentheses with precedence', () => {
    assert.deepEqual(ids({ filters: 'brand:Acme AND category:Office' }), []);
    assert.deepEqual(ids({ filters: 'brand:Bolt OR category:Office' }), ['b', 'c', 'e']);
    assert.deepEqual(ids({ filters: 'NOT brand:Acme' }), ['b', 'c']);
    assert.deepEqual(ids({ filters: 'category:Office AND NOT _tags:sale' }), ['c']);
    // AND binds tighter than OR
    assert.deepEqual(ids({ filters: 'brand:Bolt OR brand:Acme AND price > 15' }), ['b', 'd', 'e']);
    assert.deepEqual(ids({ filters: '(brand:Bolt OR brand:Acme) AND price > 15' }), ['d', 'e']);
    assert.deepEqual(ids({ filters: 'NOT (brand:Bolt OR brand:Acme)' }), ['c']);
    assert.deepEqual(ids({ filters: '(price < 6 OR price > 35) AND (inStock:true OR _tags:sale)' }), ['a']);
  });

  it('operators are upper case; lower-case words are values', () => {
    const local = new Index('kw');
    local.saveObjects([
      { objectID: '1', word: 'to' },
      { objectID: '2', word: 'and' },
    ]);
    assert.deepEqual(
      local
        .search({ filters: 'word:to OR word:and' })
        .hits.map((h) => h.objectID)
        .sort(),
      ['1', '2'],
    );
    assert.throws(() => local.search({ filters: 'word:to or word:and' }), /Unexpected token "or"/);
  });

  it('an unknown value or attribute matches nothing (not an error)', () => {
    assert.deepEqual(ids({ filters: 'brand:Nope' }), []);
    assert.deepEqual(ids({ filters: 'weight > 3' }), []);
  });

  it('bad filter strings are 400 EngineErrors with a message saying what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['brand:', /expected a value after "brand:"/],
      ['(brand:Acme', /expected "\)"/],
      ['brand:Acme)', /Unexpected token "\)" at col 11/],
      ['price < abc', /Invalid numeric value "abc"/],
      ['AND brand:Acme', /Unexpected token "AND" at col 1/],
      ['brand:Acme AND', /Unexpected end of input/],
      ['brand:Acme OR OR brand:Bolt', /Unexpected token "OR"/],
      ['brand:"Acme', /Unterminated quoted string/],
      ['price:1 TO', /expected a number after TO/],
      ['price:a TO 3', /Invalid numeric value "a"/],
      ['brand Acme', /expected ":" or a comparison operator/],
      ['price ! 3', /Unexpected character "!"/],
    ];
    for (const [filters, message] of cases) {
      assert.throws(
        () => index.search({ filters }),
        (error: unknown) =>
          error instanceof EngineError &&
          error.status === 400 &&
          message.test(error.message) &&
          error.message.startsWith('filters:'),
        filters,
      );
    }
  });

  it('parses into a tree', () => {
    assert.deepEqual(parseFilters('a:1 OR NOT b < 2'), {
      type: 'or',
      children: [
        { type: 'facet', attribute: 'a', value: '1' },
        { type: 'not', child: { type: 'numeric', attribute: 'b', op: '<', value: 2 } },
      ],
    });
  });
});

describe('facetFilters, numericFilters, tagFilters', () => {
  it('facetFilters: AND of entries, nested arrays are OR, -value negates', () => {
    assert.deepEqual(ids({ facetFilters: ['brand:Acme'] }), ['a', 'd', 'e']);
    assert.deepEqual(ids({ facetFilters: ['brand:Acme', 'category:Kids'] }), ['e']);
    assert.deepEqual(ids({ facetFilters: [['brand:Bolt', 'brand:Big Co']] }), ['b', 'c', 'e']);
    assert.deepEqual(ids({ facetFilters: [['category:Office', 'category:Kids'], 'brand:-Bolt'] }), ['c']);
    assert.deepEqual(ids({ facetFilters: 'brand:Bolt' }), ['b', 'e']);
    assert.deepEqual(ids({ facetFilters: ['category:Home & Garden'] }), ['a', 'd']);
  });

  it('numericFilters: comparisons and ranges, nested arrays are OR', () => {
    assert.deepEqual(ids({ numericFilters: ['price<10'] }), ['a']);
    assert.deepEqual(ids({ numericFilters: ['price>=10', 'price<=15.5'] }), ['b', 'c']);
    assert.deepEqual(ids({ numericFilters: [['price<6', 'price>35']] }), ['a', 'e']);
    assert.deepEqual(ids({ numericFilters: ['price:10 TO 20'] }), ['b', 'c', 'd']);
    assert.throws(() => ids({ numericFilters: ['brand:Acme'] }), /numericFilters: .* is not a numeric filter/);
  });

  it('tagFilters: AND of entries, nested arrays are OR, -tag negates', () => {
    assert.deepEqual(ids({ tagFilters: ['sale'] }), ['a', 'b']);
    assert.deepEqual(ids({ tagFilters: ['sale', 'new'] }), ['a']);
    assert.deepEqual(ids({ tagFilters: [['new', 'sale']] }), ['a', 'b']);
    assert.deepEqual(ids({ tagFilters: ['-sale'] }), ['c', 'd', 'e']);
  });

  it('all filter parameters combine with AND', () => {
    assert.deepEqual(ids({ filters: 'price < 25', facetFilters: ['brand:Acme'], tagFilters: ['sale'] }), ['a']);
  });

  it('URL-encoded parameters (JSON arrays and comma lists)', () => {
    const params = parseSearchParams(
      `facetFilters=${encodeURIComponent('[["brand:Bolt","brand:Big Co"]]')}&numericFilters=price%3E9,price%3C16&filters=NOT%20category%3AKids`,
    );
    assert.deepEqual(params.numericFilters, ['price>9', 'price<16']);
    assert.deepEqual(ids(params), ['b', 'c']);
  });

  it('filters combine with a text query', () => {
    const r = index.search({ query: 'lamp', filters: 'brand:Bolt' });
    assert.equal(r.nbHits, 2);
  });

  it('matchingObjectIDs uses filters only and refuses no filter', () => {
    assert.deepEqual(index.matchingObjectIDs({ filters: 'category:Office', query: 'nothing-matches-this' }).sort(), [
      'b',
      'c',
    ]);
    assert.throws(
      () => index.matchingObjectIDs({}),
      (e: unknown) => e instanceof EngineError && e.status === 400,
    );
  });

  it('filters see writes (cache invalidated)', () => {
    const local = new Index('f2');
    local.saveObjects([{ objectID: '1', brand: 'X' }]);
    assert.equal(local.search({ filters: 'brand:X' }).nbHits, 1);
    local.saveObjects([{ objectID: '2', brand: 'X' }]);
    assert.equal(local.search({ filters: 'brand:X' }).nbHits, 2);
    local.saveObjects([{ objectID: '1', brand: 'Y' }]);
    assert.equal(local.search({ filters: 'brand:X' }).nbHits, 1);
    local.deleteObjects(['2']);
    assert.equal(local.search({ filters: 'brand:X' }).nbHits, 0);
    assert.equal(local.search({ filters: 'NOT brand:X' }).nbHits, 1);
  });
});
