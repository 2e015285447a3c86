// Engine index API: search for facet values, browse with a cursor, settings validation and defaults,
// parameter validation, and writes (replace, delete, clear, incremental adds, re-indexing).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, Index, parseSearchParams } from '../../src/engine/index.js';
import { manyWordsStats } from '../../src/engine/many-words.js';
import { oneWordAnswers } from '../../src/engine/one-word.js';
import { WARM_UP_AT, warmUpRuns } from '../../src/engine/warm-up.js';

function is400(pattern: RegExp) {
  return (e: unknown) => e instanceof EngineError && e.status === 400 && pattern.test(e.message);
}

describe('search for facet values', () => {
  const index = new Index('sffv');
  index.setSettings({ attributesForFaceting: ['searchable(brand)', 'category'] });
  index.saveObjects([
    { objectID: '1', name: 'lamp', brand: 'Acme Lighting', category: 'Home' },
    { objectID: '2', name: 'lamp', brand: 'Acme Lighting', category: 'Office' },
    { objectID: '3', name: 'desk', brand: 'Acorn <b>', category: 'Office' },
    { objectID: '4', name: 'desk', brand: 'Bolt Lighting', category: 'Office' },
    { objectID: '5', name: 'chair', brand: 'Crème Co', category: 'Home' },
  ]);

  it('finds values by word prefix, ordered by count, highlighted and escaped', () => {
    const r = index.searchForFacetValues('brand', 'ac');
    assert.deepEqual(r.facetHits, [
      { value: 'Acme Lighting', highlighted: '<em>Ac</em>me Lighting', count: 2 },
      { value: 'Acorn <b>', highlighted: '<em>Ac</em>orn &lt;b&gt;', count: 1 },
    ]);
    assert.deepEqual(
      index.searchForFacetValues('brand', 'light').facetHits.map((h) => h.value),
      ['Acme Lighting', 'Bolt Lighting'],
    );
    assert.deepEqual(
      index.searchForFacetValues('brand', 'creme').facetHits.map((h) => h.value),
      ['Crème Co'],
    );
    assert.equal(index.searchForFacetValues('brand', '').facetHits.length, 4);
  });

  it('counts honour the other search parameters', () => {
    const r = index.searchForFacetValues('brand', 'ac', { filters: 'category:Office' });
    assert.deepEqual(
      r.facetHits.map((h) => [h.value, h.count]),
      [
        ['Acme Lighting', 1],
        ['Acorn <b>', 1],
      ],
    );
    const q = index.searchForFacetValues('brand', 'l', { query: 'desk' });
    assert.deepEqual(
      q.facetHits.map((h) => [h.value, h.count]),
      [['Bolt Lighting', 1]],
    );
  });

  it('honours maxFacetHits (1 to 100)', () => {
    assert.equal(index.searchForFacetValues('brand', '', {}, 1).facetHits.length, 1);
    assert.throws(() => index.searchForFacetValues('brand', '', {}, 101), is400(/maxFacetHits/));
  });

  it('is a 400 unless the facet is searchable(...)', () => {
    assert.throws(() => index.searchForFacetValues('category', 'ho'), is400(/searchable\(category\)/));
    assert.throws(() => index.searchForFacetValues('nope', 'x'), is400(/searchable\(nope\)/));
  });
});

