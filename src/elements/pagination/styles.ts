import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    ul {
      display: flex;
      flex-wrap: wrap;
      gap: var(--svc-pagination-gap,.25rem);
      justify-content: var(--svc-pagination-justify,center);
    }
    a {
      display: inline-grid;
      place-items: center;
      min-inline-size: var(--svc-pagination-size,2.25rem);
      block-size: var(--svc-pagination-size,2.25rem);
      padding-inline: .5rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      color: inherit;
      text-decoration: none;
      font-variant-numeric: tabular-nums;
    }
    a[href]:hover {
      background: var(--_tint);
    }
    a[aria-current] {
      background: color-mix(in srgb,var(--_accent) 14%,transparent);
      border-color: var(--_accent);
      color: var(--svc-pagination-current-color,var(--_accent));
      font-weight: 600;
    }
    a[aria-disabled] {
      opacity: .4;
      cursor: not-allowed;
    }
  `,
];
