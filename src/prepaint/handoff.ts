/**
 * What the first-paint script leaves on the `<svc-search>` it painted for, for the element to take when it is
 * defined: the answer of the first search (which the store adopts when its own first requests are the same) and
 * the clicks on the painted hits. Kept on the element under a registered symbol, so the loader's script and the
 * elements' chunks find it without importing one another. The elements' side (taking it, taking a painted shadow
 * root over) is `takeover.ts`: only the chunks use it, so it is not in the loader's file.
 */
import type { HitRef } from '../insights/types.js';
import type { InitialResults } from '../store/types.js';

/** The key of the hand-off on the root element, and of the mark on the shadow root the script painted. */
export const PREPAINT_KEY: unique symbol = Symbol.for('svc-search.prepaint') as never;

/**
 * The mark on a shadow root the script painted: `true`, or on the hits' root where clicks are recorded, the
 * removal of the recorder (`clearPrepainted` runs it when `<svc-hits>` replaces the painted list).
 */
export type PrepaintMark = true | (() => void);

/**
 * A click on a painted hit, with the time it happened: Insights sends it with its queryID and position, or as the
 * conversion `conversion` names (a click on a `data-svc-conversion` element in the hit), as it sends a later one.
 */
export interface PaintedClick {
  hit: HitRef;
  conversion?: string;
  at: number;
}

export interface PrepaintHandoff {
  /** The first search's results and the digest of its requests (see `InitialResults`). */
  initialResults: InitialResults;
  /**
   * Hands the clicks on the painted hits to `take`: those made so far at once, then each as it happens, until
   * `<svc-hits>` replaces the painted list. A later call replaces `take` (a second Insights takes the clicks from
   * then on, the first none). Absent when no click is recorded (`insights="false"`, nothing painted).
   */
  takeClicks?(take: (click: PaintedClick) => void): void;
}
