import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    [part~='child-list'] {
      padding-inline-start: var(--svc-hierarchical-menu-indent, 1rem);
    }
    [part~='link'] {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: 0.25rem;
      color: inherit;
      text-decoration: none;
      border-radius: var(--_radius);
    }
    [part~='link']:hover [part~='label'] {
      text-decoration: underline;
    }
    [part~='selected-item'] > [part~='link'] {
      font-weight: 600;
    }
    [part~='label'] {
      flex: 1;
      overflow-wrap: anywhere;
    }
    [part~='count'] {
      font-size: 0.8125em;
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
