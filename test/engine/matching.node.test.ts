// Engine matching: normalisation, tokenising, prefix on the last word, typo tolerance by word length,
// typoTolerance modes, no typos on numbers, ignorePlurals.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Index, normalizeText, parseSearchParams, tokenize } from '../../src/engine/index.js';
import { derive } from '../../src/engine/derive.js';
import type { IndexState } from '../../src/engine/index-state.js';
import { effectiveParams } from '../../src/engine/query.js';
import { mulberry32 } from '../../service/src/datasets/synthetic.js';

function indexOf(names: string[], settings: Record<string, unknown> = {}): Index {
  const index = new Index('matching');
  index.setSettings({ searchableAttributes: ['name'], ...settings });
  index.saveObjects(names.map((name, i) => ({ objectID: String(i + 1), name })));
  return index;
}

function ids(index: Index, query: string, extra: Record<string, unknown> = {}): string[] {
  return index
    .search({ query, hitsPerPage: 100, ...extra })
    .hits.map((h) => h.objectID)
    .sort();
}

describe('normalisation and tokenising', () => {
  it('indexes an ASCII value (scanned in place) with exactly the tokens tokenize gives', () => {
    const rand = mulberry32(31);
    const alphabet = 'abcXYZ019 -_.,/()!?';
    for (let round = 0; round < 150; round++) {
      const long = rand() < 0.2 ? 'q'.repeat(60 + Math.floor(rand() * 20)) : '';
      const text =
        long +
        Array.from({ length: 5 + Math.floor(rand() * 30) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(
          '',
        );
      const index = new Index('ascii');
      index.saveObjects([{ objectID: '1', name: text }]);
      const exact = (query: string) =>
        index.search({ query, queryType: 'prefixNone', typoTolerance: false, removeStopWords: false }).nbHits;
      const tokens = tokenize(text).map((t) => t.slice(0, 64));
      for (const token of tokens) assert.equal(exact(token), 1, `"${token}" of ${JSON.stringify(text)}`);
      // two neighbouring tokens are not one term
      for (let i = 1; i < tokens.length; i++)
        if (!tokens.includes(tokens[i - 1]! + tokens[i]!))
          assert.equal(exact(tokens[i - 1]! + tokens[i]!), 0, JSON.stringify(text));
    }
  });

  it('folds case, diacritics and special letters', () => {
    assert.equal(normalizeText('Crème BRÛLÉE'), 'creme brulee');
    assert.equal(normalizeText('Straße Ærø'), 'strasse aero');
    assert.deepEqual(tokenize("Wooden chair, 2 pcs (L'Oréal)"), ['wooden', 'chair', '2', 'pcs', 'l', 'oreal']);
  });

  it('folds the Greek final sigma, so a word matches wherever its sigma falls', () => {
    assert.equal(normalizeText('ΟΔΟΣ'), 'οδοσ');
    const index = indexOf(['Οδός Αθηνάς']);
    assert.deepEqual(ids(index, 'οδος'), ['1']);
    assert.deepEqual(ids(index, 'ΟΔΟΣ'), ['1']);
  });

  it('splits ideographs into one token each', () => {
    assert.deepEqual(tokenize('東京 tower'), ['東', '京', 'tower']);
  });

  it('matches across case and diacritics in both directions', () => {
    const index = indexOf(['Crème brûlée', 'Creme caramel', 'Zürich map']);
    assert.deepEqual(ids(index, 'CREME'), ['1', '2']);
    assert.deepEqual(ids(index, 'crème'), ['1', '2']);
    assert.deepEqual(ids(index, 'zurich'), ['3']);
    assert.deepEqual(ids(index, 'brulee'), ['1']);
  });

  it('requires every query word (AND)', () => {
    const index = indexOf(['red chair', 'red table', 'blue chair']);
    assert.deepEqual(ids(index, 'red chair'), ['1']);
  });
});

describe('prefix matching', () => {
  it('matches the last query word as a prefix only', () => {
    const index = indexOf(['wooden chair', 'wooden table']);
    assert.deepEqual(ids(index, 'wooden cha'), ['1']);
    assert.deepEqual(ids(index, 'woo'), ['1', '2']);
    // a 3-letter word that is not last must match a whole word (and 3 letters allow no typo)
    assert.deepEqual(ids(index, 'cha wooden'), []);
  });

  it('queryType prefixNone and prefixAll', () => {
    const index = indexOf(['wooden chair']);
    assert.deepEqual(ids(index, 'cha', { queryType: 'prefixNone' }), []);
    assert.deepEqual(ids(index, 'woo cha', { queryType: 'prefixAll' }), ['1']);
  });

  it('reads each term of a whole last word once: the prefix range leaves out the word, plurals and synonyms', () => {
    const index = indexOf(['table', 'tables', 'tablet', 'stable table', 'desk', 'tablecloth tables']);
    index.setSynonyms([{ objectID: 's', type: 'onewaysynonym', input: 'table', synonyms: ['tabletop'] }]);
    index.saveObjects([{ objectID: '7', name: 'tabletop' }]);
    const state = (index as unknown as { state: IndexState }).state;
    const params = parseSearchParams({ query: 'table', ignorePlurals: true });
    state.refresh();
    const d = derive(state, 'table', true, effectiveParams(state.settings, params));
    const positions: number[] = [];
    for (let r = 0; r < d.lo.length; r++) for (let p = d.lo[r]!; p < d.hi[r]!; p++) positions.push(p);
    assert.equal(new Set(positions).size, positions.length, 'no vocabulary position in two ranges');
    const terms = positions.map((p) => state.postings.vocab.terms[state.postings.vocab.sortedTermIds[p]!]).sort();
    // 'stable' is a one-typo match (a typo range of its own)
    assert.deepEqual(terms, ['stable', 'table', 'tablecloth', 'tables', 'tablet', 'tabletop']);
    // and the figures are the best range's: the word and its plural exact, the synonym and the longer words not
    const response = index.search({ query: 'table', ignorePlurals: true, getRankingInfo: true, hitsPerPage: 100 });
    const exact = Object.fromEntries(response.hits.map((h) => [h.objectID, h._rankingInfo!.nbExactWords]));
    assert.deepEqual(exact, { '1': 1, '2': 1, '3': 0, '4': 1, '6': 1, '7': 0 });
    assert.equal(response.nbHits, 6);
  });
});

describe('typo tolerance', () => {
  const index = indexOf(['wooden chair', 'desk lamp', 'elephant statue', 'cabinet door', 'room 1234', 'chai tea']);

  it('allows no typo below 4 letters', () => {
    assert.deepEqual(ids(index, 'tae'), []);
    assert.deepEqual(ids(index, 'tea'), ['6']);
  });

  it('allows 1 typo from 4 letters (substitution, transposition)', () => {
    assert.deepEqual(ids(index, 'lamq desk'), ['2']);
    assert.deepEqual(ids(index, 'chiar wooden'), ['1']);
  });

  it('allows 2 typos from 8 letters only', () => {
    assert.deepEqual(ids(index, 'elefant statue'), []); // 7 letters, 2 typos
    assert.deepEqual(ids(index, 'elefhamt statue'), ['3']); // 8 letters, 2 typos
    assert.deepEqual(ids(index, 'cabbnit door'), []); // 7 letters, 2 typos
    assert.deepEqual(ids(index, 'cabnet door'), ['4']); // 6 letters, 1 typo
  });

  it('honours minWordSizefor1Typo / minWordSizefor2Typos', () => {
    assert.deepEqual(ids(index, 'lamq desk', { minWordSizefor1Typo: 5 }), []);
    assert.deepEqual(ids(index, 'elefant statue', { minWordSizefor2Typos: 7 }), ['3']);
  });

  it('never applies typos to numbers', () => {
    assert.deepEqual(ids(index, '1235 room'), []);
    assert.deepEqual(ids(index, '1234 room'), ['5']);
  });

  it('typoTolerance false disables typos', () => {
    assert.deepEqual(ids(index, 'chiar wooden', { typoTolerance: false }), []);
    const strict = indexOf(['wooden chiar'], { typoTolerance: false });
    assert.deepEqual(ids(strict, 'chair wooden'), []);
  });

  it("typoTolerance 'min' keeps only the fewest typos, 'strict' the two fewest", () => {
    const typos = indexOf(['lanterns box', 'lantarns box', 'lantarms box']);
    assert.deepEqual(ids(typos, 'lanterns box'), ['1', '2', '3']);
    assert.deepEqual(ids(typos, 'lanterns box', { typoTolerance: 'min' }), ['1']);
    assert.deepEqual(ids(typos, 'lanterns box', { typoTolerance: 'strict' }), ['1', '2']);
    assert.deepEqual(ids(typos, 'lantarms box', { typoTolerance: 'min' }), ['3']);
  });

  it('matches a typo in the last (prefix) word', () => {
    assert.deepEqual(ids(index, 'wooden chiar'), ['1']);
  });
});

describe('ignorePlurals', () => {
  const index = indexOf(['one chair', 'two boxes', 'wild berry', 'three children'], { typoTolerance: false });

  it('is off by default', () => {
    assert.deepEqual(ids(index, 'chairs one'), []);
  });

  it('matches singular and plural forms (simple English rules and irregulars)', () => {
    const on = { ignorePlurals: true };
    assert.deepEqual(ids(index, 'chairs one', on), ['1']);
    assert.deepEqual(ids(index, 'box two', on), ['2']);
    assert.deepEqual(ids(index, 'berries wild', on), ['3']);
    assert.deepEqual(ids(index, 'child three', on), ['4']);
    assert.deepEqual(ids(index, 'chairs one', { ignorePlurals: ['en'] }), ['1']);
  });

  it('works as an index setting', () => {
    const plural = indexOf(['one chair'], { typoTolerance: false, ignorePlurals: true });
    assert.deepEqual(ids(plural, 'chairs one'), ['1']);
  });
});

describe('restrictSearchableAttributes', () => {
  it('matches only in the given searchable attributes', () => {
    const index = new Index('restrict');
    index.setSettings({ searchableAttributes: ['name', 'brand'] });
    index.saveObjects([
      { objectID: '1', name: 'oak table', brand: 'Woody' },
      { objectID: '2', name: 'woody chair', brand: 'Oakland' },
    ]);
    const ids = (params: Record<string, unknown>) =>
      index
        .search({ hitsPerPage: 10, ...params })
        .hits.map((h) => h.objectID)
        .sort();
    assert.deepEqual(ids({ query: 'woody' }), ['1', '2']);
    assert.deepEqual(ids({ query: 'woody', restrictSearchableAttributes: ['name'] }), ['2']);
    assert.deepEqual(ids({ query: 'oak', restrictSearchableAttributes: ['brand'] }), ['2']);
    assert.deepEqual(ids({ query: 'oak woody', restrictSearchableAttributes: ['brand'] }), []);
    const dynamic = new Index('restrict-all');
    dynamic.saveObjects([
      { objectID: '1', title: 'red lamp', color: 'blue' },
      { objectID: '2', title: 'blue lamp', color: 'red' },
    ]);
    assert.deepEqual(
      dynamic.search({ query: 'red', restrictSearchableAttributes: ['color'] }).hits.map((h) => h.objectID),
      ['2'],
    );
  });
});

describe('advancedSyntax', () => {
  const index = new Index('advanced');
  index.setSettings({ searchableAttributes: ['name'] });
  index.saveObjects([
    { objectID: '1', name: 'red wooden chair' },
    { objectID: '2', name: 'wooden red chair' },
    { objectID: '3', name: 'red plastic chair' },
    { objectID: '4', name: 'blue wooden table' },
  ]);
  const ids = (query: string, advancedSyntax = true) =>
    index
      .search({ query, advancedSyntax, hitsPerPage: 10 })
      .hits.map((h) => h.objectID)
      .sort();

  it('is off by default: quotes and dashes are separators', () => {
    assert.deepEqual(ids('"red wooden"', false), ['1', '2']);
    assert.deepEqual(ids('chair -plastic', false), ['3']);
  });

  it('"quoted phrase" matches adjacent words in order, without prefix or typos', () => {
    assert.deepEqual(ids('"red wooden"'), ['1']);
    assert.deepEqual(ids('"wooden red" chair'), ['2']);
    assert.deepEqual(ids('"red woo"'), []);
    assert.deepEqual(ids('"red woodem"'), []);
    assert.deepEqual(ids('"wooden"'), ['1', '2', '4']);
  });

  it('-word excludes records containing the word', () => {
    assert.deepEqual(ids('chair -plastic'), ['1', '2']);
    assert.deepEqual(ids('wooden -chair'), ['4']);
    assert.deepEqual(ids('-chair'), ['4']);
    assert.deepEqual(ids('t-shirt'), []);
  });

  it('works as a setting', () => {
    index.setSettings({ advancedSyntax: true });
    assert.equal(index.search({ query: '"red wooden"' }).nbHits, 1);
    index.setSettings({ advancedSyntax: false });
  });
});

describe('removeStopWords and disableTypoToleranceOnWords', () => {
  const index = new Index('stop');
  index.setSettings({ searchableAttributes: ['name'] });
  index.saveObjects([
    { objectID: '1', name: 'chair for the garden' },
    { objectID: '2', name: 'garden chair' },
    { objectID: '3', name: 'the end' },
    { objectID: '4', name: 'gardem table' },
  ]);
  const ids = (query: string, extra: Record<string, unknown> = {}) =>
    index
      .search({ query, hitsPerPage: 10, ...extra })
      .hits.map((h) => h.objectID)
      .sort();

  it('leaves English stop words out of the query when asked', () => {
    assert.deepEqual(ids('the garden chair'), ['1']);
    assert.deepEqual(ids('the garden chair', { removeStopWords: true }), ['1', '2']);
    assert.deepEqual(ids('the garden chair', { removeStopWords: ['en'] }), ['1', '2']);
    assert.deepEqual(ids('the', { removeStopWords: true }), ['1', '3']); // only stop words: kept
    assert.deepEqual(ids('chair for', { removeStopWords: true }), ['1']); // the last word may be a prefix: kept
  });

  it('matches the listed words without typos', () => {
    assert.deepEqual(ids('garden table'), ['4']);
    assert.deepEqual(ids('garden table', { disableTypoToleranceOnWords: ['garden'] }), []);
    index.setSettings({ disableTypoToleranceOnWords: ['garden'] });
    assert.deepEqual(ids('garden table'), []);
    index.setSettings({ disableTypoToleranceOnWords: [] });
  });
});
