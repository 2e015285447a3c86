import { css } from 'lit';
import { listStyles } from '../base/styles.js';

/** Styles of `<svc-recommendations>` and `<svc-trending>`. */
export const styles = [
  listStyles,
  css`
    :host {
      --_cols: var(--svc-recommendations-columns,repeat(auto-fill,minmax(12rem,1fr)));
      --_g: var(--svc-recommendations-gap,var(--_gap));
    }
    ::slotted([slot=heading]), h2 {
      margin-block: 0 .75rem;
      font-size: 1.125rem;
    }
    [part~=empty] ::slotted(*), [part~=empty] p {
      margin: 0;
    }
    li:has(>[part~=facet]) {
      padding: 0;
    }
    [part~=facet], [part~=select] {
      inline-size: 100%;
      text-align: start;
      border: 0;
      border-radius: inherit;
      background: none;
      cursor: pointer;
    }
    [part~=select] {
      padding: 0;
    }
    [aria-pressed=true] {
      font-weight: 600;
      color: var(--_accent);
    }
  `,
];
