import type { HitRef, InsightsLike } from '../../insights/types.js';

/**
 * Keeps `insights.observe` / `unobserve` in step with the rendered items. Each item element carries
 * `data-svc-object-id`, `data-svc-position`, `data-svc-query-id` and `data-svc-index`; `sync` reads them
 * after each render, observes new or changed items (a new query gives the same item a new queryID) and
 * unobserves the ones that went. Used by `<svc-hits>` and the Recommend elements.
 *
 * @example
 * ```ts
 * private observed = new ObservedHits();
 * updated() { this.observed.sync(this.insights, this.renderRoot.querySelectorAll('[data-svc-object-id]')); }
 * disconnectedCallback() { super.disconnectedCallback(); this.observed.clear(); }
 * ```
 */
export class ObservedHits {
  private items = new Map<Element, string>();
  private insights: InsightsLike | undefined;

  /** The `HitRef` an item element describes (undefined without an objectID). */
  static hitRef(element: Element): HitRef | undefined {
    const objectID = element.getAttribute('data-svc-object-id');
    if (!objectID) return undefined;
    return {
      objectID,
      position: Number(element.getAttribute('data-svc-position')),
      queryID: element.getAttribute('data-svc-query-id') || undefined,
      indexName: element.getAttribute('data-svc-index') ?? '',
    };
  }

  sync(insights: InsightsLike | undefined, elements: Iterable<Element>): void {
    if (insights !== this.insights) this.clear();
    this.insights = insights;
    if (!insights) return;
    const seen = new Set<Element>();
    for (const element of elements) {
      const ref = ObservedHits.hitRef(element);
      if (!ref) continue;
      seen.add(element);
      const key = JSON.stringify(ref);
      if (this.items.get(element) === key) continue;
      if (this.items.has(element)) insights.unobserve(element);
      insights.observe(element, ref);
      this.items.set(element, key);
    }
    for (const element of [...this.items.keys()]) {
      if (!seen.has(element)) {
        insights.unobserve(element);
        this.items.delete(element);
      }
    }
  }

  /** Unobserves everything (host disconnected or insights changed). */
  clear(): void {
    for (const element of this.items.keys()) this.insights?.unobserve(element);
    this.items.clear();
  }
}