describe('browse', () => {
  const index = new Index('browse');
  index.setSettings({ customRanking: ['desc(n)'], attributeForDistinct: 'group', distinct: true });
  index.saveObjects(
    Array.from({ length: 2500 }, (_, i) => ({
      objectID: String(i),
      name: i % 5 ? 'lamp' : 'desk',
      n: i,
      group: 'same',
    })),
  );

  it('returns every record, 1,000 at most a call, in custom ranking order; no cursor at the end', () => {
    const seen: string[] = [];
    let r = index.browse({});
    assert.equal(r.hits.length, 1000);
    assert.equal(r.nbHits, 2500);
    assert.equal(r.hits[0]!.objectID, '2499');
    assert.ok(r.cursor);
    seen.push(...r.hits.map((h) => h.objectID));
    let calls = 1;
    while (r.cursor) {
      r = index.browse({}, r.cursor);
      seen.push(...r.hits.map((h) => h.objectID));
      calls++;
    }
    assert.equal(calls, 3);
    assert.equal(r.cursor, undefined);
    assert.equal(new Set(seen).size, 2500);
    assert.deepEqual(seen.slice(0, 3), ['2499', '2498', '2497']);
  });

  it('keeps the query, filters and hitsPerPage of the first call in the cursor (distinct ignored)', () => {
    const first = index.browse({ query: 'desk', filters: 'n < 1000', hitsPerPage: 150 });
    assert.equal(first.nbHits, 200);
    assert.equal(first.hits.length, 150);
    const second = index.browse({}, first.cursor);
    assert.equal(second.hits.length, 50);
    assert.ok(second.hits.every((h) => Number(h.objectID) % 5 === 0 && Number(h.objectID) < 1000));
    assert.equal(second.cursor, undefined);
  });

  it('refuses a bad cursor and more than 1000 a call', () => {
    assert.throws(() => index.browse({}, 'not-a-cursor'), is400(/cursor/));
    assert.throws(() => index.browse({ hitsPerPage: 5000 }), is400(/hitsPerPage/));
  });
});

describe('settings', () => {
  it('getSettings returns every setting with its default', () => {
    const s = new Index('s').getSettings();
    assert.deepEqual(s.ranking, ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom']);
    assert.equal(s.hitsPerPage, 20);
    assert.equal(s.minWordSizefor1Typo, 4);
    assert.equal(s.minWordSizefor2Typos, 8);
    assert.equal(s.paginationLimitedTo, 1000);
    assert.equal(s.maxValuesPerFacet, 100);
    assert.equal(s.highlightPreTag, '<em>');
    assert.equal(s.snippetEllipsisText, '…');
    assert.equal(s.typoTolerance, true);
    assert.equal(s.ignorePlurals, false);
  });

  it('wrong types are 400s naming the setting', () => {
    const index = new Index('s');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ searchableAttributes: 'name' }, /searchableAttributes/],
      [{ searchableAttributes: ['unordered()'] }, /searchableAttributes/],
      [{ attributesForFaceting: ['searchabel(brand)'] }, /attributesForFaceting/],
      [{ customRanking: ['popularity'] }, /customRanking/],
      [{ ranking: ['typo', 'speed'] }, /ranking/],
      [{ hitsPerPage: 1001 }, /hitsPerPage/],
      [{ hitsPerPage: '20' }, /hitsPerPage/],
      [{ typoTolerance: 'sometimes' }, /typoTolerance/],
      [{ minWordSizefor1Typo: 2.5 }, /minWordSizefor1Typo/],
      [{ ignorePlurals: 'yes' }, /ignorePlurals/],
      [{ distinct: 'true' }, /distinct/],
      [{ attributeForDistinct: 3 }, /attributeForDistinct/],
      [{ attributesToSnippet: ['body:many'] }, /attributesToSnippet/],
      [{ highlightPreTag: 1 }, /highlightPreTag/],
      [{ paginationLimitedTo: -1 }, /paginationLimitedTo/],
    ];
    for (const [partial, message] of cases)
      assert.throws(() => index.setSettings(partial), is400(message), JSON.stringify(partial));
    assert.throws(() => index.setSettings([] as never), is400(/object/));
  });

  it('applies partially, keeps unknown keys, resets with null', () => {
    const index = new Index('s');
    index.setSettings({ hitsPerPage: 5, replicas: ['x'] });
    index.setSettings({ maxValuesPerFacet: 7 });
    assert.equal(index.getSettings().hitsPerPage, 5);
    assert.equal(index.getSettings().maxValuesPerFacet, 7);
    assert.deepEqual(index.getSettings().replicas, ['x']);
    index.setSettings({ hitsPerPage: null });
    assert.equal(index.getSettings().hitsPerPage, 20);
  });

  it('getSetting returns one setting (its default when unset) as a copy', () => {
    const index = new Index('s');
    assert.equal(index.getSetting('hitsPerPage'), 20);
    assert.deepEqual(index.getSetting('unretrievableAttributes'), []);
    assert.equal(index.getSetting('renderingContent'), undefined);
    const renderingContent = { facetOrdering: { facets: { order: ['brand'] } } };
    index.setSettings({ unretrievableAttributes: ['cost'], renderingContent });
    const hidden = index.getSetting('unretrievableAttributes');
    assert.deepEqual(hidden, ['cost']);
    hidden.push('price');
    (index.getSetting('renderingContent') as typeof renderingContent).facetOrdering.facets.order.push('color');
    assert.deepEqual(index.getSetting('unretrievableAttributes'), ['cost']);
    assert.deepEqual(index.getSettings().renderingContent, renderingContent);
    assert.deepEqual(index.getSetting('renderingContent'), { facetOrdering: { facets: { order: ['brand'] } } });
  });

  it('changing searchableAttributes re-indexes', () => {
    const index = new Index('s');
    index.saveObjects([{ objectID: '1', name: 'lamp', brand: 'acme' }]);
    assert.equal(index.search({ query: 'acme' }).nbHits, 1);
    index.setSettings({ searchableAttributes: ['name'] });
    assert.equal(index.search({ query: 'acme' }).nbHits, 0);
    assert.equal(index.search({ query: 'lamp' }).nbHits, 1);
    index.setSettings({ searchableAttributes: ['brand'] });
    assert.equal(index.search({ query: 'acme' }).nbHits, 1);
  });
});

