import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='list'] {
      list-style: none;
      margin: 0;
      padding: 0;
      display: flex;
      flex-wrap: wrap;
      gap: var(--svc-pagination-gap, 0.25rem);
      justify-content: var(--svc-pagination-justify, center);
    }
    [part~='link'] {
      display: inline-grid;
      place-items: center;
      min-inline-size: var(--svc-pagination-size, 2.25rem);
      block-size: var(--svc-pagination-size, 2.25rem);
      padding-inline: 0.5rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      color: inherit;
      text-decoration: none;
      font-variant-numeric: tabular-nums;
    }
    a[href][part~='link']:hover {
      background: color-mix(in srgb, currentColor 8%, transparent);
    }
    [part~='link'][aria-current='page'] {
      background: var(--_accent);
      border-color: var(--_accent);
      color: var(--svc-pagination-current-color, #fff);
      font-weight: 600;
    }
    [part~='disabled'] {
      opacity: 0.4;
      cursor: not-allowed;
    }
  `,
];
