// Engine synonyms: the expansion map (single-word), each type's effect on matching, ranking of a
// synonym match against the word itself, altcorrection typos, placeholders, highlighting, `synonyms: false`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildExpansion, Index, type Synonym } from '../../../src/service/engine/index.js';

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
  it('is built once from the synonyms: groups both ways, one-way one way, corrections with typos, multi-word members skipped', () => {
    const map = buildExpansion([
      { objectID: 'a', type: 'synonym', synonyms: ['Couch', 'sofa', 'settee', 'lounge chair'] },
      { objectID: 'b', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone'] },
      { objectID: 'c', type: 'altcorrection2', word: 'nokia', corrections: ['nokai'] },
      { objectID: 'd', type: 'placeholder', placeholder: '<number>', replacements: ['1', 'one'] },
    ]);
    assert.deepEqual(map.get('couch')!.map((a) => a.word), ['sofa', 'settee']);
    assert.deepEqual(map.get('settee')!.map((a) => a.word), ['couch', 'sofa']);
    assert.equal(map.get('lounge'), undefined);
    assert.deepEqual(map.get('phone'), [{ word: 'smartphone', typos: 0, placeholder: false }]);
    assert.equal(map.get('smartphone'), undefined);
    assert.deepEqual(map.get('nokia'), [{ word: 'nokai', typos: 2, placeholder: false }]);
    assert.deepEqual(map.get('one'), [{ word: 'number', typos: 0, placeholder: true }]);
  });
});

describe('matching and ranking with synonyms', () => {
  const index = indexOf(['Red couch', 'Blue sofa', 'Smartphone case', 'Phone stand', 'Blue sofa couch', 'Nokai 3310', 'Apartment <number> Main'], [
    { objectID: 's', type: 'synonym', synonyms: ['couch', 'sofa'] },
    { objectID: 'o', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone'] },
    { objectID: 'c', type: 'altcorrection1', word: 'nokia', corrections: ['nokai'] },
    { objectID: 'p', type: 'placeholder', placeholder: '<number>', replacements: ['1', 'one', 'two'] },
  ]);

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
    assert.deepEqual(answer.hits.map((h) => h.objectID), ['6']);
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
    const other = indexOf(['Red couch', 'Blue sofa'], [{ objectID: 's', type: 'synonym', synonyms: ['couch', 'sofa'] }]);
    assert.deepEqual(ids(other, 'couch').sort(), ['1', '2']);
    other.setSynonyms([]);
    assert.deepEqual(ids(other, 'couch'), ['1']);
    assert.deepEqual(other.getSynonyms(), []);
  });
});
