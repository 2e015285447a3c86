// Engine ranking: one order case per tie-breaking criterion (typo, words, proximity, attribute, exact,
// custom), each with a custom ranking that would put the records the other way round, so that only
// the criterion under test can produce the expected order. Also the `ranking` setting's order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index } from '../../src/engine/index.js';

/** Records in the order given get increasing popularity, so desc(popularity) prefers the LAST one. */
function indexOf(records: Array<Record<string, unknown>>, settings: Record<string, unknown> = {}): Index {
  const index = new Index('ranking');
  index.setSettings({
    searchableAttributes: ['name', 'description'],
    customRanking: ['desc(popularity)'],
    ...settings,
  });
  index.saveObjects(records.map((r, i) => ({ objectID: String(i + 1), popularity: i, ...r })));
  return index;
}

function order(index: Index, query: string, extra: Record<string, unknown> = {}): string[] {
  return index.search({ query, ...extra }).hits.map((h) => h.objectID);
}

describe('ranking criteria', () => {
  it('typo: fewer typos first', () => {
    const index = indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }, { name: 'oak chaiorr' }]);
    assert.deepEqual(order(index, 'chair oak'), ['1', '2']);
    const info = index.search({ query: 'chair oak', getRankingInfo: true }).hits.map((h) => h._rankingInfo!.nbTypos);
    assert.deepEqual(info, [0, 1]);
  });

  it('typo: exact prefix matches of a common word rank before a one-typo match of the rare word typed', () => {
    // "chiar" is "chair" with two letters swapped (1 typo) and the start of "chiaroscuro" (a prefix:
    // 0 typos). Worked by hand through the default ranking:
    // - typo: 3 "oak chiaroscuro" and 4 "chiaroscuro oak" have 0 typos; 1 "oak chair" and 2 "oak
    //   chairs" (a prefix of it within 1 typo) have 1 typo — the prefix matches come first;
    // - proximity: 3 has the words in order, next to each other (1); 4 has them reversed (2);
    // - 1 and 2 tie on typo, words, proximity (1), attribute (0) and exact (only "oak": 1), so the
    //   custom ranking decides: 2 is the more popular.
    const index = indexOf([
      { name: 'oak chair' },
      { name: 'oak chairs' },
      { name: 'oak chiaroscuro' },
      { name: 'chiaroscuro oak' },
    ]);
    const answer = index.search({ query: 'oak chiar', getRankingInfo: true });
    assert.deepEqual(
      answer.hits.map((h) => h.objectID),
      ['3', '4', '2', '1'],
    );
    assert.deepEqual(
      answer.hits.map((h) => [
        h._rankingInfo!.nbTypos,
        h._rankingInfo!.proximityDistance,
        h._rankingInfo!.nbExactWords,
      ]),
      [
        [0, 1, 1],
        [0, 2, 1],
        [1, 1, 1],
        [1, 1, 1],
      ],
    );
  });

  it('words: more matched query words first (optional words)', () => {
    const index = indexOf([{ name: 'red wooden chair' }, { name: 'wooden chair' }, { name: 'chair' }]);
    assert.deepEqual(order(index, 'red wooden chair', { optionalWords: ['red', 'wooden'] }), ['1', '2', '3']);
    const words = new Index('w');
    words.setSettings({
      ranking: ['typo', 'proximity', 'attribute', 'exact', 'custom'],
      customRanking: ['desc(popularity)'],
    });
    words.saveObjects([
      { objectID: '1', name: 'red wooden chair', popularity: 0 },
      { objectID: '2', name: 'chair', popularity: 1 },
    ]);
    // without the words criterion the custom ranking decides
    assert.deepEqual(order(words, 'red wooden chair', { optionalWords: ['red', 'wooden'] }), ['2', '1']);
  });

  it('words: removeWordsIfNoResults relaxes the query when nothing matches all words', () => {
    const index = indexOf([{ name: 'wooden chair' }, { name: 'chair' }]);
    assert.deepEqual(order(index, 'red wooden chair'), []);
    assert.deepEqual(order(index, 'red wooden chair', { removeWordsIfNoResults: 'firstWords' }), ['1']);
    assert.deepEqual(order(index, 'wooden chair red', { removeWordsIfNoResults: 'lastWords' }), ['1']);
    assert.deepEqual(order(index, 'red wooden chair', { removeWordsIfNoResults: 'allOptional' }), ['1', '2']);
  });

  it('proximity: query words closer together first', () => {
    const index = indexOf([
      { name: 'wooden chair' },
      { name: 'wooden big old chair' },
      { name: 'chair made of old wooden planks' },
    ]);
    assert.deepEqual(order(index, 'wooden chair'), ['1', '2', '3']);
    const distances = index
      .search({ query: 'wooden chair', getRankingInfo: true })
      .hits.map((h) => h._rankingInfo!.proximityDistance);
    assert.deepEqual(distances, [1, 3, 5]);
  });

  it('attribute: a match in a more important attribute first', () => {
    const index = indexOf([
      { name: 'oak table', description: 'solid' },
      { name: 'table', description: 'solid oak' },
    ]);
    assert.deepEqual(order(index, 'oak'), ['1', '2']);
  });

  it('attribute: earlier position within an ordered attribute first; unordered(...) ignores it', () => {
    const records = [{ name: 'oak table' }, { name: 'big oak table' }];
    assert.deepEqual(order(indexOf(records), 'oak'), ['1', '2']);
    assert.deepEqual(order(indexOf(records, { searchableAttributes: ['unordered(name)'] }), 'oak'), ['2', '1']);
    const info = indexOf(records)
      .search({ query: 'oak', getRankingInfo: true })
      .hits.map((h) => h._rankingInfo!.firstMatchedWord);
    assert.deepEqual(info, [0, 1]);
  });

  it('attribute: comma-grouped attributes share one rank', () => {
    const records = [
      { name: 'table', description: 'oak' },
      { name: 'oak table', description: 'solid' },
    ];
    // same rank and position 0 in both: custom ranking (record 2 more popular) decides
    assert.deepEqual(order(indexOf(records, { searchableAttributes: ['name,description'] }), 'oak'), ['2', '1']);
    // ordered as separate attributes the name match wins
    assert.deepEqual(order(indexOf(records, { searchableAttributes: ['description', 'name'] }), 'oak'), ['1', '2']);
  });

  it('exact: whole-word matches before prefix matches', () => {
    const index = indexOf([{ name: 'chair' }, { name: 'chairman' }]);
    assert.deepEqual(order(index, 'chair'), ['1', '2']);
    const info = index.search({ query: 'chair', getRankingInfo: true }).hits.map((h) => h._rankingInfo!.nbExactWords);
    assert.deepEqual(info, [1, 0]);
  });

  it('custom: customRanking desc/asc breaks the remaining ties', () => {
    const records = [
      { name: 'lamp', popularity: 5 },
      { name: 'lamp', popularity: 9 },
      { name: 'lamp', popularity: 1 },
    ];
    const desc = new Index('c');
    desc.setSettings({ customRanking: ['desc(popularity)'] });
    desc.saveObjects(records.map((r, i) => ({ objectID: String(i + 1), ...r })));
    assert.deepEqual(order(desc, 'lamp'), ['2', '1', '3']);
    desc.setSettings({ customRanking: ['asc(popularity)'] });
    assert.deepEqual(order(desc, 'lamp'), ['3', '1', '2']);
    assert.deepEqual(order(desc, ''), ['3', '1', '2']);
    const scores = desc.search({ query: 'lamp', getRankingInfo: true }).hits.map((h) => h._rankingInfo!.userScore);
    assert.ok(scores[0]! > scores[1]! && scores[1]! > scores[2]!);
  });

  it('custom: several customRanking entries, missing values last', () => {
    const index = new Index('c2');
    index.setSettings({ customRanking: ['desc(stars)', 'asc(price)'] });
    index.saveObjects([
      { objectID: 'a', name: 'x', stars: 4, price: 30 },
      { objectID: 'b', name: 'x', stars: 5, price: 50 },
      { objectID: 'c', name: 'x', stars: 4, price: 10 },
      { objectID: 'd', name: 'x' },
    ]);
    assert.deepEqual(order(index, 'x'), ['b', 'c', 'a', 'd']);
  });

  it('the ranking setting orders the criteria', () => {
    const index = indexOf([{ name: 'oak chair' }, { name: 'oak chiar' }]);
    assert.deepEqual(order(index, 'chair oak'), ['1', '2']);
    index.setSettings({ ranking: ['custom', 'typo', 'words', 'proximity', 'attribute', 'exact'] });
    assert.deepEqual(order(index, 'chair oak'), ['2', '1']);
    index.setSettings({ ranking: ['desc(popularity)', 'typo'] });
    assert.deepEqual(order(index, 'chair oak'), ['2', '1']);
  });

  it('returns the right page of a large bucket (cost follows the page)', () => {
    const index = new Index('big');
    index.setSettings({ customRanking: ['desc(popularity)'] });
    index.saveObjects(
      Array.from({ length: 5000 }, (_, i) => ({
        objectID: String(i),
        name: i % 2 ? 'blue lamp' : 'blue lamps',
        popularity: i,
      })),
    );
    const page = index.search({ query: 'blue lamp', page: 3, hitsPerPage: 10 });
    // exact "lamp" (odd ids) first, by popularity desc
    assert.deepEqual(
      page.hits.map((h) => h.objectID),
      ['4939', '4937', '4935', '4933', '4931', '4929', '4927', '4925', '4923', '4921'],
    );
    assert.equal(page.nbHits, 5000);
  });

  it('custom ranking stays right through incremental writes (order maintained, not rebuilt)', () => {
    const index = new Index('inc');
    index.setSettings({ customRanking: ['desc(popularity)', 'asc(name)'] });
    index.saveObjects([
      { objectID: 'a', name: 'lamp a', popularity: 5 },
      { objectID: 'b', name: 'lamp b', popularity: 1 },
    ]);
    assert.deepEqual(order(index, 'lamp'), ['a', 'b']);
    index.saveObjects([{ objectID: 'c', name: 'lamp c', popularity: 3 }]);
    assert.deepEqual(order(index, 'lamp'), ['a', 'c', 'b']);
    index.saveObjects([{ objectID: 'b', name: 'lamp b', popularity: 9 }]);
    assert.deepEqual(order(index, 'lamp'), ['b', 'a', 'c']);
    index.saveObjects([
      { objectID: 'd', name: 'lamp d' },
      { objectID: 'e', name: 'lamp aa', popularity: 5 },
    ]);
    assert.deepEqual(order(index, 'lamp'), ['b', 'a', 'e', 'c', 'd']);
    index.deleteObjects(['a']);
    assert.deepEqual(order(index, ''), ['b', 'e', 'c', 'd']);
    for (let i = 0; i < 3000; i++)
      index.saveObjects([{ objectID: `n${i}`, name: 'lamp n', popularity: (i * 7919) % 1000 }]);
    const hits = index.search({ query: 'lamp', hitsPerPage: 1000, getRankingInfo: true }).hits;
    const pops = hits.map((h) => (h.popularity as number | undefined) ?? -1);
    for (let i = 1; i < pops.length; i++) assert.ok(pops[i - 1]! >= pops[i]!, `sorted at ${i}`);
  });

  it('filters: optionalFilters rank matching records first without filtering the others out', () => {
    const index = indexOf([
      { name: 'lamp', brand: 'Acme', color: 'red' },
      { name: 'lamp', brand: 'Bolt', color: 'blue' },
      { name: 'lamp', brand: 'Acme', color: 'blue' },
    ]);
    index.setSettings({ attributesForFaceting: ['brand', 'color'] });
    assert.deepEqual(order(index, 'lamp'), ['3', '2', '1']);
    assert.deepEqual(order(index, 'lamp', { optionalFilters: ['brand:Acme'] }), ['3', '1', '2']);
    assert.deepEqual(order(index, 'lamp', { optionalFilters: ['brand:Acme', 'color:red'] }), ['1', '3', '2']);
    assert.deepEqual(order(index, '', { optionalFilters: [['color:red', 'brand:Bolt']] }), ['2', '1', '3']);
    assert.deepEqual(order(index, 'lamp', { optionalFilters: ['brand:-Acme'] }), ['2', '3', '1']);
    assert.throws(() => order(index, 'lamp', { optionalFilters: ['nocolon'] }), /optionalFilters/);
  });

  it('a sort criterion first (replica ranking) leaves equal values to the next criteria', () => {
    const index = new Index('replica');
    index.setSettings({
      ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
      customRanking: ['desc(popularity)'],
    });
    index.saveObjects([
      { objectID: 'a', name: 'oak chiar', price: 10, popularity: 9 },
      { objectID: 'b', name: 'oak chair', price: 10, popularity: 1 },
      { objectID: 'c', name: 'oak chair', price: 5, popularity: 0 },
      { objectID: 'd', name: 'oak chair', price: 10, popularity: 5 },
    ]);
    // price 5 first; among price 10: no typo (b, d by popularity) before the typo (a)
    assert.deepEqual(order(index, 'chair oak'), ['c', 'd', 'b', 'a']);
    // also after incremental writes that join or split value groups
    index.saveObjects([
      { objectID: 'e', name: 'oak chair', price: 10, popularity: 7 },
      { objectID: 'f', name: 'oak chiar', price: 7, popularity: 0 },
    ]);
    assert.deepEqual(order(index, 'chair oak'), ['c', 'f', 'e', 'd', 'b', 'a']);
    index.saveObjects([{ objectID: 'g', name: 'oak chair', price: 7, popularity: 0 }]);
    assert.deepEqual(order(index, 'chair oak'), ['c', 'g', 'f', 'e', 'd', 'b', 'a']);
    // large groups go through the order walk: same result
    index.saveObjects(
      Array.from({ length: 100 }, (_, i) => ({
        objectID: `z${i}`,
        name: i % 2 ? 'oak chiar' : 'oak chair',
        price: 20,
        popularity: i,
      })),
    );
    const ids = index.search({ query: 'chair oak', hitsPerPage: 200 }).hits.map((h) => h.objectID);
    assert.deepEqual(ids.slice(0, 7), ['c', 'g', 'f', 'e', 'd', 'b', 'a']);
    assert.deepEqual(ids.slice(7, 10), ['z98', 'z96', 'z94']);
    assert.deepEqual(ids.slice(57, 60), ['z99', 'z97', 'z95']);
  });

  it('custom before other criteria: equal custom values fall through to them', () => {
    const index = new Index('custom-first');
    index.setSettings({ ranking: ['custom', 'typo'], customRanking: ['desc(stars)'] });
    index.saveObjects([
      { objectID: '1', name: 'chiar', stars: 5 },
      { objectID: '2', name: 'chair', stars: 5 },
      { objectID: '3', name: 'chair', stars: 1 },
    ]);
    assert.deepEqual(order(index, 'chair'), ['2', '1', '3']);
  });

  it('geo: aroundLatLng ranks nearer records first (by aroundPrecision steps) and aroundRadius / insideBoundingBox filter', () => {
    const index = new Index('geo');
    index.setSettings({ customRanking: ['desc(popularity)'] });
    index.saveObjects([
      { objectID: 'paris', name: 'cafe', _geoloc: { lat: 48.8566, lng: 2.3522 }, popularity: 1 },
      { objectID: 'versailles', name: 'cafe', _geoloc: { lat: 48.8049, lng: 2.1204 }, popularity: 2 },
      {
        objectID: 'lyon',
        name: 'cafe',
        _geoloc: [
          { lat: 45.764, lng: 4.8357 },
          { lat: 48.86, lng: 2.35 },
        ],
        popularity: 3,
      },
      { objectID: 'london', name: 'cafe', _geoloc: { lat: 51.5074, lng: -0.1278 }, popularity: 4 },
      { objectID: 'nowhere', name: 'cafe', popularity: 5 },
    ]);
    const around = { aroundLatLng: '48.8566, 2.3522' };
    // lyon has a second location in Paris; records without _geoloc are left out
    assert.deepEqual(order(index, 'cafe', around), ['paris', 'lyon', 'versailles', 'london']);
    assert.deepEqual(order(index, '', { ...around, aroundRadius: 20000 }), ['paris', 'lyon', 'versailles']);
    // with a coarse precision, nearby records tie and the custom ranking decides
    assert.deepEqual(order(index, 'cafe', { ...around, aroundPrecision: 50000 }), [
      'lyon',
      'versailles',
      'paris',
      'london',
    ]);
    const info = index
      .search({ query: 'cafe', ...around, getRankingInfo: true })
      .hits.map((h) => [h.objectID, h._rankingInfo!.geoDistance]);
    assert.equal(info[0]![1], 0);
    assert.ok((info[2]![1] as number) > 15000 && (info[2]![1] as number) < 20000, 'Versailles is ~18 km away');
    assert.deepEqual(
      index
        .search({ query: 'cafe', insideBoundingBox: '48,1,49,3' })
        .hits.map((h) => h.objectID)
        .sort(),
      ['lyon', 'paris', 'versailles'],
    );
    assert.deepEqual(
      index.search({ query: 'cafe', insideBoundingBox: [[51, -1, 52, 0]] }).hits.map((h) => h.objectID),
      ['london'],
    );
    assert.throws(() => index.search({ aroundLatLng: 'paris' }), /aroundLatLng/);
    assert.throws(() => index.search({ aroundLatLng: '1,2', aroundRadius: -3 }), /aroundRadius/);
    assert.throws(() => index.search({ insideBoundingBox: '[bad' }), /insideBoundingBox/);
    // a triangle around Paris and Versailles
    assert.deepEqual(
      index
        .search({ query: 'cafe', insidePolygon: '49.5,1.9,48.4,1.9,48.4,3.5' })
        .hits.map((h) => h.objectID)
        .sort(),
      ['lyon', 'paris', 'versailles'],
    );
    assert.deepEqual(
      index
        .search({ query: 'cafe', insidePolygon: [[49.2, 2.2, 48.5, 2.2, 48.5, 3.0]] })
        .hits.map((h) => h.objectID)
        .sort(),
      ['lyon', 'paris'],
    );
    assert.throws(() => index.search({ insidePolygon: '1,2,3,4' }), /insidePolygon/);
  });
});
