/** The text of `<svc-hits>`' own rules (see styles.ts), shared with the first-paint script (src/prepaint). */
import { cssText } from '../base/style-text.js';

export const HITS_CSS = cssText`
  :host {
    --_cols: var(--svc-hits-columns,1fr);
    --_g: var(--svc-hits-gap,var(--_gap));
  }
`;
