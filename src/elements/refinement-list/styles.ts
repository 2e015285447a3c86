import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    [part~=search-input] {
      inline-size: 100%;
      block-size: 2.25rem;
      margin-block-end: var(--_gap);
      padding-inline: .625rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: none;
    }
    [part~=search-input]:focus-visible {
      outline-offset: 0;
    }
    label {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: .25rem;
      cursor: pointer;
    }
    [part~=checkbox] {
      margin: 0;
      inline-size: 1rem;
      block-size: 1rem;
      accent-color: var(--_accent);
    }
    [part~=label-text] {
      flex: 1;
      overflow-wrap: anywhere;
    }
    [part~=count] {
      font-size: .8125em;
      font-variant-numeric: tabular-nums;
      color: var(--_muted);
      padding-inline: .4em;
      border-radius: 1em;
      background: var(--svc-count-background,var(--_tint));
    }
    [part~=show-more] {
      margin-block-start: var(--_gap);
      padding: .25rem 0;
      border: 0;
      background: none;
      color: var(--_accent);
      cursor: pointer;
      text-decoration: underline;
    }
  `,
];
