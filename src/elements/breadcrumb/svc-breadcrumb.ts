import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { BreadcrumbController, type BreadcrumbItem } from '../../controllers/breadcrumb-controller.js';
import { DEFAULT_HIERARCHICAL_SEPARATOR } from '../../controllers/hierarchical-menu-controller.js';
import { isPlainClick } from '../base/links.js';
import { SvcElement } from '../base/svc-element.js';
import type { SvcRefineEventDetail } from '../refinement-list/svc-refinement-list.js';
import { styles } from './styles.js';

/**
 * @tagname svc-breadcrumb
 * @summary The path of the current hierarchical refinement ("Home › Furniture › Chairs"): each level a link
 * back to it, "Home" to no refinement.
 *
 * `attributes` names the levels as `<svc-hierarchical-menu>` does (`hierarchicalCategories.lvl0,…`); the
 * breadcrumb reads the refinement from the search state (the menu, a URL, a chip…) and asks nothing of the
 * requests. A `nav` labelled "Breadcrumb" holds an ordered list: "Home" and every level but the last are links
 * (`href` of that level's page, a plain click refines in place), the last level is the current one
 * (`aria-current="location"`). The separators are hidden from assistive technologies; `›` turns under
 * `dir="rtl"` (a mirrored character). With nothing refined, only "Home" is shown (as the current location).
 *
 * @csspart nav - The `nav`.
 * @csspart list - The `ol`.
 * @csspart item - Each level's `li` ("Home" included).
 * @csspart link - A link back to a level.
 * @csspart current - The current level (the last one).
 * @csspart separator - The separator between levels (`aria-hidden`).
 *
 * @cssproperty --svc-accent - Colour of the links and focus ring.
 * @cssproperty --svc-muted-color - Colour of the separators.
 *
 * @event {CustomEvent<SvcRefineEventDetail>} svc-refine - The user went back to a level. `detail: { attribute, value, refined }`: the level's attribute and path (`refined: true`), or for "Home" the first attribute, `''` and `refined: false`.
 *
 * Translations: `label` ("Breadcrumb"), `home` ("Home"), `separator` ("›").
 */
export class SvcBreadcrumb extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attributeNames: {
      attribute: 'attributes',
      converter: (value: string | null) =>
        value
          ?.split(',')
          .map((item) => item.trim())
          .filter(Boolean),
    },
    separator: {},
    rootPath: { attribute: 'root-path' },
  };
  static override defaultTranslations = {
    label: 'Breadcrumb',
    home: 'Home',
    separator: '›',
  };

  /** One attribute per level (the `attributes` attribute, comma-separated; the property cannot be `attributes`). */
  attributeNames: string[] = [];
  /** Between the levels of a path (default ` > `). */
  separator = DEFAULT_HIERARCHICAL_SEPARATOR;
  /** A path whose levels are not shown (the hierarchical menu's `root-path`). */
  declare rootPath: string | undefined;

  #crumbs = new BreadcrumbController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#crumbs, {
      attributes: this.attributeNames ?? [],
      separator: this.separator || DEFAULT_HIERARCHICAL_SEPARATOR,
      rootPath: this.rootPath,
    });
  }

  protected override firstUpdated(): void {
    if (!this.attributeNames?.length)
      console.error('<svc-breadcrumb>: the `attributes` attribute is required (one attribute per level).');
  }

  /** The levels shown after "Home". */
  get items(): BreadcrumbItem[] {
    return this.#crumbs.items;
  }

  /** Whether there is a refinement to go back from. */
  get canRefine(): boolean {
    return this.#crumbs.canRefine;
  }

  /** Goes back to a level (a path), or to "Home" with `undefined`, as if the user chose it (fires no event). */
  refine(value: string | undefined): void {
    this.#crumbs.refine(value);
  }

  #choose(event: MouseEvent, value: string | undefined): void {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    this.#crumbs.refine(value);
    const attribute =
      value === undefined
        ? (this.attributeNames[0] ?? '')
        : (this.attributeNames[value.split(this.separator).length - 1] ?? '');
    this.emit<SvcRefineEventDetail>('svc-refine', { attribute, value: value ?? '', refined: value !== undefined });
  }

  #renderLevel(label: string, value: string | undefined, current: boolean, first: boolean) {
    return html`
      <li part="item">
        ${first ? nothing : html`<span part="separator" aria-hidden="true">${this.t('separator')}</span>`}
        ${
          current
            ? html`<span part="current" aria-current="location">${label}</span>`
            : html`<a
              part="link"
              href=${this.#crumbs.createURL(value)}
              @click=${(event: MouseEvent) => this.#choose(event, value)}
              >${label}</a
            >`
        }
      </li>
    `;
  }

  override render() {
    const items = this.#crumbs.items;
    return html`
      <nav part="nav" aria-label=${this.t('label')}>
        <ol part="list">
          ${this.#renderLevel(this.t('home'), undefined, items.length === 0, true)}
          ${items.map((item, i) => this.#renderLevel(item.label, item.value, i === items.length - 1, false))}
        </ol>
      </nav>
    `;
  }
}
