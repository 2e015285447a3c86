import { css } from 'lit';
import { baseStyles } from './styles.js';

/** The labelled select of `<svc-sort-by>` and `<svc-hits-per-page>`. */
export const selectStyles = [
  baseStyles,
  css`
    :host {
      display: inline-block;
    }
    [part~='base'] {
      display: inline-flex;
      align-items: center;
      gap: var(--_gap);
    }
    [part~='label'] {
      color: var(--_muted);
      font-size: 0.875em;
    }
    [part~='select'] {
      block-size: var(--svc-select-height, 2.25rem);
      padding-inline: 0.625rem 0.375rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--svc-select-background, transparent);
      color: inherit;
      font: inherit;
      cursor: pointer;
    }
    [part~='select']:focus-visible {
      outline-offset: 0;
    }
  `,
];
