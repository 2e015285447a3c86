import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    :host {
      display: inline-block;
    }
    [part~='button'] {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
      block-size: var(--svc-button-height, 2.25rem);
      padding-inline: 0.875rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--svc-button-background, transparent);
      color: inherit;
      cursor: pointer;
    }
    [part~='button']:hover:not([aria-disabled='true']) {
      border-color: var(--_accent);
      background: color-mix(in srgb, var(--_accent) 10%, transparent);
    }
    [part~='button'][aria-disabled='true'] {
      opacity: 0.45;
      cursor: not-allowed;
    }
  `,
];
