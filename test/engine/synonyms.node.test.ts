// Engine synonyms: the expansion (one-word and multi-word rules), each type's effect on matching, ranking of a
// synonym match against the words themselves, altcorrection typos, placeholders, highlighting, `synonyms: false`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildExpansion, Index, type Synonym } from '../../src/engine/index.js';

function indexOf(names: string[], synonyms: Synonym[]): Index {
  const index = new Index('synonyms');
  index.setSettings({ searchableAttributes: ['name'] });
  index.saveObjects(names.map((name, i) => ({ objectID: String(i + 1), name })));
  index.setSynonyms(synonyms);
  return index;
}

const ids = (index: Index, query: string, extra: Record<string, unknown> = {}) =>
  index.search({ query, hitsPerPage: 100, ...extra }).hits.map((h) => h.objectID);

describe('expansion map', () => {
  it('is built once from the synonyms: groups both ways, one-way one way, corrections with typos, multi-word members as spans', () => {
    const map = buildExpansion([
      { objectID: 'a', type: 'synonym', synonyms: ['Couch', 'sofa', 'settee', 'lounge chair'] },
      { objectID: 'b', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone'] },
      { objectID: 'c', type: 'altcorrection2', word: 'nokia', corrections: ['nokai'] },
      { objectID: 'd', type: 'placeholder', placeholder: '<number>', replacements: ['1', 'one', 'number one'] },
      { objectID: 'e', type: 'placeholder', placeholder: '<two words>', replacements: ['x'] },
    ]);
    const words = (w: string) => map.words.get(w)?.map((a) => a.words.join(' '));
    assert.deepEqual(words('couch'), ['sofa', 'settee']);
    assert.deepEqual(words('settee'), ['couch', 'sofa']);
    assert.equal(map.words.get('lounge'), undefined);
    assert.deepEqual(map.words.get('phone'), [{ words: ['smartphone'], typos: 0, placeholder: false }]);
    assert.equal(map.words.get('smartphone'), undefined);
    assert.deepEqual(map.words.get('nokia'), [{ words: ['nokai'], typos: 2, placeholder: false }]);
    // one-word inputs with a phrase or a placeholder alternative, and multi-word inputs, go to spans
    assert.deepEqual(map.spans.get('couch'), [
      { input: ['couch'], alternatives: [{ words: ['lounge', 'chair'], typos: 0, placeholder: false }] },
    ]);
    assert.deepEqual(
      map.spans.get('lounge')!.map((r) => [r.input.join(' '), r.alternatives.map((a) => a.words.join(' '))]),
      [['lounge chair', ['couch', 'sofa', 'settee']]],
    );
    assert.deepEqual(map.spans.get('one'), [
      { input: ['one'], alternatives: [{ words: ['number'], typos: 0, placeholder: true }] },
    ]);
    assert.deepEqual(map.spans.get('number'), [
      { input: ['number', 'one'], alternatives: [{ words: ['number'], typos: 0, placeholder: true }] },
    ]);
    // a placeholder name of two words matches nothing: no rule for its replacement
    assert.equal(map.spans.get('x'), undefined);
    assert.equal(map.size, 4 + 1 + 1 + 3);
  });
});

describe('matching and ranking with synonyms', () => {
  const index = indexOf(
    [
      'Red couch',
      'Blue sofa',
      'Smartphone case',
      'Phone stand',
      'Blue sofa couch',
      'Nokai 3310',
      'Apartment <number> Main',
    ],
    [
      { objectID: 's', type: 'synonym', synonyms: ['couch', 'sofa'] },
      { objectID: 'o', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone'] },
      { objectID: 'c', type: 'altcorrection1', word: 'nokia', corrections: ['nokai'] },
      { objectID: 'p', type: 'placeholder', placeholder: '<number>', replacements: ['1', 'one', 'two'] },
    ],
  );

  it('a group member matches the others, both ways; the word itself ranks first (exact criterion)', () => {
    // couch: 1 (couch), 2 (sofa via synonym), 5 (both). 1 and 5 have the word itself (exact 1); 2 only the synonym
    const couch = ids(index, 'couch');
    assert.deepEqual([...couch].sort(), ['1', '2', '5']);
    assert.equal(couch[2], '2');
    const sofa = ids(index, 'sofa');
    assert.deepEqual([...sofa].sort(), ['1', '2', '5']);
    assert.equal(sofa[2], '1');
  });

  it('a one-way synonym: input finds the synonym, not the reverse', () => {
    assert.deepEqual(ids(index, 'phone').sort(), ['3', '4']);
    assert.deepEqual(ids(index, 'smartphone'), ['3']);
  });

  it('an alternative correction matches with its typos (1), and typo tolerance off does not stop it', () => {
    const answer = index.search({ query: 'nokia', getRankingInfo: true, typoTolerance: false });
    assert.deepEqual(
      answer.hits.map((h) => h.objectID),
      ['6'],
    );
    assert.equal((answer.hits[0] as any)._rankingInfo.nbTypos, 1);
  });

  it('a placeholder: records holding <number> match any replacement, not other words', () => {
    assert.deepEqual(ids(index, 'apartment one'), ['7']);
    assert.deepEqual(ids(index, 'two main'), ['7']);
    assert.deepEqual(ids(index, 'three main'), []);
  });

  it('highlighting marks the synonym word matched in the record', () => {
    const hit = index.search({ query: 'couch', filters: 'objectID:2' }).hits[0] as any;
    assert.equal(hit._highlightResult.name.value, 'Blue <em>sofa</em>');
    assert.equal(hit._highlightResult.name.matchLevel, 'full');
  });

  it('synonyms: false turns expansion off', () => {
    assert.deepEqual(ids(index, 'couch', { synonyms: false }).sort(), ['1', '5']);
    assert.deepEqual(ids(index, 'phone', { synonyms: false }), ['4']);
    assert.deepEqual(ids(index, 'apartment one', { synonyms: false }), []);
    assert.deepEqual(ids(index, 'nokia', { synonyms: false, typoTolerance: false }), []);
  });

  it('replacing the synonyms rebuilds the map (no stale cached expansion)', () => {
    const other = indexOf(
      ['Red couch', 'Blue sofa'],
      [{ objectID: 's', type: 'synonym', synonyms: ['couch', 'sofa'] }],
    );
    assert.deepEqual(ids(other, 'couch').sort(), ['1', '2']);
    other.setSynonyms([]);
    assert.deepEqual(ids(other, 'couch'), ['1']);
    assert.deepEqual(other.getSynonyms(), []);
  });
});

describe('multi-word synonyms', () => {
  // searchable: name, then description. Expected orders below are worked out by hand from the
  // default ranking (typo, geo, words, filters, proximity, attribute, exact, custom; no custom ranking:
  // ties by insertion, i.e. by objectID here).
  const records = [
    { objectID: '1', name: 'New York pizza' },
    { objectID: '2', name: 'NY pizza' },
    { objectID: '3', name: 'NYC bagels' },
    { objectID: '4', name: 'York new potatoes' }, // both words, not as the phrase
    { objectID: '5', name: 'New shoes', description: 'York' }, // both words, in two attributes
    { objectID: '6', name: 'Pizza from new york city' },
    { objectID: '7', name: 'Big apple pie' },
    { objectID: '8', name: 'New deli in NY' },
  ];
  const make = (synonyms: Synonym[]) => {
    const index = new Index('multi');
    index.setSettings({ searchableAttributes: ['name', 'description'] });
    index.saveObjects(records);
    index.setSynonyms(synonyms);
    return index;
  };
  const index = make([{ objectID: 'nyc', type: 'synonym', synonyms: ['ny', 'new york', 'nyc'] }]);

  it('one word finds its phrase (consecutive, in order, in one attribute), its one-word synonym and itself', () => {
    // ny: 2 and 8 (ny itself, exact), 3 (nyc: synonym and prefix, not exact), 1 and 6 ("new york").
    // Not 4 (york new) nor 5 (new | york in two attributes). attribute: {1,2,3} 0, 6 at 2, 8 at 3;
    // exact within {1,2,3}: 2 first, then 1, 3 by id.
    assert.deepEqual(ids(index, 'ny'), ['2', '1', '3', '6', '8']);
  });

  it('two words find their one-word synonyms; the original words win on exact, the phrase on proximity', () => {
    // new york: 1, 6 (the words), 2, 3, 8 (ny / nyc stand for both words), 4 (york … new), 5 (two attributes).
    // proximity: 1, 2, 3, 6, 8 → 1 (ny/nyc: both words in one word, next to each other); 4 → 2; 5 → 8.
    // attribute: 6 at 2, the others 0. exact: 1 has 2 words, 8 one (new), 2 and 3 none.
    assert.deepEqual(ids(index, 'new york'), ['1', '8', '2', '3', '6', '4', '5']);
    const info = (id: string) =>
      (index.search({ query: 'new york', filters: `objectID:${id}`, getRankingInfo: true }).hits[0] as any)
        ._rankingInfo;
    assert.deepEqual([info('2').nbTypos, info('2').proximityDistance, info('2').nbExactWords], [0, 1, 0]);
    assert.deepEqual([info('8').proximityDistance, info('8').nbExactWords], [1, 1]);
    assert.deepEqual([info('4').proximityDistance, info('4').nbExactWords], [2, 2]);
  });

  it('mixed queries: ny pizza, pizza new york', () => {
    // ny pizza: 1, 2, 6. proximity: 1 (york→pizza) 1, 2 1, 6 (pizza … new york) 3; exact: 2 has 2, 1 has 1.
    assert.deepEqual(ids(index, 'ny pizza'), ['2', '1', '6']);
    // pizza new york: 1, 2, 6. proximity: 1 = 3 (pizza after york) + 1 = 4; 2 = 2 (pizza after ny) + 1 = 3;
    // 6 = 2 + 1 = 3. exact: 6 has 3, 2 has 1.
    assert.deepEqual(ids(index, 'pizza new york'), ['6', '2', '1']);
  });

  it('a multi-word input expands only when its words are consecutive, complete and in order', () => {
    // typing: "new yo" is a prefix of "new york" — it matches the words, not the synonyms
    assert.deepEqual(ids(index, 'new yo').sort(), ['1', '4', '5', '6']);
    assert.deepEqual(ids(index, 'new yor').sort(), ['1', '4', '5', '6']);
    assert.deepEqual(ids(index, 'york new').sort(), ['1', '4', '5', '6']);
    assert.deepEqual(ids(index, 'new pizza york').sort(), ['1', '6']);
  });

  it('the words criterion counts a synonym as the query words it stands for (optionalWords)', () => {
    // new york bagels, bagels optional: 3 (nyc + bagels) matches 3 words; the others 2, ranked as for "new york"
    assert.deepEqual(ids(index, 'new york bagels', { optionalWords: ['bagels'] }), ['3', '1', '8', '2', '6', '4', '5']);
  });

  it('removeWordsIfNoResults drops words with synonyms still applied to the others', () => {
    assert.deepEqual(ids(index, 'ny sushi', { removeWordsIfNoResults: 'lastWords' }), ['2', '1', '3', '6', '8']);
    assert.deepEqual(ids(index, 'sushi new york', { removeWordsIfNoResults: 'firstWords' }), [
      '1',
      '8',
      '2',
      '3',
      '6',
      '4',
      '5',
    ]);
  });

  it('advanced syntax: quoted words take no synonyms; exclusions and phrases work next to synonyms', () => {
    assert.deepEqual(ids(index, '"new york" pizza', { advancedSyntax: true }), ['1', '6']);
    assert.deepEqual(ids(index, '"ny" pizza', { advancedSyntax: true }), ['2']);
    assert.deepEqual(ids(index, 'ny -pizza', { advancedSyntax: true }), ['3', '8']);
    assert.deepEqual(ids(index, 'ny "from new"', { advancedSyntax: true }), ['6']);
  });

  it('synonyms: false turns multi-word synonyms off too', () => {
    assert.deepEqual(ids(index, 'ny', { synonyms: false }).sort(), ['2', '3', '8']); // 3 by prefix
    assert.deepEqual(ids(index, 'new york', { synonyms: false }).sort(), ['1', '4', '5', '6']);
  });

  it('highlighting and snippets mark both words of the phrase, and the one word standing for two', () => {
    const hl = (query: string, id: string, extra: Record<string, unknown> = {}) =>
      index.search({ query, filters: `objectID:${id}`, ...extra }).hits[0] as any;
    const one = hl('ny', '1')._highlightResult.name;
    assert.deepEqual(one, {
      value: '<em>New</em> <em>York</em> pizza',
      matchLevel: 'full',
      matchedWords: ['ny'],
      fullyHighlighted: false,
    });
    // a "new" that is not part of the phrase is not highlighted
    assert.equal(hl('ny', '8')._highlightResult.name.value, 'New deli in <em>NY</em>');
    assert.deepEqual(hl('new york', '2')._highlightResult.name, {
      value: '<em>NY</em> pizza',
      matchLevel: 'full',
      matchedWords: ['new', 'york'],
      fullyHighlighted: false,
    });
    assert.deepEqual(hl('new york', '8')._highlightResult.name, {
      value: '<em>New</em> deli in <em>NY</em>',
      matchLevel: 'full',
      matchedWords: ['new', 'york'],
      fullyHighlighted: false,
    });
    const snippet = hl('ny', '6', { attributesToSnippet: ['name:3'] })._snippetResult.name;
    assert.deepEqual(snippet, { value: '…from <em>new</em> <em>york</em>…', matchLevel: 'full' });
  });

  it('a phrase on both sides (big apple ↔ new york) and a one-way multi-word synonym', () => {
    const both = make([{ objectID: 'b', type: 'synonym', synonyms: ['big apple', 'new york'] }]);
    // big apple: 7 (the words, exact 2), 1 and 6 (the phrase; 6 at position 2)
    assert.deepEqual(ids(both, 'big apple'), ['7', '1', '6']);
    // new york: the words (1, 6, 4, 5 as without synonyms) and 7; proximity 1 for 1, 6, 7; attribute 6 at 2; exact 7 none
    assert.deepEqual(ids(both, 'new york'), ['1', '7', '6', '4', '5']);
    const oneWay = make([{ objectID: 'o', type: 'onewaysynonym', input: 'new york', synonyms: ['nyc'] }]);
    assert.deepEqual(ids(oneWay, 'new york'), ['1', '3', '6', '4', '5']);
    assert.deepEqual(ids(oneWay, 'nyc'), ['3']);
  });

  it('an alternative correction to a phrase counts its typos once', () => {
    const corrected = make([{ objectID: 'c', type: 'altcorrection1', word: 'newyork', corrections: ['new york'] }]);
    const answer = corrected.search({ query: 'newyork', typoTolerance: false, getRankingInfo: true });
    assert.deepEqual(
      answer.hits.map((h) => h.objectID),
      ['1', '6'],
    );
    assert.deepEqual(
      answer.hits.map((h) => (h as any)._rankingInfo.nbTypos),
      [1, 1],
    );
  });

  it('a word reached both with a typo and through a synonym counts the best: no typo', () => {
    const typo = make([{ objectID: 'nyc', type: 'synonym', synonyms: ['ny', 'new york'] }]);
    typo.saveObjects([{ objectID: '9', name: 'New yrok deli NY' }]);
    // 9: new (exact), york by "yrok" (1 typo) and by "ny" (0 typos): 0 typos, 1 exact word
    const info = (typo.search({ query: 'new york', filters: 'objectID:9', getRankingInfo: true }).hits[0] as any)
      ._rankingInfo;
    assert.deepEqual([info.nbTypos, info.nbExactWords], [0, 1]);
    const plain = (
      typo.search({ query: 'new york', filters: 'objectID:9', getRankingInfo: true, synonyms: false }).hits[0] as any
    )._rankingInfo;
    assert.deepEqual([plain.nbTypos, plain.nbExactWords], [1, 1]);
  });

  it('phrase matches follow writes (records added, changed, deleted) and attributes found at search time', () => {
    const live = new Index('live');
    live.saveObjects([{ objectID: 'a', title: 'Flight to New York' }]);
    live.setSynonyms([{ objectID: 'nyc', type: 'synonym', synonyms: ['ny', 'new york'] }]);
    assert.deepEqual(ids(live, 'ny'), ['a']);
    live.saveObjects([{ objectID: 'b', body: 'new york deli' }]);
    assert.deepEqual(ids(live, 'ny'), ['a', 'b']);
    live.saveObjects([{ objectID: 'a', title: 'Flight to New Delhi' }]);
    assert.deepEqual(ids(live, 'ny'), ['b']);
    live.deleteObjects(['b']);
    assert.deepEqual(ids(live, 'ny'), []);
  });
});

describe('placeholders', () => {
  const index = indexOf(
    ['Apartment <number> Main street', 'Number ten Main street', 'Flat on < street >', 'High street store'],
    [
      { objectID: 'n', type: 'placeholder', placeholder: '<number>', replacements: ['1', 'one', 'twenty one'] },
      { objectID: 's', type: 'placeholder', placeholder: '<street>', replacements: ['high st', 'main street'] },
    ],
  );

  it('match the records holding <name> for one-word and multi-word replacements, never the bare word', () => {
    assert.deepEqual(ids(index, 'one main'), ['1']);
    assert.deepEqual(ids(index, 'twenty one main'), ['1']);
    // high st: the placeholder in 3; 4 holds "high" and "st…" (street, prefix): the words themselves
    assert.deepEqual(ids(index, 'high st').sort(), ['3', '4']);
    // main street: the words in 1 and 2, the placeholder in 3
    assert.deepEqual(ids(index, 'main street').sort(), ['1', '2', '3']);
    assert.deepEqual(ids(index, 'twenty main'), []);
  });

  it('are highlighted with their brackets; a bare word of the same name is not', () => {
    const hl = (query: string, id: string) =>
      (index.search({ query, filters: `objectID:${id}` }).hits[0] as any)._highlightResult.name;
    assert.deepEqual(hl('apartment one', '1'), {
      value: '<em>Apartment</em> <em>&lt;number&gt;</em> Main street',
      matchLevel: 'full',
      matchedWords: ['apartment', 'one'],
      fullyHighlighted: false,
    });
    assert.deepEqual(hl('twenty one main', '1'), {
      value: 'Apartment <em>&lt;number&gt;</em> <em>Main</em> street',
      matchLevel: 'full',
      matchedWords: ['twenty', 'one', 'main'],
      fullyHighlighted: false,
    });
    assert.equal(hl('main street', '3').value, 'Flat on <em>&lt; street &gt;</em>');
    assert.equal(hl('main street', '2').value, 'Number ten <em>Main</em> <em>street</em>');
  });
});
