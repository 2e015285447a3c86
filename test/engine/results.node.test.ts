// Engine results: facets and facets_stats over the whole result set, distinct, pagination (page and
// offset/length, paginationLimitedTo), highlighting with escaping, snippets, attributes to retrieve,
// ranking info, parsed_query and params.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError, Index } from '../../src/engine/index.js';
import type { HighlightResult, SnippetResult } from '../../src/client/types.js';

function catalogue(count: number): Index {
  const index = new Index('results');
  index.setSettings({
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['brand', 'category', 'price', 'filterOnly(secret)'],
    customRanking: ['desc(popularity)'],
  });
  index.saveObjects(
    Array.from({ length: count }, (_, i) => ({
      objectID: String(i),
      name: `chair model ${i}`,
      brand: ['Acme', 'Bolt', 'Core'][i % 3]!,
      category: i % 2 ? 'Odd' : 'Even',
      price: i + 1,
      popularity: i,
      secret: 'x',
    })),
  );
  return index;
}

describe('facets', () => {
  const index = catalogue(90);

  it('counts over the whole result set, not the page', () => {
    const r = index.search({ query: 'chair', hitsPerPage: 5, facets: ['brand', 'category'] });
    assert.equal(r.hits.length, 5);
    assert.equal(r.nbHits, 90);
    assert.deepEqual(r.facets, { brand: { Acme: 30, Bolt: 30, Core: 30 }, category: { Even: 45, Odd: 45 } });
    assert.equal(r.exhaustiveNbHits, true);
  });

  it('counts honour the query and filters', () => {
    const r = index.search({ query: 'chair', filters: 'price <= 10', facets: ['brand'] });
    assert.deepEqual(r.facets, { brand: { Acme: 4, Bolt: 3, Core: 3 } });
  });

  it("'*' gives every facet except filterOnly ones; undeclared facets are ignored", () => {
    const r = index.search({ facets: ['*'], hitsPerPage: 0 });
    assert.deepEqual(Object.keys(r.facets!).sort(), ['brand', 'category', 'price']);
    const u = index.search({ facets: ['name', 'secret'], hitsPerPage: 0 });
    assert.equal(u.facets, undefined);
  });

  it('maxValuesPerFacet keeps the most frequent values (count desc, then value)', () => {
    const r = index.search({ facets: ['price'], maxValuesPerFacet: 3, filters: 'price <= 5' });
    assert.deepEqual(Object.keys(r.facets!.price!), ['1', '2', '3']);
    const s = index.search({ facets: ['brand'], maxValuesPerFacet: 1, filters: 'price <= 4' });
    assert.deepEqual(s.facets, { brand: { Acme: 2 } });
  });

  it("sortFacetValuesBy 'alpha' orders the kept values by name", () => {
    const r = index.search({ facets: ['brand'], sortFacetValuesBy: 'alpha', filters: 'price <= 4' });
    assert.deepEqual(Object.entries(r.facets!.brand!), [
      ['Acme', 2],
      ['Bolt', 1],
      ['Core', 1],
    ]);
    assert.throws(
      () => index.search({ facets: ['brand'], sortFacetValuesBy: 'random' }),
      /^EngineError: Invalid value for parameter "sortFacetValuesBy": expected 'count' or 'alpha', got "random"$/,
    );
  });

  it('top values of a high-cardinality facet equal a full sort (count desc, then value), also after writes', () => {
    const big = new Index('big-facet');
    big.setSettings({ attributesForFaceting: ['v'] });
    let seed = 1;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const make = (i: number) => ({ objectID: String(i), v: `v${Math.floor(rand() * rand() * 3000)}` });
    big.saveObjects(Array.from({ length: 20000 }, (_, i) => make(i)));
    const expected = () => {
      const counts = new Map<string, number>();
      for (const o of big.objects()) counts.set(o.v as string, (counts.get(o.v as string) ?? 0) + 1);
      return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 250));
    };
    assert.deepEqual(big.search({ facets: ['v'], maxValuesPerFacet: 250 }).facets!.v, expected());
    big.saveObjects(Array.from({ length: 500 }, (_, i) => ({ objectID: `n${i}`, v: `new${i % 7}` })));
    assert.deepEqual(big.search({ facets: ['v'], maxValuesPerFacet: 250 }).facets!.v, expected());
  });

  it('facets_stats for numeric facets over the result set', () => {
    const r = index.search({ facets: ['price', 'brand'], filters: 'price:1 TO 4' });
    assert.deepEqual(r.facets_stats, { price: { min: 1, max: 4, avg: 2.5, sum: 10 } });
  });

  it('array values count once per record and value', () => {
    const multi = new Index('m');
    multi.setSettings({ attributesForFaceting: ['tags'] });
    multi.saveObjects([
      { objectID: '1', tags: ['a', 'b', 'a'] },
      { objectID: '2', tags: ['b'] },
    ]);
    assert.deepEqual(multi.search({ facets: ['tags'] }).facets, { tags: { b: 2, a: 1 } });
  });

  it('a number and its text are one value, whichever comes first (the text of a number is made when read)', () => {
    const nums = new Index('n');
    nums.setSettings({ attributesForFaceting: ['price'] });
    nums.saveObjects([
      { objectID: '1', price: 12.5 },
      { objectID: '2', price: '12.5' },
      { objectID: '3', price: [7, 12.5] },
      { objectID: '4', price: 7 },
    ]);
    assert.deepEqual(nums.search({ facets: ['price'] }).facets, { price: { '12.5': 3, '7': 2 } });
    assert.deepEqual(nums.search({ filters: 'price:12.5' }).nbHits, 3);
    assert.deepEqual(nums.search({ facetFilters: ['price:7'] }).nbHits, 2);
    // a number first seen after the texts were made, then its text as a string
    nums.saveObjects([{ objectID: '5', price: 3 }]);
    nums.saveObjects([{ objectID: '6', price: '3' }]);
    // and a string first, then the number
    nums.saveObjects([{ objectID: '7', price: '40' }]);
    nums.saveObjects([{ objectID: '8', price: 40 }]);
    assert.deepEqual(nums.search({ facets: ['price'] }).facets, { price: { '12.5': 3, '3': 2, '40': 2, '7': 2 } });
    assert.deepEqual(nums.search({ facets: ['price'], sortFacetValuesBy: 'alpha' }).facets, {
      price: { '12.5': 3, '3': 2, '40': 2, '7': 2 },
    });
    assert.deepEqual(nums.search({ filters: 'price:3' }).nbHits, 2);
  });
});

