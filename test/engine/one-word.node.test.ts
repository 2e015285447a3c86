// The one-word path on bits (`one-word.ts`) against the general path: on a Zipf corpus large enough for it
// to trigger (a few very common words, many ties in the custom ranking, replaced and deleted records so the
// order has a tail and the postings dead ids), every query it answers gives the same hits in the same order,
// the same nbHits and the same match figures as the general path; and when its walk gives up, the general
// path's answer is the search's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Index, parseSearchParams } from '../../src/engine/index.js';
import { execute, matchDeferred, release } from '../../src/engine/matching.js';
import { ONE_WORD_MIN_POSTINGS, rankOneWord } from '../../src/engine/one-word.js';
import { effectiveParams } from '../../src/engine/query.js';
import { criteria, rankDistinct } from '../../src/engine/ranking.js';
import { LATE_BEST_ORDER, SEARCHABLE, commonWords, lateBestIndex, stateOf, walkCorpus } from './walk-corpus.js';

interface Ranked {
  ordered: number[];
  nbHits: number;
  /** The match words (typos, attribute key, exact words) of the ordered records. */
  figures: number[];
  /** The candidates, in the order the facet counts read them. */
  candidates: number[];
}

/** One search's ranking by one path: on bits (null when it declines) or the general one. */
function rankBy(index: Index, input: Record<string, unknown>, onBits: boolean): Ranked | null {
  const state = stateOf(index);
  const params = parseSearchParams(input);
  const eff = effectiveParams(state.settings, params);
  const exec = execute(state, params, eff, onBits);
  try {
    const crits = criteria(state, exec, false);
    const page = (params.page as number | undefined) ?? 0;
    const need = (page + 1) * eff.hitsPerPage;
    let ranked: { ordered: number[]; nbHits: number } | null;
    if (onBits) ranked = rankOneWord(state, exec, crits, need);
    else {
      matchDeferred(state, exec);
      ranked = rankDistinct(state, exec, crits, need);
    }
    if (!ranked) return null;
    const figures = ranked.ordered.map((doc) => state.match[(doc << 1) + 1]!);
    return { ordered: ranked.ordered, nbHits: ranked.nbHits, figures, candidates: Array.from(exec.candidates) };
  } finally {
    release(state, exec);
  }
}

describe('one-word queries on bits', () => {
  const index = walkCorpus('one-word');
  const words = commonWords(index, 6);
  // prefixes of the common words (2 to 5 letters: with and without typo ranges), the words themselves
  // (an exact range before the longer words), and a few letters alone
  const queries = [
    ...new Set([
      ...words.flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w.slice(0, 4), w.slice(0, 5), w]),
      'a',
      's',
      'co',
    ]),
  ];
  const variants: Array<Record<string, unknown>> = [
    {},
    { page: 2, hitsPerPage: 7 },
    { hitsPerPage: 0 },
    { hitsPerPage: 300 },
    { filters: 'price < 300' },
    { ranking: undefined, typoTolerance: false },
  ];

  it('ranks and counts every query it answers as the general path does', () => {
    let answered = 0;
    for (const query of queries) {
      for (const variant of variants) {
        const input = { query, ...variant };
        const fast = rankBy(index, input, true);
        const general = rankBy(index, input, false)!;
        if (!fast) continue;
        answered++;
        assert.deepEqual(fast, general, JSON.stringify(input));
      }
    }
    // the corpus is fixed: it answers 83 of them (the others have too few postings); fewer would compare less
    assert.ok(answered >= 80, `answered ${answered}`);
  });

  it('gives the search the same hits, highlights and ranking info as the general path', () => {
    const onBits = queries.filter((query) => rankBy(index, { query, hitsPerPage: 30 }, true));
    assert.ok(onBits.length >= 12, onBits.join());
    for (const query of onBits) {
      const input = { query, hitsPerPage: 30, getRankingInfo: true };
      const fast = index.search(input);
      // restricted to every searchable attribute, the same query takes the general path
      const general = index.search({ ...input, restrictSearchableAttributes: SEARCHABLE });
      assert.equal(fast.nbHits, general.nbHits, query);
      assert.deepEqual(fast.hits, general.hits, query);
    }
  });

  it('counts facets and their stats as the general path does', () => {
    for (const query of [words[0]!.slice(0, 2), words[0]!, words[1]!.slice(0, 3)]) {
      const input = { query, facets: ['brand', 'category', 'price'], filters: 'price > 20' };
      assert.ok(rankBy(index, input, true), `"${query}" is answered on bits`);
      const fast = index.search(input);
      const general = index.search({ ...input, restrictSearchableAttributes: SEARCHABLE });
      assert.deepEqual(fast.facets, general.facets, query);
      assert.deepEqual(fast.facets_stats, general.facets_stats, query);
      assert.deepEqual(fast.hits, general.hits, query);
    }
  });

  it('leaves a query of few postings to the general path', () => {
    const rare = commonWords(index, 3000).at(-1)!;
    assert.equal(rankBy(index, { query: rare }, true), null);
  });

  it('gives up when the best records are rare among the matches, and the general path answers', () => {
    // 12,000 records hold "zyx…" only in their category (attribute key 2000); 30 records hold it first in
    // their name (key 0), all at the end of the custom order: the walk would read every record
    const rare = lateBestIndex(
      'rare-best',
      (i) => `zyxcat${i % 5}`,
      (i) => `zyxname${i % 3} item`,
    );
    assert.ok(12_000 >= ONE_WORD_MIN_POSTINGS);
    assert.equal(rankBy(rare, { query: 'zyx' }, true), null);
    const answer = rare.search({ query: 'zyx', hitsPerPage: 40 });
    const general = rare.search({ query: 'zyx', hitsPerPage: 40, restrictSearchableAttributes: SEARCHABLE });
    assert.equal(answer.nbHits, 12_030);
    assert.deepEqual(answer.hits, general.hits);
    assert.deepEqual(
      answer.hits.slice(0, 30).map((h) => h.objectID),
      LATE_BEST_ORDER,
    );
  });
});
