import { html, type PropertyDeclarations } from 'lit';
import { StatsController } from '../../controllers/stats-controller.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/**
 * The number of hits and the search time ("1,234 results found in 3 ms"), in a polite live region
 * so screen readers hear the new count after each search.
 *
 * The live region is rendered from the start (empty until the first results) because assistive technology
 * only announces changes of a region that already exists. The text follows the latest answered search, not
 * every keystroke.
 *
 * Translations: `stats` ("{count} results found in {time} ms"), `stats.one` ("1 result found in {time} ms"),
 * `noResults` ("No results found in {time} ms"). `{count}` and `{time}` are formatted for the language;
 * plural forms follow `Intl.PluralRules` (`stats.few`, `stats.many`… for languages that have them).
 *
 * @tagname svc-stats
 * @summary The number of hits and the search time ("1,234 results found in 3 ms"), in a polite live region.
 *
 * @csspart base - The live region (`role="status"`) holding the text.
 *
 * @cssproperty --svc-muted-color - Colour of the text.
 * @cssproperty --svc-stats-font-size - Font size of the text (default `0.875rem`).
 */
export class SvcStats extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {};
  static override defaultTranslations = {
    stats: '{count} results found in {time} ms',
    'stats.one': '{count} result found in {time} ms',
    noResults: 'No results found in {time} ms',
  };

  private readonly stats = new StatsController(this, { store: () => this.store });

  /** Number of hits of the latest results (0 before the first). */
  get nbHits(): number {
    return this.stats.nbHits;
  }

  /** Processing time of the latest results, in milliseconds. */
  get processingTimeMS(): number {
    return this.stats.processingTimeMS;
  }

  /** The text shown (empty before the first results). */
  get text(): string {
    if (!this.stats.hasResults) return '';
    const count = this.stats.nbHits;
    const time = this.stats.processingTimeMS;
    // Numbers are formatted for the language; the plural form is chosen from `count`.
    return count === 0 ? this.t('noResults', { time }) : this.t('stats', { count, time });
  }

  override render() {
    return html`<p part="base" role="status" aria-live="polite" aria-atomic="true">${this.text}</p>`;
  }
}
