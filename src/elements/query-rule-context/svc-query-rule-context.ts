import { nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { QueryRuleContextController } from '../../controllers/query-rule-context-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

const list = (value: string | null) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean) ?? [];

/**
 * @tagname svc-query-rule-context
 * @summary Sends rule contexts (`ruleContexts`) with every search, from the page (`contexts`) and from its
 * refinements (`tracked-filters`), so rules with a context condition apply. Shows nothing.
 *
 * `contexts` are fixed contexts of the page (`shop`, `mobile`, `black-friday`); for each refined value of an
 * attribute of `tracked-filters`, the context `svc-<attribute>-<value>` is added (characters a context cannot
 * hold — anything but letters, digits, `_` and `-` — become `_`: `svc-brand-Office_Star`). The contexts of a
 * refinement are sent in the same request as the refinement itself. Several elements' contexts, a
 * `<svc-configure rule-contexts>` and the state's own are united. `transformRuleContexts` (property) changes the
 * list. Removing the element removes its contexts.
 *
 * @example
 * ```html
 * <svc-query-rule-context contexts="shop" tracked-filters="brand,category"></svc-query-rule-context>
 * ```
 */
export class SvcQueryRuleContext extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    contexts: { converter: list },
    trackedFilters: { attribute: 'tracked-filters', converter: list },
    transformRuleContexts: { attribute: false },
  };

  /** Contexts sent with every search (comma-separated in the attribute). */
  contexts: string[] = [];
  /** Attributes whose refined values become contexts `svc-<attribute>-<value>` (comma-separated). */
  trackedFilters: string[] = [];
  /** Changes the contexts before they are sent. */
  declare transformRuleContexts: ((contexts: string[]) => string[]) | undefined;

  #context = new QueryRuleContextController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#context, {
      contexts: this.contexts ?? [],
      trackedFilters: this.trackedFilters ?? [],
      transformRuleContexts: this.transformRuleContexts,
    });
  }

  /** The contexts sent with a search of the state on screen. */
  get ruleContexts(): string[] {
    return this.#context.contextsOf();
  }

  override render() {
    return nothing;
  }
}
