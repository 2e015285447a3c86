import { css } from 'lit';
import { baseStyles } from './styles.js';

/**
 * The look of the search field shared by `<svc-search-box>` and `<svc-autocomplete>`: a bordered form with
 * the submit button (magnifier) first, the field, the spinner and the reset button; logical properties only.
 */
export const searchFieldStyles = [
  baseStyles,
  css`
    form {
      display: flex;
      align-items: center;
      gap: 0.25rem;
      block-size: var(--svc-search-box-height, 2.75rem);
      padding-inline: 0.75rem 0.25rem;
      border: 1px solid var(--_border);
      border-radius: var(--svc-search-box-radius, var(--_radius));
      background: var(--svc-search-box-background, none);
    }
    form:focus-within {
      border-color: var(--_accent);
      box-shadow: 0 0 0 1px var(--_accent);
    }
    input {
      flex: 1;
      min-inline-size: 0;
      block-size: 100%;
      border: 0;
      padding: 0;
      background: none;
      font-size: var(--svc-search-box-font-size, 1rem);
      outline: 0;
    }
    input::placeholder {
      color: var(--_muted);
    }
    input::-webkit-search-cancel-button {
      appearance: none;
    }
    svg {
      inline-size: 1.1em;
      block-size: 1.1em;
      fill: none;
      stroke: currentColor;
      stroke-width: 2;
      stroke-linecap: round;
    }
    button,
    [part~='loading-indicator'] {
      display: inline-grid;
      place-items: center;
      inline-size: 2rem;
      block-size: 2rem;
      padding: 0;
      border: 0;
      border-radius: var(--_radius);
      background: none;
      cursor: pointer;
      color: var(--_muted);
    }
    button:hover {
      color: inherit;
      background: var(--_tint);
    }
    [part~='submit'] {
      order: -1;
      margin-inline-start: -0.5rem;
    }
    [part~='loading-indicator'] {
      color: var(--_accent);
      cursor: auto;
    }
    [part~='loading-indicator'] svg {
      animation: svc-spin 0.8s linear infinite;
    }
    @keyframes svc-spin {
      to {
        transform: rotate(1turn);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      svg {
        animation-duration: 3s;
      }
    }
  `,
];
