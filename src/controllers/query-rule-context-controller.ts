import type { IndexState, Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/**
 * A value as a rule context: letters, digits, `_` and `-` (what rule conditions accept), anything else `_`.
 *
 * @example ruleContextValue('Office Supplies') // 'Office_Supplies'
 */
export function ruleContextValue(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * Headless logic of `<svc-query-rule-context>`: rule contexts (`ruleContexts`) sent with every search of the
 * store, so rules with a `context` condition apply — fixed `contexts` (the page: `shop`, `mobile`, `sale-week`)
 * and, for each refined value of the `trackedFilters` attributes, `svc-<attribute>-<value>` (InstantSearch's
 * `ais-<attribute>-<value>` with this library's prefix; characters a context cannot hold become `_`). They are
 * computed from the state the store searches, so a refinement and its contexts go in the same request; they are
 * united with every other element's contexts and the state's own. `transformRuleContexts` changes the list.
 *
 * @example
 * ```ts
 * const context = new QueryRuleContextController(host, { store });
 * context.contexts = ['shop'];
 * context.trackedFilters = ['brand'];
 * // brand "Hon" refined → ruleContexts ['shop', 'svc-brand-Hon']
 * ```
 */
export class QueryRuleContextController extends StoreController {
  /** Contexts sent with every search. */
  contexts: string[] = [];
  /** Attributes whose refined values become contexts (`svc-<attribute>-<value>`). */
  trackedFilters: string[] = [];
  /** Changes the contexts before they are sent. */
  transformRuleContexts: ((contexts: string[]) => string[]) | undefined;

  #key = '';
  #transform: ((contexts: string[]) => string[]) | undefined;
  #compute: ((state: IndexState) => string[]) | undefined;

  protected override needs(): Needs | undefined {
    if (!this.contexts.length && !this.trackedFilters.length && !this.transformRuleContexts) return undefined;
    return { ruleContexts: this.#function() };
  }

  /** The contexts sent with a search of `state` (the state on screen by default). */
  contextsOf(state: IndexState | undefined = this.snapshot?.state): string[] {
    const tracked = this.trackedFilters.flatMap((attribute) => {
      const values = [
        ...(state?.facetRefinements[attribute] ?? []),
        ...(state?.disjunctiveFacetRefinements[attribute] ?? []),
        ...(state?.numericRefinements[attribute] ?? []).map((r) => `${r.operator}${r.value}`),
      ];
      return values.map((value) => `svc-${ruleContextValue(attribute)}-${ruleContextValue(value)}`);
    });
    const contexts = [...new Set([...this.contexts, ...tracked])];
    return this.transformRuleContexts ? this.transformRuleContexts(contexts) : contexts;
  }

  /** One function per configuration: a new one (a new need) only when the configuration changed. */
  #function(): (state: IndexState) => string[] {
    const key = JSON.stringify([this.contexts, this.trackedFilters]);
    if (key !== this.#key || this.transformRuleContexts !== this.#transform || !this.#compute) {
      this.#key = key;
      this.#transform = this.transformRuleContexts;
      this.#compute = (state) => this.contextsOf(state);
    }
    return this.#compute;
  }
}
