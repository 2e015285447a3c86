import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    :host {
      --_error: var(--svc-error-color, color-mix(in srgb, #d12d2d 60%, currentColor));
    }
    [part~='form'] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_gap);
      margin: 0;
    }
    [part~='input'] {
      flex: 1 1 0;
      min-inline-size: var(--svc-range-input-min-width, 3.5rem);
      block-size: var(--svc-range-input-height, 2.25rem);
      padding-inline: 0.625rem 0.25rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--svc-range-input-background, none);
      font-variant-numeric: tabular-nums;
    }
    [part~='input']::placeholder {
      color: var(--_muted);
    }
    [part~='input']:focus-visible {
      outline-offset: 0;
    }
    [part~='input'][aria-invalid='true'] {
      border-color: var(--_error);
      box-shadow: 0 0 0 1px var(--_error);
    }
    [part~='separator'] {
      color: var(--_muted);
      font-size: 0.875em;
    }
    [part~='submit'] {
      block-size: var(--svc-range-input-height, 2.25rem);
      padding-inline: 0.875rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--svc-button-background, transparent);
      cursor: pointer;
    }
    [part~='submit']:hover {
      border-color: var(--_accent);
      background: color-mix(in srgb, var(--_accent) 10%, transparent);
    }
    [part~='error'] {
      flex-basis: 100%;
      margin: 0;
      color: var(--_error);
      font-size: 0.875em;
    }
    [part~='error']:empty {
      display: none;
    }
  `,
];
