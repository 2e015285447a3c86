// Queries of several words ranked in the custom order (`many-words.ts`) against the general path: on a Zipf
// corpus large enough for it to trigger (a few very common words, many ties in the custom ranking, replaced and
// deleted records so the order has a tail and the postings dead ids), every query it answers gives the same
// records in the same order, the same nbHits and the same match figures as the bucket sort over every candidate;
// the searches give the same hits (highlights, ranking info), facets and stats; and both ways out of the walk
// (the bound reached, the threshold pass) are taken and checked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installFeature } from '../../src/engine/features.js';
import { type Index, parseSearchParams } from '../../src/engine/index.js';
import { MANY_WORDS_LIMITS, manyWordsStats, rankManyWords } from '../../src/engine/many-words.js';
import { execute, release } from '../../src/engine/matching.js';
import { rankOneWord } from '../../src/engine/one-word.js';
import { effectiveParams } from '../../src/engine/query.js';
import { criteria, rankDistinct } from '../../src/engine/ranking.js';
import { LATE_BEST_ORDER, commonWords, lateBestIndex, stateOf, walkCorpus } from './walk-corpus.js';

interface Ranked {
  ordered: number[];
  nbHits: number;
  /** The match words (matched words, typos, attribute key, exact words) of the ordered records. */
  figures: number[];
}

/** One search's ranking by one path: in the order (null when it declines) or the general one. */
function rankBy(index: Index, input: Record<string, unknown>, walk: boolean): Ranked | null {
  const state = stateOf(index);
  const params = parseSearchParams(input);
  const eff = effectiveParams(state.settings, params);
  const exec = execute(state, params, eff);
  try {
    const crits = criteria(state, exec, false);
    const hitsPerPage = eff.hitsPerPage;
    const need = (((params.page as number | undefined) ?? 0) + 1) * hitsPerPage;
    const ranked = walk ? rankManyWords(state, exec, crits, need) : rankDistinct(state, exec, crits, need);
    if (!ranked) return null;
    const figures = ranked.ordered.flatMap((doc) => [state.match[doc << 1]! & 0xffff, state.match[(doc << 1) + 1]!]);
    return { ordered: ranked.ordered, nbHits: ranked.nbHits, figures };
  } finally {
    release(state, exec);
  }
}

/** `search` with the general path for queries of several words (the one-word path left as it is). */
function generalSearch(index: Index, input: Record<string, unknown>) {
  installFeature('orderWalks', {
    rankOneWord: (state, exec, crits, need) => (exec.oneWord ? rankOneWord(state, exec, crits, need) : null),
  });
  try {
    return index.search(input);
  } finally {
    installFeature('orderWalks', { rankOneWord });
  }
}

/** Runs `fn` with the walk's limits lowered so that it answers the queries of a 40,000-record corpus. */
function forced<T>(fn: () => T, walkPerHit = 4): T {
  const saved = { ...MANY_WORDS_LIMITS };
  Object.assign(MANY_WORDS_LIMITS, { walkPerHit, positionsPerCandidate: 1e9 });
  try {
    return fn();
  } finally {
    Object.assign(MANY_WORDS_LIMITS, saved);
  }
}

/** The word with one letter changed (a typo), or dropped when too short to change in the middle. */
function typo(word: string): string {
  const at = Math.min(2, word.length - 1);
  return `${word.slice(0, at)}${word[at] === 'x' ? 'q' : 'x'}${word.slice(at + 1)}`;
}