describe('distinct', () => {
  const index = new Index('distinct');
  index.setSettings({ attributeForDistinct: 'group', customRanking: ['desc(rank)'] });
  index.saveObjects([
    { objectID: '1', name: 'shirt red', group: 'shirt', rank: 1 },
    { objectID: '2', name: 'shirt blue', group: 'shirt', rank: 3 },
    { objectID: '3', name: 'shirt green', group: 'shirt', rank: 2 },
    { objectID: '4', name: 'shirt dress', group: 'dress', rank: 0 },
    { objectID: '5', name: 'shirt plain' },
  ]);

  it('keeps the best record per group with distinct true', () => {
    const r = index.search({ query: 'shirt', distinct: true });
    // custom ranking: rank desc, records without a rank last
    assert.deepEqual(
      r.hits.map((h) => h.objectID),
      ['2', '4', '5'],
    );
    assert.equal(r.nbHits, 3);
  });

  it('keeps N per group with distinct N, and all without distinct', () => {
    assert.deepEqual(
      index.search({ query: 'shirt', distinct: 2 }).hits.map((h) => h.objectID),
      ['2', '3', '4', '5'],
    );
    assert.equal(index.search({ query: 'shirt' }).nbHits, 5);
  });

  it('works as a setting', () => {
    index.setSettings({ distinct: 1 });
    assert.equal(index.search({ query: 'shirt' }).nbHits, 3);
    assert.equal(index.search({ query: 'shirt', distinct: false }).nbHits, 5);
    index.setSettings({ distinct: null });
  });
});

