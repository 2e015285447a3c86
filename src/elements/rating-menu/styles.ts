import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    [part~='link'] {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: 0.25rem;
      color: inherit;
      text-decoration: none;
      border-radius: var(--_radius);
    }
    a[href][part~='link']:hover [part~='label'] {
      text-decoration: underline;
    }
    [part~='disabled-item'] [part~='link'] {
      opacity: 0.5;
    }
    [part~='selected-item'] [part~='label'] {
      font-weight: 600;
    }
    [part~='stars'] {
      display: inline-flex;
      gap: 0.125rem;
    }
    [part~='star'] {
      inline-size: 1em;
      block-size: 1em;
      fill: none;
      stroke: var(--svc-rating-color, var(--_accent));
      stroke-width: 1.5;
    }
    [part~='star-full'] {
      fill: var(--svc-rating-color, var(--_accent));
    }
    [part~='label'] {
      flex: 1;
    }
    [part~='count'] {
      font-size: 0.8125em;
      font-variant-numeric: tabular-nums;
      color: var(--_muted);
      padding-inline: 0.4em;
      border-radius: 1em;
      background: var(--svc-count-background, var(--_tint));
    }
  `,
];