describe('search parameters', () => {
  it('parses URL-encoded strings with types, arrays as JSON or comma lists', () => {
    const p = parseSearchParams(
      'query=a+b&page=2&getRankingInfo=true&facets=brand,category&attributesToRetrieve=%5B%22name%22%5D&typoTolerance=min&distinct=2&similarQuery=x',
    );
    assert.deepEqual(p, {
      query: 'a b',
      page: 2,
      getRankingInfo: true,
      facets: ['brand', 'category'],
      attributesToRetrieve: ['name'],
      typoTolerance: 'min',
      distinct: 2,
      similarQuery: 'x',
    });
  });

  it('an unknown parameter is a 400 naming it, in an object, a params string and a URL-encoded string', () => {
    assert.throws(() => parseSearchParams({ hitPerPage: 5 }), is400(/^Unknown parameter: hitPerPage$/));
    assert.throws(() => parseSearchParams({ params: 'filter=brand:X' }), is400(/^Unknown parameter: filter$/));
    assert.throws(() => parseSearchParams('query=a&__proto__=x'), is400(/^Unknown parameter: __proto__$/));
    assert.throws(() => parseSearchParams({ constructor: 'x' }), is400(/^Unknown parameter: constructor$/));
  });

  it('merges a params string under explicit keys of an object', () => {
    assert.deepEqual(parseSearchParams({ params: 'query=x&page=1', page: 3 }), { query: 'x', page: 3 });
  });

  it('wrong types are 400s naming the parameter', () => {
    assert.throws(() => parseSearchParams({ page: 'two' }), is400(/"page"/));
    assert.throws(() => parseSearchParams({ facets: [1] }), is400(/"facets"/));
    assert.throws(() => parseSearchParams({ facetFilters: [[1]] }), is400(/"facetFilters"/));
    assert.throws(() => parseSearchParams('hitsPerPage=x'), is400(/"hitsPerPage"/));
    assert.throws(() => parseSearchParams({ query: {} }), is400(/"query"/));
    assert.throws(() => parseSearchParams({ typoTolerance: 'maybe' }), is400(/"typoTolerance"/));
    assert.throws(() => parseSearchParams('facets=%5Bbad'), is400(/"facets": malformed JSON/));
  });
});

