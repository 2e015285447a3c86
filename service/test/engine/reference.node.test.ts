// Property test: the engine against a brute-force reference on a random corpus under random writes
// (adds, replacements, deletes interleaved with searches): the set of matching records (prefix on the
// last word, typo budgets by word length, no typos on numbers), filters, and ranking by typos first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index } from '../../src/engine/index.js';
import { mulberry32 } from '../../src/datasets/synthetic.js';

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

describe('engine against a brute-force reference', () => {
  it('matches the same records with the same typo counts through random writes', () => {
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
      const nWords = 1 + Math.floor(rand() * 2);
      const words = Array.from({ length: nWords }, () => {
        let word = pick();
        const r = rand();
        if (r < 0.3 && word.length > 3)
          word = word.slice(0, 2 + Math.floor(rand() * (word.length - 2))); // a prefix
        else if (r < 0.6 && word.length > 3) {
          const at = 1 + Math.floor(rand() * (word.length - 1));
          word = `${word.slice(0, at)}q${word.slice(at + 1)}`; // a typo
        }
        return word;
      });
      const filter = rand() < 0.3 ? (['red', 'blue', 'green'][Math.floor(rand() * 3)] as string) : null;
      const query = words.join(' ');
      const expected = new Map<string, number>();
      for (const record of live.values()) {
        if (filter && record.color !== filter) continue;
        const tokens = `${record.name} ${record.brand}`.split(' ');
        let typos = 0;
        let all = true;
        words.forEach((word, i) => {
          const isLast = i === words.length - 1;
          const best = Math.min(...tokens.map((t) => distance(word, t, isLast)));
          if (best > budget(word)) all = false;
          else typos += best;
        });
        if (all) expected.set(record.objectID, typos);
      }
      const response = index.search({
        query,
        hitsPerPage: 1000,
        getRankingInfo: true,
        ...(filter ? { filters: `color:${filter}` } : {}),
      });
      const got = new Map(response.hits.map((h) => [h.objectID, h._rankingInfo!.nbTypos]));
      assert.equal(response.nbHits, expected.size, `nbHits for "${query}" ${filter ?? ''}`);
      assert.deepEqual(new Map([...got].sort()), new Map([...expected].sort()), `hits for "${query}" ${filter ?? ''}`);
      const typos = response.hits.map((h) => h._rankingInfo!.nbTypos);
      for (let i = 1; i < typos.length; i++) assert.ok(typos[i - 1]! <= typos[i]!, `typo order for "${query}"`);
      checked += expected.size;
    }
    assert.ok(checked > 1000, `the queries matched records (${checked})`);
  });
});
