/**
 * What the first-paint script leaves on the `<svc-search>` it painted for, for the element to take when it is
 * defined: the answer of the first search (which the store adopts when its own first requests are the same) and
 * the clicks on painted hits made before Insights was there. Kept on the element under a registered symbol, so
 * the loader's script and the elements' chunks find it without importing one another.
 */
import type { HitRef } from '../insights/types.js';
import type { InitialResults } from '../store/types.js';

/** The key of the hand-off on the root element, and of the mark on the shadow root the script painted. */
export const PREPAINT_KEY: unique symbol = Symbol.for('svc-search.prepaint') as never;

/**
 * A click on a painted hit, with the time it happened: Insights sends it with its queryID and position, or as the
 * conversion `conversion` names (a click on a `data-svc-conversion` element in the hit), as it sends a later one.
 */
export interface EarlyClick {
  hit: HitRef;
  conversion?: string;
  at: number;
}

export interface PrepaintHandoff {
  /** The first search's results and the digest of its requests (see `InitialResults`). */
  initialResults: InitialResults;
  /** The clicks on painted hits so far; once taken, the script records no more (Insights sees the next ones). */
  takeClicks(): EarlyClick[];
}

/**
 * The hand-off left on `root` by the first-paint script, taken once (a root built again searches on its own).
 *
 * @example
 * const handoff = takePrepaint(this); // in <svc-search> as it creates its store
 */
export function takePrepaint(root: Element): PrepaintHandoff | undefined {
  const holder = root as Element & { [PREPAINT_KEY]?: PrepaintHandoff };
  const handoff = holder[PREPAINT_KEY];
  delete holder[PREPAINT_KEY];
  return handoff;
}

/** Whether `root` is a shadow root the first-paint script painted (its nodes are replaced at the first render). */
export const isPrepainted = (root: ShadowRoot | null): boolean =>
  Boolean(root && (root as ShadowRoot & { [PREPAINT_KEY]?: boolean })[PREPAINT_KEY]);

/**
 * Removes what the first-paint script painted in `root` (the element renders in its place, in the same task, so no
 * frame shows neither).
 *
 * @example
 * if (isPrepainted(this.shadowRoot)) clearPrepainted(this.shadowRoot!);
 */
export function clearPrepainted(root: ShadowRoot): void {
  root.replaceChildren();
  delete (root as ShadowRoot & { [PREPAINT_KEY]?: boolean })[PREPAINT_KEY];
}
