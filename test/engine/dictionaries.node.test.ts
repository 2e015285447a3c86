// Engine: the language dictionaries an index reads (custom stop words, plurals, compounds), without HTTP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Dictionaries, Index } from '../../src/engine/index.js';
import { StandardDictionaries } from '../../src/engine/standard-dictionaries.js';

function indexOf(dictionaries: Dictionaries, names: string[], settings: Record<string, unknown> = {}): Index {
  const index = new Index('dict', { dictionaries });
  index.setSettings({ searchableAttributes: ['name'], typoTolerance: false, ...settings });
  index.saveObjects(names.map((name, i) => ({ objectID: String(i + 1), name })));
  return index;
}
const ids = (index: Index, query: string, extra: Record<string, unknown> = {}) =>
  index
    .search({ query, hitsPerPage: 100, queryType: 'prefixNone', ...extra })
    .hits.map((h) => h.objectID)
    .sort();

describe('Dictionaries', () => {
  it('stop words: standard list, minus disabled languages and entries, plus enabled entries, per language', () => {
    const d = new Dictionaries();
    assert.ok(d.stopWords(['en']).has('the'));
    assert.equal(d.stopWords(['fr']).size, 0, 'no standard French list here');
    d.replace('stopwords', [
      { objectID: '1', language: 'en', word: 'The', state: 'disabled' },
      { objectID: '2', language: 'en', word: 'Deluxe', state: 'enabled' },
      { objectID: '3', language: 'fr', word: 'avec', state: 'enabled' },
    ]);
    assert.ok(!d.stopWords(['en']).has('the'));
    assert.ok(d.stopWords(['en']).has('deluxe'));
    assert.ok(!d.stopWords(['en']).has('avec'));
    assert.ok(d.stopWords(['en', 'fr']).has('avec'));
    d.setDisabledStandardStopwords(['en']);
    assert.deepEqual([...d.stopWords(['en'])], ['deluxe']);
  });

  it('plurals: a custom entry replaces the standard forms of every word it holds', () => {
    const d = new Dictionaries();
    assert.deepEqual(d.pluralForms('cactus', ['en']).sort(), ['cactu', 'cactuses']);
    assert.deepEqual(d.pluralForms('cactus', ['fr']), [], 'no standard rules outside English');
    d.replace('plurals', [{ objectID: 'c', language: 'en', words: ['Cactus', 'cacti', 'cactii'] }]);
    assert.deepEqual(d.pluralForms('cactus', ['en']).sort(), ['cacti', 'cactii']);
    assert.deepEqual(d.pluralForms('cacti', ['en']).sort(), ['cactii', 'cactus']);
    assert.deepEqual(
      d.pluralForms('cactuses', ['en']).sort(),
      ['cactuse', 'cactuseses'],
      'its standard form "cactus" belongs to the custom entry',
    );
    assert.deepEqual(d.pluralForms('cactus', ['fr']), []);
  });

  it('compounds: only non-empty decompositions of compound languages; the same map while nothing relevant changes', () => {
    const d = new Dictionaries();
    d.replace('compounds', [
      { objectID: 'k', language: 'de', word: 'Kopfschmerz', decomposition: ['Kopf', 'Schmerz'] },
      { objectID: 'a', language: 'de', word: 'Apfelmus', decomposition: [] },
    ]);
    const map = d.compounds(['de']);
    assert.deepEqual([...map], [['kopfschmerz', ['kopf', 'schmerz']]]);
    assert.equal(d.compounds(['en']).size, 0);
    d.replace('compounds', [
      ...d.entries('compounds').values(),
      { objectID: 'n', language: 'nl', word: 'appelmoes', decomposition: ['appel', 'moes'] },
    ]);
    assert.equal(d.compounds(['de']), map, 'a Dutch entry leaves the German map as it was (no re-index)');
  });

  it('the standard entries alone (StandardDictionaries) answer as Dictionaries without custom entries', () => {
    const standard = new StandardDictionaries();
    const empty = new Dictionaries();
    for (const languages of [['en'], ['fr'], ['en', 'fr'], [], ['xx']]) {
      assert.deepEqual([...standard.stopWords(languages)].sort(), [...empty.stopWords(languages)].sort());
      for (const word of ['chair', 'chairs', 'box', 'boxes', 'city', 'knife', 'children', 'glass', '42', 'a'])
        assert.deepEqual(standard.pluralForms(word, languages), empty.pluralForms(word, languages), word);
      assert.equal(standard.compounds(languages).size, 0);
      assert.equal(empty.compounds(languages).size, 0);
    }
    assert.ok(standard.stopWords(['en']).has('the'));
    assert.deepEqual(standard.pluralForms('chair', ['en']), ['chairs']);
  });

  it('an index reads the dictionaries it was given, at once', () => {
    const d = new Dictionaries();
    const index = indexOf(d, ['oak chair', 'deluxe oak chair', 'cactus', 'cacti']);
    assert.deepEqual(ids(index, 'deluxe chair', { removeStopWords: true }), ['2']);
    d.replace('stopwords', [{ objectID: '1', language: 'en', word: 'deluxe', state: 'enabled' }]);
    assert.deepEqual(ids(index, 'deluxe chair', { removeStopWords: true }), ['1', '2']);
    assert.deepEqual(ids(index, 'cactus', { ignorePlurals: true }), ['3']);
    d.replace('plurals', [{ objectID: 'c', language: 'en', words: ['cactus', 'cacti'] }]);
    assert.deepEqual(ids(index, 'cactus', { ignorePlurals: true }), ['3', '4']);
  });

  it('compound parts share the position of their word: phrases and proximity still work around them', () => {
    const d = new Dictionaries();
    d.replace('compounds', [
      { objectID: 'k', language: 'de', word: 'kopfschmerztablette', decomposition: ['kopf', 'schmerz', 'tablette'] },
    ]);
    const index = indexOf(d, ['Kopfschmerztablette extra stark', 'Kopf Schmerz Tablette'], {
      indexLanguages: ['de'],
      advancedSyntax: true,
    });
    assert.deepEqual(ids(index, 'schmerz'), ['1', '2']);
    assert.deepEqual(ids(index, '"kopfschmerztablette extra"'), ['1'], 'a phrase across the compound');
    assert.deepEqual(ids(index, '"extra stark"'), ['1']);
    assert.deepEqual(ids(index, '"kopf schmerz"'), ['2'], 'the parts of one compound are not a phrase');
    assert.deepEqual(ids(index, 'tablette extra'), ['1']);
    // the query languages select the compounds of the query: English queries are not split
    assert.deepEqual(ids(index, 'kopfschmerztablette'), ['1']);
    assert.deepEqual(ids(index, 'kopfschmerztablette', { queryLanguages: ['de'] }), ['1', '2']);
  });
});
