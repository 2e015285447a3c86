import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='list'], [part~='chips'] {
      list-style: none;
      margin: 0;
      padding: 0;
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_gap);
    }
    [part~='item'] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: calc(var(--_gap) / 2);
    }
    [part~='label'] {
      color: var(--_muted);
      font-size: 0.875em;
    }
    [part~='chip'] {
      display: inline-flex;
      align-items: center;
      gap: 0.25rem;
      padding-block: 0.125rem;
      padding-inline: 0.625rem 0.125rem;
      border: 1px solid var(--_border);
      border-radius: var(--svc-chip-radius, 999px);
      background: var(--svc-chip-background, color-mix(in srgb, var(--_accent) 10%, transparent));
      font-size: 0.875em;
      line-height: 1.5;
    }
    [part~='remove'] {
      display: inline-grid;
      place-items: center;
      inline-size: 1.5rem;
      block-size: 1.5rem;
      padding: 0;
      border: 0;
      border-radius: 999px;
      background: transparent;
      color: var(--_muted);
      cursor: pointer;
      line-height: 1;
    }
    [part~='remove']:hover {
      color: inherit;
      background: color-mix(in srgb, currentColor 12%, transparent);
    }
  `,
];
