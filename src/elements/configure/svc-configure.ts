import { isServer, nothing, type PropertyDeclarations } from 'lit';
import type { SearchParams } from '../../client/types.js';
import { ConfigureController, parseParameter } from '../../controllers/configure-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/** Attributes of the element itself (and global HTML attributes), never search parameters. */
const OWN_ATTRIBUTES = new Set([
  'search',
  'local',
  'id',
  'class',
  'style',
  'slot',
  'hidden',
  'lang',
  'dir',
  'title',
  'part',
  'exportparts',
  'tabindex',
  'role',
  'is',
  'translate',
  'inert',
  'nonce',
  'autofocus',
  'draggable',
  'contenteditable',
  'spellcheck',
]);

/**
 * Adds search parameters to every search of its `<svc-search>`, from attributes or the `params`
 * property. Shows nothing.
 *
 * Every attribute but the element's own (`search`, `id`, `class`, global HTML attributes, `aria-*`,
 * `data-*`) is a search parameter: in kebab-case (`hits-per-page="12"`) or as named by the API
 * (`hitsPerPage="12"`, which HTML lower-cases). Values are read by the parameter's type: numbers,
 * booleans (`"true"`/`"false"`, or just present), lists (JSON array or comma-separated), filter arrays
 * (JSON or the string form). The `params` property is merged over the attributes. A value of the wrong
 * type is reported in the console (naming the attribute) and left out. Removing the element removes its
 * parameters.
 *
 * The parameters flow down to the indices added under its `<svc-search>` or `<svc-index>` (`<svc-index>`
 * elements, at any depth), as InstantSearch's `configure` does for child indices: every parameter, under
 * the index's own — a `<svc-configure>` inside the `<svc-index>` wins parameter by parameter. `local` keeps
 * them to the element's own index. Refinements, pages and facets of other elements never flow down; the query
 * does (`<svc-index>`).
 *
 * @tagname svc-configure
 * @summary Adds search parameters to every search, from its attributes or the `params` property.
 *
 * @example
 * ```html
 * <svc-configure filters="price < 100" hits-per-page="12" distinct="true" rule-contexts="shop,mobile"></svc-configure>
 * ```

 */
export class SvcConfigure extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    local: { type: Boolean },
    params: { attribute: false },
    attributeParams: { state: true, attribute: false },
  };

  /** Keep the parameters to this index: the indices added under it (`<svc-index>`) do not get them. */
  local = false;
  /** Search parameters added to every search (merged over those of the attributes). */
  declare params: SearchParams | undefined;
  declare private attributeParams: SearchParams;

  private readonly configure = new ConfigureController(this, { store: () => this.store });
  private readonly observer = isServer ? undefined : new MutationObserver(() => this.readAttributes());

  constructor() {
    super();
    this.attributeParams = {};
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.readAttributes();
    this.observer?.observe(this, { attributes: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer?.disconnect();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (
      this.params !== undefined &&
      (this.params === null || typeof this.params !== 'object' || Array.isArray(this.params))
    ) {
      console.error('<svc-configure>: `params` must be an object of search parameters, e.g. { hitsPerPage: 12 }');
      this.configure.params = { ...this.attributeParams };
    } else {
      this.configure.params = { ...this.attributeParams, ...this.params };
    }
    this.configure.inherit = !this.local;
  }

  /** The parameters sent (attributes and `params` merged). */
  get searchParameters(): SearchParams {
    return { ...this.configure.params };
  }

  private readAttributes(): void {
    const params: SearchParams = {};
    for (const { name, value } of [...this.attributes]) {
      if (OWN_ATTRIBUTES.has(name) || name.startsWith('aria-') || name.startsWith('data-') || name.startsWith('on'))
        continue;
      try {
        const [parameter, parsed] = parseParameter(name, value);
        params[parameter] = parsed;
      } catch (error) {
        console.error(
          `<svc-configure>: ${(error as Error).message.replace(/^svc-configure: /, '')}; the parameter is left out.`,
        );
      }
    }
    if (JSON.stringify(params) !== JSON.stringify(this.attributeParams)) this.attributeParams = params;
  }

  override render() {
    return nothing;
  }
}