describe('pagination', () => {
  const index = catalogue(45);

  it('page and hitsPerPage, nbPages; default hitsPerPage 20', () => {
    const first = index.search({});
    assert.equal(first.hitsPerPage, 20);
    assert.equal(first.nbPages, 3);
    const last = index.search({ page: 2 });
    assert.equal(last.hits.length, 5);
    assert.equal(last.page, 2);
    assert.deepEqual(
      last.hits.map((h) => h.objectID),
      ['4', '3', '2', '1', '0'],
    );
    assert.equal(index.search({ page: 3 }).hits.length, 0);
    assert.equal(index.search({ hitsPerPage: 7 }).nbPages, 7);
  });

  it('offset and length', () => {
    const r = index.search({ offset: 3, length: 4 });
    assert.deepEqual(
      r.hits.map((h) => h.objectID),
      ['41', '40', '39', '38'],
    );
    assert.equal(r.offset, 3);
    assert.equal(r.length, 4);
  });

  it('paginationLimitedTo caps reachable hits and nbPages', () => {
    index.setSettings({ paginationLimitedTo: 25 });
    const r = index.search({ page: 1 });
    assert.equal(r.hits.length, 5);
    assert.equal(r.nbPages, 2);
    assert.equal(r.nbHits, 45);
    assert.equal(index.search({ page: 2 }).hits.length, 0);
    index.setSettings({ paginationLimitedTo: null });
  });

  it('hitsPerPage above 1000 or negative page is a 400', () => {
    assert.throws(
      () => index.search({ hitsPerPage: 1001 }),
      (e: unknown) => e instanceof EngineError && e.status === 400 && /hitsPerPage/.test(e.message),
    );
    assert.throws(() => index.search({ page: -1 }), /page/);
    assert.throws(() => index.search({ hitsPerPage: 'many' as unknown as number }), /hitsPerPage/);
  });
});

