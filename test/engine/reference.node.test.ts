// Property test: the engine against a brute-force reference on a random corpus under random writes
// (adds, replacements, deletes interleaved with searches): the set of matching records (prefix on the
// last word, typo budgets by word length, no typos on numbers), filters, the figures ranking reads for
// each hit (typos, best attribute position, exact words) and ranking by typos first. A second corpus
// with a few very common words and a long tail of rare ones makes the engine match a common word only
// on the records of a rare one (on their tokens instead of the common word's postings).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index } from '../../src/engine/index.js';
import { mulberry32 } from '../../service/src/datasets/synthetic.js';

/** Optimal string alignment distance; with `prefix`, the smallest distance to any prefix of `term`. */
function distance(word: string, term: string, prefix: boolean): number {
  const rows: number[][] = [];
  for (let i = 0; i <= term.length; i++) {
    rows.push(new Array(word.length + 1).fill(0));
    rows[i]![0] = i;
  }
  for (let j = 0; j <= word.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= term.length; i++) {
    for (let j = 1; j <= word.length; j++) {
      const cost = term[i - 1] === word[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && term[i - 1] === word[j - 2] && term[i - 2] === word[j - 1])
        v = Math.min(v, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = v;
    }
  }
  return prefix ? Math.min(...rows.map((r) => r[word.length]!)) : rows[term.length]![word.length]!;
}

function budget(word: string): number {
  if (/^[0-9]+$/.test(word)) return 0;
  return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
}

/**
 * What ranking reads for one record: typos, best attribute key (rank × 1000 + position), exact words,
 * proximity (over consecutive query words, their closest tokens in one field, 8 at most).
 */
interface Expected {
  typos: number;
  firstMatchedWord: number;
  exactWords: number;
  proximity: number;
}

/**
 * The reference figures of a record with searchable attributes `fields` (in rank order) for `words`
 * (the last one a prefix), or null when a word does not match.
 */
function reference(fields: string[], words: string[]): Expected | null {
  let typos = 0;
  let exactWords = 0;
  let firstMatchedWord = Infinity;
  const tokens = fields.flatMap((field, rank) =>
    field.split(' ').map((token, position) => ({ token, rank, position })),
  );
  const matching = words.map((word, i) =>
    tokens.filter(({ token }) => distance(word, token, i === words.length - 1) <= budget(word)),
  );
  let proximity = 0;
  for (let i = 1; i < words.length; i++) {
    let best = 8;
    for (const a of matching[i - 1]!)
      for (const b of matching[i]!) {
        if (a === b || a.rank !== b.rank) continue;
        best = Math.min(best, b.position > a.position ? b.position - a.position : a.position - b.position + 1);
      }
    proximity += best;
  }
  for (const [i, word] of words.entries()) {
    const isLast = i === words.length - 1;
    let best = Infinity;
    let exact = false;
    fields.forEach((field, rank) => {
      field.split(' ').forEach((token, position) => {
        const d = distance(word, token, isLast);
        if (d > budget(word)) return;
        best = Math.min(best, d);
        if (token === word) exact = true;
        firstMatchedWord = Math.min(firstMatchedWord, rank * 1000 + Math.min(position, 999));
      });
    });
    if (best === Infinity) return null;
    typos += best;
    if (exact) exactWords++;
  }
  return { typos, firstMatchedWord, exactWords, proximity };
}

function check(
  index: Index,
  query: string,
  filter: string | null,
  expected: Map<string, Expected>,
  colors?: Map<string, string>,
): void {
  const response = index.search({
    query,
    hitsPerPage: 1000,
    getRankingInfo: true,
    ...(filter ? { filters: `color:${filter}` } : {}),
    ...(colors ? { facets: ['color'] } : {}),
  });
  if (colors) {
    // facet counts over every matching record, and said to be exhaustive
    const counts: Record<string, number> = {};
    for (const id of expected.keys()) counts[colors.get(id)!] = (counts[colors.get(id)!] ?? 0) + 1;
    assert.deepEqual(response.facets?.color ?? {}, counts, `facet counts for "${query}" ${filter ?? ''}`);
    assert.equal((response as { exhaustiveFacetsCount?: boolean }).exhaustiveFacetsCount, true);
    assert.equal(response.exhaustiveNbHits, true);
  }
  const got = new Map(
    response.hits.map((h) => [
      h.objectID,
      {
        typos: h._rankingInfo!.nbTypos,
        firstMatchedWord: h._rankingInfo!.firstMatchedWord,
        exactWords: h._rankingInfo!.nbExactWords,
        proximity: h._rankingInfo!.proximityDistance,
      },
    ]),
  );
  assert.equal(response.nbHits, expected.size, `nbHits for "${query}" ${filter ?? ''}`);
  assert.deepEqual(new Map([...got].sort()), new Map([...expected].sort()), `hits for "${query}" ${filter ?? ''}`);
  const typos = response.hits.map((h) => h._rankingInfo!.nbTypos);
  for (let i = 1; i < typos.length; i++) assert.ok(typos[i - 1]! <= typos[i]!, `typo order for "${query}"`);
}

/** A word of the query: as is, a prefix of it (2+ letters) or with one letter replaced by q. */
function queryWord(word: string, rand: () => number): string {
  const r = rand();
  if (r < 0.3 && word.length > 3) return word.slice(0, 2 + Math.floor(rand() * (word.length - 2)));
  if (r < 0.6 && word.length > 3) {
    const at = 1 + Math.floor(rand() * (word.length - 1));
    return `${word.slice(0, at)}q${word.slice(at + 1)}`;
  }
  return word;
}

describe('engine against a brute-force reference', () => {
  it('matches the same records with the same typo counts, attributes and exact words through random writes', () => {
    const rand = mulberry32(2024);
    const vocabulary = [
      'oak',
      'table',
      'tables',
      'chair',
      'chairs',
      'cheap',
      'chain',
      'lamp',
      'lamps',
      'light',
      'lighting',
      'lightning',
      'desk',
      'desks',
      'red',
      'read',
      'blue',
      'glue',
      'wooden',
      'woolen',
      'garden',
      'guard',
      '2024',
      '2025',
      'x1',
      'elephant',
      'elegant',
      'element',
      'cabinet',
      'cabin',
    ];
    const pick = () => vocabulary[Math.floor(rand() * vocabulary.length)]!;
    const index = new Index('reference');
    index.setSettings({
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['color'],
      customRanking: ['desc(rank)'],
    });
    const live = new Map<string, { objectID: string; name: string; brand: string; color: string; rank: number }>();
    const write = () => {
      const r = rand();
      if (r < 0.7 || live.size < 20) {
        const id = String(Math.floor(rand() * 400));
        const record = {
          objectID: id,
          name: Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).join(' '),
          brand: pick(),
          color: ['red', 'blue', 'green'][Math.floor(rand() * 3)]!,
          rank: Math.floor(rand() * 100),
        };
        index.saveObjects([record]);
        live.set(id, record);
      } else {
        const ids = [...live.keys()];
        const id = ids[Math.floor(rand() * ids.length)]!;
        index.deleteObjects([id]);
        live.delete(id);
      }
    };
    for (let i = 0; i < 300; i++) write();
    let checked = 0;
    for (let round = 0; round < 250; round++) {
      for (let w = 0; w < 1 + Math.floor(rand() * 5); w++) write();
      const words = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => queryWord(pick(), rand));
      const filter = rand() < 0.3 ? (['red', 'blue', 'green'][Math.floor(rand() * 3)] as string) : null;
      const expected = new Map<string, Expected>();
      for (const record of live.values()) {
        if (filter && record.color !== filter) continue;
        const figures = reference([record.name, record.brand], words);
        if (figures) expected.set(record.objectID, figures);
      }
      check(index, words.join(' '), filter, expected);
      checked += expected.size;
    }
    assert.ok(checked > 1000, `the queries matched records (${checked})`);
  });

  it('gives the same figures over a vocabulary of thousands of words written in many batches', () => {
    const rand = mulberry32(7);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const vocabulary = Array.from({ length: 4000 }, () =>
      Array.from({ length: 3 + Math.floor(rand() * 7) }, () => letters[Math.floor(rand() * 26)]).join(''),
    );
    // Zipf-like: a few words are everywhere, most are rare
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)]!;
    const index = new Index('large-vocabulary');
    index.setSettings({ searchableAttributes: ['name', 'brand'], attributesForFaceting: ['color'] });
    const records = Array.from({ length: 3000 }, (_, i) => ({
      objectID: String(i),
      name: Array.from({ length: 2 + Math.floor(rand() * 4) }, pick).join(' '),
      brand: pick(),
      color: ['red', 'blue', 'green'][Math.floor(rand() * 3)]!,
    }));
    for (let i = 0; i < records.length; i += 100) index.saveObjects(records.slice(i, i + 100));
    const colors = new Map(records.map((r) => [r.objectID, r.color]));
    let checked = 0;
    for (let round = 0; round < 120; round++) {
      const source = records[Math.floor(rand() * records.length)]!;
      const own = source.name.split(' ');
      const words = Array.from({ length: 1 + Math.floor(rand() * 2) }, () =>
        queryWord(own[Math.floor(rand() * own.length)]!, rand),
      );
      const expected = new Map<string, Expected>();
      for (const record of records) {
        const figures = reference([record.name, record.brand], words);
        if (figures) expected.set(record.objectID, figures);
      }
      if (expected.size > 1000) continue;
      check(index, words.join(' '), null, expected, colors);
      checked += expected.size;
    }
    assert.ok(checked > 500, `the queries matched records (${checked})`);
  });

  it('gives the same figures when a common word is matched only on the records of a rare one', () => {
    const rand = mulberry32(99);
    const common = ['oak', 'table', 'wooden'];
    const rare = ['elephant', 'cabinet', 'garden', 'lighting', 'element', 'chairs', 'lamp', 'desks', 'glue', 'cheap'];
    const index = new Index('skewed');
    index.setSettings({ searchableAttributes: ['name', 'brand'], attributesForFaceting: ['color'] });
    const records: Array<{ objectID: string; name: string; brand: string; color: string }> = [];
    for (let i = 0; i < 3000; i++) {
      const words = common.filter(() => rand() < 0.6);
      if (rand() < 0.05)
        words.splice(Math.floor(rand() * (words.length + 1)), 0, rare[Math.floor(rand() * rare.length)]!);
      records.push({
        objectID: String(i),
        name: words.join(' ') || 'plain',
        brand: rand() < 0.5 ? common[Math.floor(rand() * common.length)]! : 'acme',
        color: ['red', 'blue', 'green'][Math.floor(rand() * 3)]!,
      });
    }
    for (let i = 0; i < records.length; i += 500) index.saveObjects(records.slice(i, i + 500));
    const colors = new Map(records.map((r) => [r.objectID, r.color]));
    let checked = 0;
    for (let round = 0; round < 150; round++) {
      const words = [rare[Math.floor(rand() * rare.length)]!, ...common.filter(() => rand() < 0.6)]
        .sort(() => rand() - 0.5)
        .map((word) => queryWord(word, rand));
      const filter = rand() < 0.3 ? (['red', 'blue', 'green'][Math.floor(rand() * 3)] as string) : null;
      const expected = new Map<string, Expected>();
      for (const record of records) {
        if (filter && record.color !== filter) continue;
        const figures = reference([record.name, record.brand], words);
        if (figures) expected.set(record.objectID, figures);
      }
      check(index, words.join(' '), filter, expected, colors);
      checked += expected.size;
    }
    assert.ok(checked > 500, `the queries matched records (${checked})`);
  });
});

