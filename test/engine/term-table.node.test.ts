// The term table (term text → id) against a Map, through growth: every term inserted is found again,
// by its whole text or by its place inside a longer text, with the id it was given; and the engine
// finds every one of thousands of distinct words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index } from '../../src/engine/index.js';
import { TermTable } from '../../src/engine/term-table.js';
import { mulberry32 } from '../../service/src/datasets/synthetic.js';

describe('term table', () => {
  it('finds every term it was given, with its id, through every growth', () => {
    const rand = mulberry32(5);
    const table = new TermTable();
    const ids = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const word = Array.from({ length: 1 + Math.floor(rand() * 9) }, () => 'abcdefghij'[Math.floor(rand() * 10)]).join(
        '',
      );
      const text = `x ${word} y`;
      const hash = TermTable.hash(text, 2, 2 + word.length);
      const found = table.find(text, 2, 2 + word.length, hash);
      assert.equal(found, ids.get(word) ?? -1, `"${word}" at insertion ${i}`);
      if (found < 0) ids.set(word, table.insert(text, 2, 2 + word.length, hash));
    }
    assert.ok(ids.size > 5000, `many distinct terms (${ids.size})`);
    for (const [word, id] of ids)
      assert.equal(table.find(word, 0, word.length, TermTable.hash(word, 0, word.length)), id, word);
    assert.equal(table.find('zzz', 0, 3, TermTable.hash('zzz', 0, 3)), -1);
  });

  it('the engine finds each of thousands of distinct words as a whole word', () => {
    const index = new Index('words');
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}q`);
    index.saveObjects(words.map((word, i) => ({ objectID: String(i), name: `${word} common` })));
    for (const [i, word] of words.entries()) {
      const hits = index.search({ query: word, typoTolerance: false, queryType: 'prefixNone' }).hits;
      assert.deepEqual(
        hits.map((h) => h.objectID),
        [String(i)],
        word,
      );
    }
  });
});