describe('queries of several words ranked in the order', () => {
  const index = walkCorpus('many-words');
  const words = commonWords(index, 8);
  // pairs (and a triple) of common words, each with and without a typo, in both orders, and a prefix last
  const queries = [
    ...new Set([
      ...words
        .slice(0, 6)
        .flatMap((a, i) =>
          words
            .slice(i + 1, 7)
            .flatMap((b) => [`${a} ${b}`, `${typo(a)} ${b}`, `${b} ${typo(a)}`, `${a} ${b.slice(0, 3)}`]),
        ),
      `${words[0]} ${words[1]} ${words[2]}`,
      `${typo(words[0]!)} ${words[1]} ${words[2]}`,
    ]),
  ];
  const variants: Array<Record<string, unknown>> = [
    {},
    { page: 2, hitsPerPage: 7 },
    { hitsPerPage: 1 },
    { filters: 'price < 300' },
    { ranking: undefined, typoTolerance: false },
    { typoTolerance: 'min' },
    { optionalWords: [words[1]!] },
  ];

  /** Compares both paths on every query and variant; the number the walk answered. */
  function compareAll(): number {
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
    return answered;
  }

  it('ranks and counts every query it answers as the general path does', () => {
    const before = manyWordsStats();
    // its own limits: the largest candidate sets of the corpus; lowered: almost all, with budgets of a few records
    const answered = compareAll() + forced(compareAll) + forced(compareAll, 1);
    const after = manyWordsStats();
    assert.ok(answered >= 600, `answered ${answered} of ${queries.length * variants.length} × 3`);
    assert.equal(after.answers - before.answers, answered);
    // both ways out of the walk were compared: the bound reached, and the threshold pass adding records
    assert.ok(after.atBound - before.atBound >= 50, 'walks stop on the bound');
    assert.ok(after.answers - after.atBound - (before.answers - before.atBound) >= 50, 'walks reach their budget');
    assert.ok(after.added > before.added, 'the threshold pass adds records');
  });

  it('gives the search the same hits, highlights, ranking info, facets and stats as the general path', () => {
    let compared = 0;
    for (const query of queries.slice(0, 40)) {
      const input = {
        query,
        hitsPerPage: 30,
        getRankingInfo: true,
        facets: ['brand', 'category', 'price'],
        filters: 'price > 20',
      };
      const before = manyWordsStats().answers;
      const fast = forced(() => index.search(input));
      if (manyWordsStats().answers === before) continue;
      compared++;
      const general = generalSearch(index, input);
      assert.equal(manyWordsStats().answers, before + 1, 'the general search does not take the path');
      assert.equal(fast.nbHits, general.nbHits, query);
      assert.deepEqual(fast.hits, general.hits, query);
      assert.deepEqual(fast.facets, general.facets, query);
      assert.deepEqual(fast.facets_stats, general.facets_stats, query);
    }
    assert.ok(compared >= 20, `compared ${compared}`);
  });

  it('orders by the ranking setting, whatever its order of criteria', () => {
    const reordered = walkCorpus('many-words');
    reordered.setSettings({
      ranking: ['attribute', 'proximity', 'custom', 'typo', 'words', 'exact'],
    });
    const query = `${typo(words[0]!)} ${words[1]}`;
    // custom before typo: the general path answers
    assert.equal(
      forced(() => rankBy(reordered, { query }, true)),
      null,
    );
    reordered.setSettings({ ranking: ['exact', 'attribute', 'proximity', 'words', 'typo', 'custom'] });
    const fast = forced(() => rankBy(reordered, { query, hitsPerPage: 50 }, true));
    assert.ok(fast, 'match criteria in another order, the order last: answered');
    assert.deepEqual(fast, rankBy(reordered, { query, hitsPerPage: 50 }, false));
  });

  it('leaves small candidate sets, distinct, geo and sort orders first to the general path', () => {
    const rare = commonWords(index, 3000).at(-1)!;
    assert.equal(rankBy(index, { query: `${words[0]} ${rare}` }, true), null, 'few candidates');
    assert.equal(rankBy(index, { query: words[0]!.slice(0, 2) }, true), null, 'one word');
    const deep = rankBy(index, { query: `${words[0]} ${words[1]}`, hitsPerPage: 1000 }, true);
    assert.equal(deep, null, 'a page too deep for the walk');
    const query = `${words[0]} ${words[1]}`;
    // the same query with the limits lowered is answered, so each refusal below is the parameter's
    assert.ok(forced(() => rankBy(index, { query }, true)));
    const before = manyWordsStats().answers;
    forced(() => {
      index.search({ query, aroundLatLng: '48.85, 2.35', aroundRadius: 1000 });
      index.search({ query, optionalFilters: ['brand:Acme'] });
      index.search({ query }, { personalization: { impact: 100, scores: { brand: { Acme: 20 } } } });
    });
    assert.equal(manyWordsStats().answers, before, 'geo, optionalFilters, personalisation: the general path');
    const distinct = walkCorpus('many-words');
    distinct.setSettings({ attributeForDistinct: 'brand', distinct: true });
    const answer = forced(() => distinct.search({ query, hitsPerPage: 10 }));
    assert.equal(manyWordsStats().answers, before, 'distinct: the general path');
    assert.deepEqual(answer.hits, generalSearch(distinct, { query, hitsPerPage: 10 }).hits);
  });

  it('puts the best records first when they come last in the order (the threshold pass finds them)', () => {
    // 12,000 records hold "alpha beta" far apart in their category; 30 hold "alpha beta" first in their name,
    // all at the end of the custom order: the walk reads its budget, then the threshold pass finds the 30
    const late = lateBestIndex(
      'late-best',
      (i) => `alpha one two three beta ${i % 5}`,
      (i) => `alpha beta item ${i % 3}`,
    );
    const before = manyWordsStats();
    const answer = late.search({ query: 'alpha beta', hitsPerPage: 40 });
    const after = manyWordsStats();
    assert.equal(after.answers, before.answers + 1);
    assert.equal(after.atBound, before.atBound, 'the bound is not reached');
    assert.equal(after.added - before.added, 30, 'the threshold pass adds the 30');
    assert.equal(answer.nbHits, 12_030);
    assert.deepEqual(answer.hits, generalSearch(late, { query: 'alpha beta', hitsPerPage: 40 }).hits);
    assert.deepEqual(
      answer.hits.slice(0, 30).map((h) => h.objectID),
      LATE_BEST_ORDER,
    );
  });
});
