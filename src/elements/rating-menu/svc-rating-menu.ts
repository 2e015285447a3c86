import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { RatingMenuController, type RatingMenuItem } from '../../controllers/rating-menu-controller.js';
import { isPlainClick } from '../base/links.js';
import { SvcElement } from '../base/svc-element.js';
import type { SvcRangeChangeEventDetail } from '../range-input/svc-range-input.js';
import { styles } from './styles.js';

const STAR = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

/**
 * @tagname svc-rating-menu
 * @summary "4 stars & up" … "1 star & up" links with their counts, refining a numeric rating attribute.
 *
 * Each choice refines `attribute >= stars` and `attribute <= max` (InstantSearch's rating menu); choosing the
 * refined one removes it. Counts add up the attribute's facet values in the range, leaving the menu's own
 * refinement out (the attribute must be in `attributesForFaceting`, with integer values). Each choice is a real
 * link (`href` of that page; a plain click refines in place) named "4 stars & up" for assistive technologies
 * (the stars are drawn, hidden from them); the refined one has `aria-current="true"`; a choice without hits is
 * disabled (`aria-disabled`, no `href`) unless it is refined.
 *
 * @csspart list - The `ul` of choices.
 * @csspart item - Each choice's `li`; the refined one also has `selected-item`, one without hits `disabled-item`.
 * @csspart link - The choice's link.
 * @csspart stars - The drawn stars.
 * @csspart star - Each star; `star-full` or `star-empty`.
 * @csspart label - The visible text ("& up").
 * @csspart count - The count.
 *
 * @cssproperty --svc-rating-color - Colour of the stars (default: the accent).
 * @cssproperty --svc-count-background - Background of the counts.
 * @cssproperty --svc-muted-color - Colour of the counts.
 * @cssproperty --svc-accent - Focus ring (and stars by default).
 *
 * @event {CustomEvent<SvcRangeChangeEventDetail>} svc-range-change - The user chose a rating. `detail: { attribute, min, max }`: `min` the stars and `max` the `max` attribute, both undefined when the choice was removed.
 *
 * Translations: `listLabel` ("Filter by {attribute}"), `itemLabel` ("{count} stars & up", `itemLabel.one`
 * "{count} star & up": the choice's name), `andUp` ("& up", shown after the stars), `count` ("{count}").
 */
export class SvcRatingMenu extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    attribute: { reflect: true },
    max: { type: Number },
  };
  static override defaultTranslations = {
    listLabel: 'Filter by {attribute}',
    itemLabel: '{count} stars & up',
    'itemLabel.one': '{count} star & up',
    andUp: '& up',
    count: '{count}',
  };

  /** The numeric attribute holding the rating. */
  attribute = '';
  /** The highest rating (default 5). */
  max = 5;

  #menu = new RatingMenuController(this, { store: () => this.store });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const max = Number.isInteger(this.max) && this.max > 1 && this.max <= 20 ? this.max : 5;
    Object.assign(this.#menu, { attribute: this.attribute, max });
  }

  protected override firstUpdated(): void {
    if (!this.attribute) console.error('<svc-rating-menu>: the `attribute` attribute is required.');
  }

  /** The choices, highest first. */
  get items(): RatingMenuItem[] {
    return this.#menu.items;
  }

  /** Whether a rating is refined, or a choice has hits. */
  get canRefine(): boolean {
    return this.#menu.canRefine;
  }

  /** Refines "`stars` & up" (or removes it when refined), as if the user chose it (fires no event). */
  refine(stars: number): void {
    this.#menu.refine(stars);
  }

  #choose(event: MouseEvent, item: RatingMenuItem): void {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    const on = this.#menu.refine(item.stars);
    this.emit<SvcRangeChangeEventDetail>('svc-range-change', {
      attribute: this.attribute,
      min: on ? item.stars : undefined,
      max: on ? this.#menu.max : undefined,
    });
  }

  #renderStars(stars: number) {
    const all = Array.from({ length: this.#menu.max }, (_, i) => i < stars);
    return html`
      <span part="stars" aria-hidden="true">
        ${all.map(
          (full) => html`
            <svg part=${full ? 'star star-full' : 'star star-empty'} viewBox="0 0 24 24">
              <path d=${STAR} />
            </svg>
          `,
        )}
      </span>
    `;
  }

  #renderItem(item: RatingMenuItem) {
    const disabled = item.count === 0 && !item.isRefined;
    const parts = ['item', item.isRefined ? 'selected-item' : '', disabled ? 'disabled-item' : ''];
    return html`
      <li part=${parts.filter(Boolean).join(' ')}>
        <a
          part="link"
          href=${disabled ? nothing : this.#menu.createURL(item.stars)}
          aria-disabled=${disabled ? 'true' : nothing}
          role=${disabled ? 'link' : nothing}
          aria-current=${item.isRefined ? 'true' : nothing}
          @click=${(event: MouseEvent) => (disabled ? event.preventDefault() : this.#choose(event, item))}
        >
          ${this.#renderStars(item.stars)}
          <span class="visually-hidden">${this.t('itemLabel', { count: item.stars })}</span>
          <span part="label" aria-hidden="true">${this.t('andUp')}</span>
          <span part="count">${this.t('count', { count: item.count })}</span>
        </a>
      </li>
    `;
  }

  override render() {
    return html`
      <ul part="list" aria-label=${this.t('listLabel', { attribute: this.attribute })}>
        ${this.#menu.items.map((item) => this.#renderItem(item))}
      </ul>
    `;
  }
}
