import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='search-input'] {
      inline-size: 100%;
      block-size: 2.25rem;
      margin-block-end: var(--_gap);
      padding-inline: 0.625rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: transparent;
      color: inherit;
      font: inherit;
    }
    [part~='search-input']:focus-visible {
      outline-offset: 0;
    }
    [part~='list'] {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    [part~='label'] {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: 0.25rem;
      cursor: pointer;
    }
    [part~='checkbox'] {
      margin: 0;
      inline-size: 1rem;
      block-size: 1rem;
      accent-color: var(--_accent);
      flex: none;
    }
    [part~='label-text'] {
      flex: 1;
      overflow-wrap: anywhere;
    }
    [part~='count'] {
      font-size: 0.8125em;
      font-variant-numeric: tabular-nums;
      color: var(--_muted);
      padding-inline: 0.4em;
      border-radius: 999px;
      background: var(--svc-count-background, color-mix(in srgb, currentColor 8%, transparent));
    }
    [part~='no-results'] {
      margin: 0;
      color: var(--_muted);
    }
    [part~='show-more'] {
      margin-block-start: var(--_gap);
      padding: 0.25rem 0;
      border: 0;
      background: none;
      color: var(--_accent);
      cursor: pointer;
      text-decoration: underline;
      text-underline-offset: 2px;
    }
  `,
];
