import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-query-rule-custom-data>`: the `userData` of the rules applied to the search (each
 * rule's consequence `userData`, in order: banners, messages), through an optional `transformItems`.
 *
 * @example
 * ```ts
 * const banners = new QueryRuleCustomDataController(host, { store });
 * banners.items; // [{ title: 'Sit well, work well', link: '?q=chairs' }] for the query "chairs"
 * ```
 */
export class QueryRuleCustomDataController<T = Record<string, unknown>> extends StoreController {
  /** Changes the items before they are shown (filter, map, sort). */
  transformItems: ((items: T[]) => T[]) | undefined;

  /** The rules' `userData` of the results on screen (empty without results or rules). */
  get items(): T[] {
    const data = this.snapshot?.results?.userData;
    const items = Array.isArray(data) ? (data as T[]) : [];
    return this.transformItems ? this.transformItems(items) : items;
  }
}
