/** The text of `<svc-highlight>`'s own rules (see styles.ts), shared with the first-paint script (src/prepaint). */
import { cssText } from '../base/style-text.js';

export const HIGHLIGHT_CSS = cssText`
  :host {
    display: inline;
  }
`;