describe('highlighting and snippets', () => {
  const index = new Index('hl');
  index.setSettings({ searchableAttributes: ['name', 'tags', 'meta.title', 'description'] });
  index.saveObjects([
    {
      objectID: '1',
      name: '<script>alert("chair")</script> Chair & Co',
      tags: ['wooden', 'chair', 'other'],
      meta: { title: 'Comfy chair', size: 3 },
      description: 'A solid oak chair for the dining room, made by hand in a small workshop near the sea.',
      secret: 'chair',
    },
  ]);

  it('escapes every record value; only the highlight tags are markup', () => {
    const h = index.search({ query: 'chair' }).hits[0]!;
    const name = h._highlightResult!.name as HighlightResult;
    assert.equal(name.value, '&lt;script&gt;alert(&quot;<em>chair</em>&quot;)&lt;/script&gt; <em>Chair</em> &amp; Co');
    assert.equal(name.matchLevel, 'full');
    assert.deepEqual(name.matchedWords, ['chair']);
    assert.equal(name.fullyHighlighted, false);
    assert.ok(!/<(?!\/?em>)/.test(name.value), 'no tag other than <em>');
  });

  it('highlights the matched prefix of the last word only', () => {
    const h = index.search({ query: 'cha' }).hits[0]!;
    assert.equal((h._highlightResult!.meta as Record<string, HighlightResult>).title.value, 'Comfy <em>cha</em>ir');
  });

  it('keeps the original characters when highlighting across diacritics and case', () => {
    const local = new Index('diacritics');
    local.saveObjects([{ objectID: '1', name: 'Crème BRÛLÉE à la Straße' }]);
    const hl = (query: string) => (local.search({ query }).hits[0]!._highlightResult!.name as HighlightResult).value;
    assert.equal(hl('creme'), '<em>Crème</em> BRÛLÉE à la Straße');
    assert.equal(hl('creme bru'), '<em>Crème</em> <em>BRÛ</em>LÉE à la Straße');
    assert.equal(hl('strasse'), 'Crème BRÛLÉE à la <em>Straße</em>');
    assert.equal(hl('stras'), 'Crème BRÛLÉE à la <em>Straß</em>e');
  });

  it('arrays and nested objects, match levels none/partial/full, fullyHighlighted', () => {
    const h = index.search({ query: 'wooden chair' }).hits[0]!;
    const tags = h._highlightResult!.tags as HighlightResult[];
    assert.deepEqual(
      tags.map((t) => [t.value, t.matchLevel, t.fullyHighlighted]),
      [
        ['<em>wooden</em>', 'partial', true],
        ['<em>chair</em>', 'partial', true],
        ['other', 'none', undefined],
      ],
    );
    const meta = h._highlightResult!.meta as Record<string, HighlightResult>;
    assert.equal(meta.title.matchLevel, 'partial');
    assert.deepEqual(meta.title.matchedWords, ['chair']);
    const full = index.search({ query: 'comfy chair' }).hits[0]!;
    const title = (full._highlightResult!.meta as Record<string, HighlightResult>).title;
    assert.equal(title.matchLevel, 'full');
    assert.equal(title.fullyHighlighted, true);
  });

  it('custom highlight tags and attributesToHighlight', () => {
    const h = index.search({
      query: 'oak',
      highlightPreTag: '<mark>',
      highlightPostTag: '</mark>',
      attributesToHighlight: ['description'],
    }).hits[0]!;
    assert.deepEqual(Object.keys(h._highlightResult!), ['description']);
    assert.match((h._highlightResult!.description as HighlightResult).value, /A solid <mark>oak<\/mark> chair/);
  });

  it('snippets N words around the first match with the ellipsis', () => {
    const h = index.search({ query: 'workshop', attributesToSnippet: ['description:4'] }).hits[0]!;
    const s = h._snippetResult!.description as SnippetResult;
    assert.equal(s.value, '…small <em>workshop</em> near the…');
    assert.equal(s.matchLevel, 'full');
    const custom = index.search({ query: 'solid', attributesToSnippet: ['description:3'], snippetEllipsisText: '...' })
      .hits[0]!;
    assert.equal((custom._snippetResult!.description as SnippetResult).value, 'A <em>solid</em> oak...');
    const star = index.search({ query: 'workshop', attributesToSnippet: ['*:2'] }).hits[0]!;
    assert.deepEqual(Object.keys(star._snippetResult!).sort(), ['description', 'meta', 'name', 'secret', 'tags']);
    assert.equal((star._snippetResult!.description as SnippetResult).value, '…<em>workshop</em> near…');
    const whole = index.search({ query: 'comfy', attributesToSnippet: ['name:50'] }).hits[0]!;
    assert.equal(
      (whole._snippetResult!.name as SnippetResult).value,
      '&lt;script&gt;alert(&quot;chair&quot;)&lt;/script&gt; Chair &amp; Co',
    );
  });

  it('attributesToRetrieve and unretrievableAttributes (also kept out of highlights)', () => {
    const h = index.search({
      query: 'chair',
      attributesToRetrieve: ['name', 'meta.size'],
      attributesToHighlight: ['*'],
    }).hits[0]!;
    assert.deepEqual(
      Object.keys(h)
        .filter((k) => !k.startsWith('_'))
        .sort(),
      ['meta', 'name', 'objectID'],
    );
    assert.deepEqual(h.meta, { size: 3 });
    index.setSettings({ unretrievableAttributes: ['secret'] });
    const u = index.search({ query: 'chair', attributesToHighlight: ['*'] }).hits[0]!;
    assert.equal(u.secret, undefined);
    assert.equal(u._highlightResult!.secret, undefined);
    const minus = index.search({ query: 'chair', attributesToRetrieve: ['*', '-description'] }).hits[0]!;
    assert.equal(minus.description, undefined);
    assert.ok(minus.name);
    index.setSettings({ unretrievableAttributes: [] });
  });
});

describe('response fields', () => {
  it('getRankingInfo has the seven documented fields; params and parsed_query', () => {
    const index = catalogue(3);
    const r = index.search({ query: 'Chair  MODEL', getRankingInfo: true, hitsPerPage: 2 });
    assert.deepEqual(Object.keys(r.hits[0]!._rankingInfo!).sort(), [
      'firstMatchedWord',
      'geoDistance',
      'geoPrecision',
      'nbExactWords',
      'nbTypos',
      'proximityDistance',
      'userScore',
    ]);
    for (const v of Object.values(r.hits[0]!._rankingInfo!)) assert.ok(Number.isInteger(v));
    assert.equal(r.parsed_query, 'chair model');
    assert.equal(r.query, 'Chair  MODEL');
    assert.equal(r.params, 'query=Chair%20%20MODEL&getRankingInfo=true&hitsPerPage=2');
    assert.equal(typeof r.processingTimeMS, 'number');
    assert.equal(index.search({ params: 'query=chair&hitsPerPage=1' }).hits.length, 1);
  });
});
