/**
 * The elements' side of the first paint (src/prepaint): `<svc-search>` takes the hand-off the script left on it,
 * `<svc-hits>` and the highlights take over the shadow roots it painted. Only the chunks use these: they are not in
 * the loader's file, which carries the script.
 */
import { PREPAINT_KEY, type PrepaintHandoff, type PrepaintMark } from './handoff.js';

type Marked<T> = T & { [PREPAINT_KEY]?: PrepaintMark };

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

/**
 * Whether `root` is a shadow root the first-paint script painted (its nodes are replaced at the first render).
 *
 * @example
 * if (isPrepainted(this.shadowRoot)) return false; // nothing to render in the painted hits' place yet
 */
export const isPrepainted = (root: ShadowRoot | null): boolean =>
  Boolean(root && (root as Marked<ShadowRoot>)[PREPAINT_KEY]);

/**
 * Removes what the first-paint script painted in `root` (the element renders in its place, in the same task, so no
 * frame shows neither), and the recorder of the clicks on the painted hits with it: a click on the element's own
 * hits is Insights' to see.
 *
 * @example
 * if (isPrepainted(this.shadowRoot)) clearPrepainted(this.shadowRoot!);
 */
export function clearPrepainted(root: ShadowRoot): void {
  const marked = root as Marked<ShadowRoot>;
  const mark = marked[PREPAINT_KEY];
  if (typeof mark === 'function') mark();
  root.replaceChildren();
  delete marked[PREPAINT_KEY];
}
