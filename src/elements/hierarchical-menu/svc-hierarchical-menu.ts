import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import {
  DEFAULT_HIERARCHICAL_SEPARATOR,
  DEFAULT_HIERARCHICAL_SORT,
  HierarchicalMenuController,
  type HierarchicalMenuItem,
} from '../../controllers/hierarchical-menu-controller.js';
import type { RefinementSortCriterion } from '../../controllers/value-sort.js';
import { isPlainClick } from '../base/links.js';
import { SvcElement } from '../base/svc-element.js';
import type { SvcRefineEventDetail } from '../refinement-list/svc-refinement-list.js';
import { styles } from './styles.js';

const list = (value: string | null) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * @tagname svc-hierarchical-menu
 * @summary A hierarchical facet (InstantSearch's hierarchical menu): categories and their sub-categories as
 * links with counts; choosing one refines it, choosing the refined one goes back up.
 *
 * `attributes` names one attribute per level (`hierarchicalCategories.lvl0,hierarchicalCategories.lvl1`) whose
 * values are paths (`Furniture > Chairs`, levels joined by `separator`). The first level is listed (or the
 * children of `root-path`); under the refined value and each of its parents, the next level opens. Counts are
 * those of each level as if the menu were not refined (its siblings keep theirs), asked in the same request.
 * Each value is a real link (`href` of the page with that refinement: middle-click opens it in a new tab) whose
 * plain click refines in place; the refined value has `aria-current="true"`. Values are sorted by name unless
 * `sort-by` says otherwise; while it is the default, the results' value ordering (`renderingContent`) applies.
 *
 * @csspart list - Each level's `ul` (the nested ones also have the part `child-list`).
 * @csspart child-list - A nested level's `ul`.
 * @csspart item - Each value's `li`; the values on the refined path also have the part `selected-item`.
 * @csspart link - The value's link.
 * @csspart label - The last level of the value's path.
 * @csspart count - The count.
 * @csspart show-more - The show more/less button.
 *
 * @cssproperty --svc-hierarchical-menu-indent - Indent of each nested level (default `1rem`).
 * @cssproperty --svc-count-background - Background of the counts.
 * @cssproperty --svc-muted-color - Colour of the counts.
 * @cssproperty --svc-accent - Focus ring and show-more colour.
 * @cssproperty --svc-gap - Space between label and count.
 *
 * @event {CustomEvent<SvcRefineEventDetail>} svc-refine - The user chose a value. `detail: { attribute, value, refined }`: the level's attribute, the path, and whether it is now refined (false when going up from it).
 *
 * Translations: `listLabel` ("Filter by {attribute}", the first attribute without its level), `showMore`
 * ("Show more"), `showLess` ("Show less"), `count` ("{count}").
 */
export class SvcHierarchicalMenu extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attributeNames: { attribute: 'attributes', converter: list },
    separator: {},
    rootPath: { attribute: 'root-path' },
    showParentLevel: { attribute: 'show-parent-level', converter: (value: string | null) => value !== 'false' },
    limit: { type: Number },
    showMore: { type: Boolean, attribute: 'show-more' },
    showMoreLimit: { type: Number, attribute: 'show-more-limit' },
    sortBy: { attribute: 'sort-by', converter: list },
  };
  static override defaultTranslations = {
    listLabel: 'Filter by {attribute}',
    showMore: 'Show more',
    showLess: 'Show less',
    count: '{count}',
  };

  /**
   * One attribute per level, first level first: the `attributes` attribute, comma-separated (the property
   * cannot be called `attributes`, which every element has).
   */
  attributeNames: string[] = [];
  /** Between the levels of a path (default ` > `). */
  separator = DEFAULT_HIERARCHICAL_SEPARATOR;
  /** A path whose children are the first level listed (e.g. `Furniture`). */
  declare rootPath: string | undefined;
  /** Show the siblings of the values on the refined path; `show-parent-level="false"` shows only the path and its children. */
  showParentLevel = true;
  /** Values shown per level (default 10). */
  limit = 10;
  /** Show a button revealing up to `show-more-limit` values per level. */
  showMore = false;
  /** Values shown per level after "Show more" (default 20). */
  showMoreLimit = 20;
  /** Comma-separated criteria: `isRefined`, `count[:asc|:desc]`, `name[:asc|:desc]` (default `name:asc`). */
  declare sortBy: RefinementSortCriterion[] | undefined;

  #menu = new HierarchicalMenuController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    Object.assign(this.#menu, {
      attributes: this.attributeNames ?? [],
      separator: this.separator || DEFAULT_HIERARCHICAL_SEPARATOR,
      rootPath: this.rootPath,
      showParentLevel: this.showParentLevel,
      limit: this.limit > 0 ? this.limit : 10,
      showMore: this.showMore,
      showMoreLimit: this.showMoreLimit,
      sortBy: this.sortBy?.length ? this.sortBy : DEFAULT_HIERARCHICAL_SORT,
    });
  }

  protected override firstUpdated(): void {
    if (!this.attributeNames?.length)
      console.error('<svc-hierarchical-menu>: the `attributes` attribute is required (one attribute per level).');
  }

  /** The tree shown. */
  get items(): HierarchicalMenuItem[] {
    return this.#menu.items;
  }

  /** Whether there is anything to choose (a value, or a refinement to undo). */
  get canRefine(): boolean {
    return this.#menu.canRefine;
  }

  /** Refines `value` (a path) as if the user chose it (fires no event). */
  refine(value: string): void {
    this.#menu.refine(value);
  }

  #choose(event: MouseEvent, item: HierarchicalMenuItem): void {
    if (!isPlainClick(event)) return; // a new tab or window follows the link
    event.preventDefault();
    const wasRefined = this.#menu.refined?.value === item.value;
    this.#menu.refine(item.value);
    const attribute = this.attributeNames[item.value.split(this.separator).length - 1] ?? '';
    this.emit<SvcRefineEventDetail>('svc-refine', { attribute, value: item.value, refined: !wasRefined });
  }

  #renderList(items: HierarchicalMenuItem[], nested: boolean): TemplateResult {
    const attribute = (this.attributeNames[0] ?? '').replace(/\.lvl\d+$/, '');
    const current = this.#menu.refined?.value;
    return html`
      <ul
        part=${nested ? 'list child-list' : 'list'}
        aria-label=${nested ? nothing : this.t('listLabel', { attribute })}
      >
        ${items.map(
          (item) => html`
            <li part=${item.isRefined ? 'item selected-item' : 'item'}>
              <a
                part="link"
                href=${this.#menu.createURL(item.value)}
                aria-current=${item.value === current ? 'true' : nothing}
                @click=${(event: MouseEvent) => this.#choose(event, item)}
              >
                <span part="label">${item.label}</span>
                <span part="count">${this.t('count', { count: item.count })}</span>
              </a>
              ${item.data?.length ? this.#renderList(item.data, true) : nothing}
            </li>
          `,
        )}
      </ul>
    `;
  }

  override render() {
    const menu = this.#menu;
    const items = menu.items;
    return html`
      ${items.length ? this.#renderList(items, false) : nothing}
      <button
        part="show-more"
        type="button"
        aria-expanded=${menu.isShowingMore}
        ?hidden=${!menu.canToggleShowMore}
        @click=${() => menu.toggleShowMore()}
      >${this.t(menu.isShowingMore ? 'showLess' : 'showMore')}</button>
    `;
  }
}
