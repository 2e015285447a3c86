// Sort orders (custom ranking, asc/desc criteria) against a brute-force sort, through random writes
// interleaved with reads: new records go to the order's sorted tail, which joins the base once it is a
// quarter of it, so the reads see every state (tail empty, short, about to merge) and both ways a
// bucket is ordered (walking the order for a large bucket, sorting a small one).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index } from '../../src/engine/index.js';
import { mulberry32 } from '../../service/src/datasets/synthetic.js';

interface Row {
  objectID: string;
  name: string;
  popularity?: unknown;
  price?: unknown;
  seq: number;
}

/** Custom ranking semantics: numbers (oriented) before other values (as strings), missing last. */
function compareValue(a: unknown, b: unknown, desc: boolean): number {
  const num = (v: unknown) =>
    typeof v === 'number'
      ? v
      : typeof v === 'boolean'
        ? Number(v)
        : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))
          ? Number(v)
          : null;
  const na = num(a);
  const nb = num(b);
  const has = (v: unknown, n: number | null) => n !== null || (v !== undefined && v !== null && typeof v !== 'object');
  const aHas = has(a, na);
  const bHas = has(b, nb);
  if (!aHas || !bHas) return aHas === bHas ? 0 : aHas ? -1 : 1;
  if (na !== null && nb !== null) return na === nb ? 0 : (na - nb) * (desc ? -1 : 1);
  if ((na !== null) !== (nb !== null)) return na !== null ? -1 : 1;
  const sa = String(a);
  const sb = String(b);
  return sa === sb ? 0 : (sa < sb ? -1 : 1) * (desc ? -1 : 1);
}

describe('sort orders against a brute-force sort', () => {
  for (const byPrice of [true, false])
    it(`orders every record by the custom ranking (${byPrice ? 'two criteria' : 'one criterion'}; ties by insertion) through adds, replacements and deletes`, () => {
      const rand = mulberry32(byPrice ? 77 : 78);
      const index = new Index('orders');
      index.setSettings({
        searchableAttributes: ['name'],
        customRanking: byPrice ? ['desc(popularity)', 'asc(price)'] : ['desc(popularity)'],
      });
      const live = new Map<string, Row>();
      let seq = 0;
      const value = () => {
        const r = rand();
        if (r < 0.55) return Math.floor(rand() * 8); // many ties
        if (r < 0.65) return String(Math.floor(rand() * 8)); // numeric strings count as numbers
        if (r < 0.75) return ['red', 'blue', 'green'][Math.floor(rand() * 3)]; // strings after numbers
        if (r < 0.85) return rand() < 0.5; // booleans as 0 / 1
        return undefined; // missing: last
      };
      let checked = 0;
      for (let round = 0; round < 120; round++) {
        const writes = 1 + Math.floor(rand() * (round < 5 ? 60 : 12));
        for (let w = 0; w < writes; w++) {
          if (rand() < 0.8 || live.size < 10) {
            const id = String(Math.floor(rand() * 300));
            const row: Row = { objectID: id, name: 'item', seq: seq++ };
            const popularity = value();
            const price = value();
            if (popularity !== undefined) row.popularity = popularity;
            if (price !== undefined) row.price = price;
            const { seq: _seq, ...record } = row;
            index.saveObjects([record]);
            live.set(id, row);
          } else {
            const id = [...live.keys()][Math.floor(rand() * live.size)]!;
            index.deleteObjects([id]);
            live.delete(id);
          }
        }
        const expected = [...live.values()]
          .sort(
            (a, b) =>
              compareValue(a.popularity, b.popularity, true) ||
              (byPrice ? compareValue(a.price, b.price, false) : 0) ||
              a.seq - b.seq,
          )
          .map((r) => r.objectID);
        // a large page (the bucket is sorted) and small pages (the order is walked)
        const all = index.search({ query: '', hitsPerPage: 1000, getRankingInfo: true });
        assert.deepEqual(
          all.hits.map((h) => h.objectID),
          expected,
          `round ${round}`,
        );
        const scores = all.hits.map((h) => h._rankingInfo!.userScore);
        for (let i = 1; i < scores.length; i++)
          assert.ok(scores[i - 1]! > scores[i]!, `userScore decreases (round ${round})`);
        for (const page of [0, 1, 3]) {
          const hits = index.search({ query: 'item', hitsPerPage: 7, page }).hits.map((h) => h.objectID);
          assert.deepEqual(hits, expected.slice(page * 7, page * 7 + 7), `round ${round} page ${page}`);
        }
        checked += expected.length;
      }
      assert.ok(checked > 5000, `the rounds held records (${checked})`);
    });

  it('a sort criterion in the ranking (asc(price)) ranks first and leaves ties to the next criteria', () => {
    const rand = mulberry32(5);
    const index = new Index('replica');
    index.setSettings({
      searchableAttributes: ['name'],
      ranking: ['asc(price)', 'typo', 'words', 'proximity', 'attribute', 'exact', 'custom'],
      customRanking: ['desc(popularity)'],
    });
    const rows: Array<{ objectID: string; name: string; price: number; popularity: number; seq: number }> = [];
    for (let round = 0; round < 40; round++) {
      const batch = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => ({
        objectID: `r${rows.length + Math.floor(rand() * 1e6)}`,
        name: rand() < 0.5 ? 'oak table' : 'oak tabel',
        price: Math.floor(rand() * 5),
        popularity: Math.floor(rand() * 3),
      }));
      index.saveObjects(batch);
      for (const r of batch) {
        const at = rows.findIndex((x) => x.objectID === r.objectID);
        if (at >= 0) rows.splice(at, 1);
        rows.push({ ...r, seq: rows.length + round * 1000 });
      }
      const typos = (r: { name: string }) => (r.name === 'oak table' ? 0 : 1);
      const expected = [...rows]
        .sort((a, b) => a.price - b.price || typos(a) - typos(b) || b.popularity - a.popularity || a.seq - b.seq)
        .map((r) => r.objectID);
      const got = index.search({ query: 'oak table', hitsPerPage: 1000 }).hits.map((h) => h.objectID);
      assert.deepEqual(got, expected, `round ${round}`);
    }
  });
});