describe('writes', () => {
  it('replace removes the old words, delete and clear remove records, settings survive clear', () => {
    const index = new Index('w');
    index.setSettings({ hitsPerPage: 3 });
    index.saveObjects([
      { objectID: '1', name: 'old lamp' },
      { objectID: '2', name: 'desk' },
    ]);
    index.saveObjects([{ objectID: '1', name: 'new lamp' }]);
    assert.equal(index.size, 2);
    assert.equal(index.search({ query: 'old' }).nbHits, 0);
    assert.equal(index.search({ query: 'new' }).nbHits, 1);
    assert.deepEqual(index.getObject('1'), { objectID: '1', name: 'new lamp' });
    index.deleteObjects(['2', 'missing']);
    assert.equal(index.size, 1);
    assert.equal(index.search({ query: 'desk' }).nbHits, 0);
    assert.deepEqual(
      [...index.objects()].map((o) => o.objectID),
      ['1'],
    );
    index.clear();
    assert.equal(index.size, 0);
    assert.equal(index.search({}).nbHits, 0);
    assert.equal(index.getSettings().hitsPerPage, 3);
  });

  it('refuses records without a string objectID', () => {
    const index = new Index('w');
    assert.throws(() => index.saveObjects([{ name: 'x' } as never]), is400(/objectID/));
    assert.throws(() => index.saveObjects([null as never]), is400(/object/));
  });

  it('incremental writes after a large load are visible at once (their cost is measured by npm run bench, not here)', () => {
    const index = new Index('w');
    index.saveObjects(Array.from({ length: 20000 }, (_, i) => ({ objectID: String(i), name: `item ${i} lamp`, n: i })));
    index.search({ query: 'lamp' });
    for (let i = 0; i < 200; i++) {
      index.saveObjects([{ objectID: `x${i}`, name: `zebra${i} lamp`, n: -i }]);
      assert.equal(index.search({ query: `zebra${i}`, typoTolerance: false, queryType: 'prefixNone' }).nbHits, 1);
    }
    for (let i = 0; i < 10000; i++) index.deleteObjects([String(i)]);
    assert.equal(index.search({ query: 'lamp' }).nbHits, 10200);
    assert.equal(index.search({ query: 'item', filters: 'n < 5' }).nbHits, 0);
  });
});

describe('warm-up', () => {
  it('the first write that makes an index large compiles the search code once per process, changing nothing', () => {
    const records = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ objectID: `${prefix}${i}`, name: `item ${i % 97} ${prefix}` }));
    const small = new Index('small');
    small.saveObjects(records('s', 1000));
    assert.equal(warmUpRuns(), 0);
    const large = new Index('large');
    large.saveObjects(records('a', WARM_UP_AT - 1));
    assert.equal(warmUpRuns(), 0, 'below the size: no warm-up');
    const oneWordBefore = oneWordAnswers();
    const manyWordsBefore = manyWordsStats();
    large.saveObjects(records('b', 1));
    assert.equal(warmUpRuns(), 1, 'the write that reaches the size runs it');
    assert.ok(oneWordAnswers() > oneWordBefore, 'the warm-up runs the one-word path on bits too');
    const manyWords = manyWordsStats();
    assert.ok(manyWords.answers >= manyWordsBefore.answers + 40, 'and the walk of several words');
    assert.ok(manyWords.atBound > manyWordsBefore.atBound, 'its walk stopping on the bound');
    assert.ok(manyWords.added > manyWordsBefore.added, 'and its threshold pass');
    const other = new Index('other');
    other.saveObjects(records('c', WARM_UP_AT));
    assert.equal(warmUpRuns(), 1, 'once per process');
    // the large index answers as if nothing happened
    assert.equal(large.search({ query: 'item', hitsPerPage: 0 }).nbHits, large.size);
    assert.equal(large.search({ query: 'b', typoTolerance: false, queryType: 'prefixNone' }).nbHits, 1);
  });
});
