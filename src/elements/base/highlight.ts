import { html, type TemplateResult } from 'lit';
import { parseHighlight } from './highlight-text.js';

export { HIGHLIGHT_PARAMS } from '../../controllers/highlight-tags.js';
export {
  defaultAttribute,
  escapeHtml,
  getPath,
  highlightedValue,
  parseHighlight,
  toText,
  unescapeHtml,
} from './highlight-text.js';

/**
 * Renders a highlighted value as Lit text with `<mark part="highlighted">` around matches — never as HTML.
 *
 * @example
 * html`<span>${renderHighlight(hit._highlightResult.name.value)}</span>`
 */
export function renderHighlight(value: string): Array<TemplateResult | string> {
  return parseHighlight(value).map((part) =>
    part.highlighted ? html`<mark part="highlighted">${part.value}</mark>` : part.value,
  );
}
