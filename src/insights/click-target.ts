/** Which hit a click was on, shared by the Insights module and the small stand-in that runs before it loads. */
import type { HitRef } from './types.js';

/** The hit a click landed in, and the conversion name when it landed on a `data-svc-conversion` element in it. */
export interface ClickTarget {
  hit: HitRef;
  /** `data-svc-conversion` of the clicked element or an ancestor inside the hit (`'Conversion'` when empty). */
  conversion?: string;
}

/**
 * Walks a click's `composedPath()` (so hits in shadow roots are found) to the first observed hit element.
 *
 * @example
 * clickTarget(event.composedPath(), observed)?.hit.position // 3
 */
export function clickTarget(path: EventTarget[], observed: Map<Element, HitRef>): ClickTarget | undefined {
  let conversion: string | undefined;
  for (const node of path) {
    if (!(node instanceof Element)) continue;
    if (conversion === undefined && node.hasAttribute('data-svc-conversion'))
      conversion = node.getAttribute('data-svc-conversion') || 'Conversion';
    const hit = observed.get(node);
    if (hit) return { hit, conversion };
  }
  return undefined;
}

/** Whether a `click`/`auxclick` counts: every click, and among aux clicks the middle button only. */
export const countsAsClick = (event: MouseEvent): boolean => event.type !== 'auxclick' || event.button === 1;
