import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='base'] {
      margin: 0;
      min-block-size: 1lh;
      color: var(--_muted);
      font-size: var(--svc-stats-font-size, 0.875rem);
      font-variant-numeric: tabular-nums;
    }
  `,
];
