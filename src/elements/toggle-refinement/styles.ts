import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    label {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      padding-block: 0.25rem;
      cursor: pointer;
    }
    [part~='checkbox'] {
      flex: none;
      margin: 0;
      inline-size: 1rem;
      block-size: 1rem;
      accent-color: var(--_accent);
    }
    :host([switch]) [part~='checkbox'] {
      appearance: none;
      position: relative;
      inline-size: 2.25rem;
      block-size: 1.25rem;
      border-radius: 1rem;
      background: var(--_border);
      transition: background 0.15s;
    }
    :host([switch]) [part~='checkbox']::before {
      content: '';
      position: absolute;
      inset-block-start: 0.125rem;
      inset-inline-start: 0.125rem;
      inline-size: 1rem;
      block-size: 1rem;
      border-radius: 50%;
      background: Canvas;
      transition: inset-inline-start 0.15s;
    }
    :host([switch]) [part~='checkbox']:checked {
      background: var(--_accent);
    }
    :host([switch]) [part~='checkbox']:checked::before {
      inset-inline-start: 1.125rem;
    }
    @media (prefers-reduced-motion: reduce) {
      :host([switch]) [part~='checkbox'],
      :host([switch]) [part~='checkbox']::before {
        transition: none;
      }
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
      border-radius: 1em;
      background: var(--svc-count-background, var(--_tint));
    }
  `,
];
