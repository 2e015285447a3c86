import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='form'] {
      position: relative;
      display: flex;
      align-items: center;
      gap: 0.25rem;
      block-size: var(--svc-search-box-height, 2.75rem);
      padding-inline: 0.75rem 0.25rem;
      border: 1px solid var(--_border);
      border-radius: var(--svc-search-box-radius, var(--_radius));
      background: var(--svc-search-box-background, transparent);
    }
    [part~='form']:focus-within {
      border-color: var(--_accent);
      box-shadow: 0 0 0 1px var(--_accent);
    }
    [part~='input'] {
      flex: 1;
      min-inline-size: 0;
      block-size: 100%;
      border: 0;
      padding: 0;
      background: transparent;
      color: inherit;
      font: inherit;
      font-size: var(--svc-search-box-font-size, 1rem);
      outline: none;
    }
    [part~='input']::placeholder {
      color: var(--_muted);
    }
    [part~='input']::-webkit-search-cancel-button {
      appearance: none;
    }
    svg {
      inline-size: 1.1em;
      block-size: 1.1em;
      fill: none;
      stroke: currentColor;
      stroke-width: 2;
      stroke-linecap: round;
      flex: none;
    }
    button {
      display: inline-grid;
      place-items: center;
      inline-size: 2rem;
      block-size: 2rem;
      padding: 0;
      border: 0;
      border-radius: var(--_radius);
      background: transparent;
      cursor: pointer;
      color: var(--_muted);
    }
    button:hover {
      color: inherit;
      background: color-mix(in srgb, currentColor 8%, transparent);
    }
    [part~='submit'] {
      order: -1;
      margin-inline-start: -0.5rem;
    }
    [part~='loading-indicator'] {
      display: inline-grid;
      place-items: center;
      inline-size: 2rem;
      color: var(--_accent);
    }
    [part~='loading-indicator'] svg {
      animation: svc-spin 0.8s linear infinite;
    }
    @keyframes svc-spin {
      to {
        transform: rotate(360deg);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      svg {
        animation-duration: 3s;
      }
    }
  `,
];
