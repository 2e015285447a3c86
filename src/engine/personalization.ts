/**
 * Personalised ranking, as the engine sees it: a user's profile (facet name → facet value → affinity
 * score, the Personalization API's `scores`) and the strategy's impact, handed to `Index.search` by the
 * caller. The engine never looks a profile up: it knows nothing of users, events or storage.
 *
 * The rule (see `docs/notes/personalization.md`):
 * - a record's `filtersScore` is the sum over the profile's facets of the score of the record's value
 *   (the best one when the record has several values in that facet; 0 when none is in the profile);
 *   values are compared case-insensitively, as filters are;
 * - `score = filtersScore × impact / 100`, `rankingScore = ⌊score⌋`;
 * - `rankingScore` is one more tie-breaking criterion, higher first, placed where `custom` stands in the
 *   `ranking` setting, just before the `customRanking` attributes: at impact 100 every point of
 *   affinity decides among records tied on the textual criteria; a smaller impact shrinks the scores
 *   into coarser buckets (e.g. at 50, 2k and 2k + 1 tie; at 10, everything under 10 points ties at 0),
 *   so personalisation decides less often and the custom ranking more often.
 */
import { textsOf, type Column } from './columns.js';
import type { IndexState } from './index-state.js';

/** What `Index.search` needs to personalise one query. */
export interface PersonalizationInput {
  /** 0–100 (`personalizationImpact`); 0 leaves the ranking unchanged. */
  impact: number;
  /** Facet name → facet value → score (1–20 in the service's profiles). */
  scores: Record<string, Record<string, number>>;
}

/** The optional second argument of `Index.search`. */
export interface SearchOptions {
  /** The user's profile and the strategy's impact; absent = the ranking of every other user. */
  personalization?: PersonalizationInput;
}

/** `_rankingInfo.personalization` of a personalised search (`getRankingInfo`). */
export interface PersonalizationRankingInfo {
  /** Sum of the profile's scores of the record's facet values, before the impact. */
  filtersScore: number;
  /** The figure the ranking compares (higher first): `⌊score⌋`. */
  rankingScore: number;
  /** `filtersScore × impact / 100`. */
  score: number;
}

/**
 * The ranking figures of one record.
 *
 * @example
 * personalizationFigures(23, 50) // { filtersScore: 23, rankingScore: 11, score: 11.5 }
 */
export function personalizationFigures(filtersScore: number, impact: number): PersonalizationRankingInfo {
  const score = Math.round(filtersScore * impact) / 100;
  return { filtersScore, rankingScore: Math.floor(score), score };
}

/**
 * The profile score of each record for a personalised query: per facet of the profile, the score of
 * the record's value (the best of its values; values matched case-insensitively, like filters),
 * summed over the facets.
 * @example const score = personalScorer(state, { impact: 100, scores: { brand: { Hon: 20 } } }); score(doc) // 20 for a Hon record
 */
export function personalScorer(state: IndexState, input: PersonalizationInput): (doc: number) => number {
  const facets: Array<{ col: Column; byValue: Map<number, number> }> = [];
  for (const [facet, values] of Object.entries(input.scores)) {
    if (!values || typeof values !== 'object') continue;
    const col = textsOf(state.column(facet));
    const byValue = new Map<number, number>();
    for (const [value, score] of Object.entries(values)) {
      if (typeof score !== 'number' || !(score > 0)) continue;
      for (const vid of col.lower.get(value.toLowerCase()) ?? [])
        byValue.set(vid, Math.max(byValue.get(vid) ?? 0, score));
    }
    if (byValue.size) facets.push({ col, byValue });
  }
  return (doc) => {
    let total = 0;
    for (const { col, byValue } of facets) {
      const single = col.single[doc]!;
      if (single >= 0) total += byValue.get(single) ?? 0;
      else if (single === -2) {
        let best = 0;
        for (const vid of col.multi.get(doc)!) best = Math.max(best, byValue.get(vid) ?? 0);
        total += best;
      }
    }
    return total;
  };
}
