/**
 * Personalised ranking, as the engine sees it: a user's profile (facet name → facet value → affinity
 * score, the Personalization API's `scores`) and the strategy's impact, handed to `Index.search` by the
 * caller. The engine never looks a profile up: it knows nothing of users, events or storage.
 *
 * The rule (see `docs/notes/service.md`, "Personalization"):
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
