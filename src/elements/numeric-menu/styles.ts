import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    fieldset {
      margin: 0;
      padding: 0;
      border: 0;
      min-inline-size: 0;
    }
    label {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: 0.25rem;
      cursor: pointer;
    }
    [part~='radio'] {
      flex: none;
      margin: 0;
      inline-size: 1rem;
      block-size: 1rem;
      accent-color: var(--_accent);
    }
    [part~='label-text'] {
      flex: 1;
      overflow-wrap: anywhere;
    }
    [part~='selected-item'] [part~='label-text'] {
      font-weight: 600;
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