/** The objectIDs of `expected` in the order of the criteria named in `ranking`, then `rank` descending. */
function referenceOrder(
  expected: Map<string, Expected>,
  rankOf: Map<string, number>,
  ranking: Array<'typo' | 'proximity' | 'attribute' | 'exact'>,
): string[] {
  const key = (id: string, criterion: (typeof ranking)[number]): number => {
    const e = expected.get(id)!;
    if (criterion === 'typo') return e.typos;
    if (criterion === 'proximity') return e.proximity;
    if (criterion === 'attribute') return e.firstMatchedWord;
    return -e.exactWords;
  };
  return [...expected.keys()].sort((a, b) => {
    for (const criterion of ranking) {
      const d = key(a, criterion) - key(b, criterion);
      if (d !== 0) return d;
    }
    return rankOf.get(b)! - rankOf.get(a)!;
  });
}

describe('engine ranking against a brute-force order', () => {
  // Several criteria read from the match words in a row are sorted as one key (`fusedKeys`, large-index.ts),
  // or one at a time when their ranges are too wide: the order of every hit, and of a page, must be the
  // criteria's order either way. Unique custom ranks leave no ties to the engine's internal ids.
  const cases: Array<{
    name: string;
    attributes: number;
    ranking: Array<'typo' | 'proximity' | 'attribute' | 'exact'>;
  }> = [
    { name: 'the default ranking', attributes: 2, ranking: ['typo', 'proximity', 'attribute', 'exact'] },
    { name: 'exact, attribute and typo in a row', attributes: 3, ranking: ['exact', 'attribute', 'typo'] },
    // 40 attributes: attribute keys span 40,000 values, typo × exact × attribute is past the fused table
    { name: 'attribute keys too wide to fuse', attributes: 40, ranking: ['typo', 'attribute', 'exact'] },
  ];
  for (const { name, attributes, ranking } of cases) {
    it(`orders every hit as ${name} says`, () => {
      const rand = mulberry32(31 + attributes);
      const vocabulary = [
        'oak',
        'oaks',
        'table',
        'tablet',
        'chair',
        'chain',
        'cheap',
        'lamp',
        'lamps',
        'light',
        'lighting',
      ];
      vocabulary.push('wooden', 'woolen', 'garden', 'guard', 'cabinet', 'cabin', 'element', 'elegant');
      const pick = () => vocabulary[Math.floor(rand() * vocabulary.length)]!;
      const fields = Array.from({ length: attributes }, (_, i) => `f${i}`);
      const index = new Index('order');
      index.setSettings({
        searchableAttributes: fields,
        customRanking: ['desc(rank)'],
        ...(name === 'the default ranking' ? {} : { ranking: [...ranking, 'custom'] }),
      });
      const records = Array.from({ length: 1500 }, (_, i) => {
        const record: Record<string, unknown> & { objectID: string } = { objectID: String(i), rank: (i * 7919) % 1500 };
        // most records fill a few attributes, so attribute keys spread over the ranks
        for (const field of fields)
          if (field === 'f0' || rand() < 3 / attributes)
            record[field] = Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).join(' ');
        return record;
      });
      for (let i = 0; i < records.length; i += 300) index.saveObjects(records.slice(i, i + 300));
      const rankOf = new Map(records.map((r) => [r.objectID, r.rank as number]));
      let compared = 0;
      for (let round = 0; round < 60; round++) {
        const words = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => queryWord(pick(), rand));
        const expected = new Map<string, Expected>();
        for (const record of records) {
          const figures = reference(
            fields.map((f) => (record[f] as string | undefined) ?? ''),
            words,
          );
          if (figures) expected.set(record.objectID, figures);
        }
        const want = referenceOrder(expected, rankOf, ranking);
        const all = index.search({ query: words.join(' '), hitsPerPage: 1000 });
        assert.equal(all.nbHits, expected.size, `nbHits for "${words.join(' ')}"`);
        assert.deepEqual(
          all.hits.map((h) => h.objectID),
          want.slice(0, 1000),
          `order for "${words.join(' ')}"`,
        );
        const page = index.search({ query: words.join(' '), hitsPerPage: 7, page: 2 });
        assert.deepEqual(
          page.hits.map((h) => h.objectID),
          want.slice(14, 21),
          `page 2 for "${words.join(' ')}"`,
        );
        compared += Math.min(want.length, 1000);
      }
      assert.ok(compared > 3000, `the queries matched records (${compared})`);
    });
  }
});
