import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    :host {
      --_cols: var(--svc-hits-columns,1fr);
      --_g: var(--svc-hits-gap,var(--_gap));
    }
  `,
];
