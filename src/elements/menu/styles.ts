import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    [part~='button'] {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      inline-size: 100%;
      padding-block: 0.25rem;
      padding-inline: 0.375rem;
      border: 0;
      border-radius: var(--_radius);
      background: none;
      text-align: start;
      cursor: pointer;
    }
    [part~='button']:hover {
      background: var(--_tint);
    }
    [part~='button'][aria-pressed='true'] {
      background: var(--svc-menu-selected-background, color-mix(in srgb, var(--_accent) 12%, transparent));
      font-weight: 600;
    }
    [part~='label-text'] {
      flex: 1;
      overflow-wrap: anywhere;
    }
    [part~='count'] {
      font-size: 0.8125em;
      font-weight: 400;
      font-variant-numeric: tabular-nums;
      color: var(--_muted);
      padding-inline: 0.4em;
      border-radius: 1em;
      background: var(--svc-count-background, var(--_tint));
    }
    [part~='show-more'] {
      margin-block-start: var(--_gap);
      padding: 0.25rem 0;
      border: 0;
      background: none;
      color: var(--_accent);
      cursor: pointer;
      text-decoration: underline;
    }
  `,
];
