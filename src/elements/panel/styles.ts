import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    :host([hide-when-empty][empty]) {
      display: none;
    }
    [part~='header'] {
      display: flex;
      align-items: center;
      gap: var(--_gap);
      margin-block-end: 0.5rem;
    }
    [part~='heading'] {
      flex: 1;
      font-size: var(--svc-panel-heading-size, 0.8125rem);
      font-weight: 600;
      text-transform: var(--svc-panel-heading-transform, uppercase);
      letter-spacing: 0.04em;
    }
    [part~='toggle'] {
      display: inline-grid;
      place-items: center;
      inline-size: 1.75rem;
      block-size: 1.75rem;
      padding: 0;
      border: 0;
      border-radius: var(--_radius);
      background: none;
      cursor: pointer;
    }
    [part~='toggle']:hover {
      background: var(--_tint);
    }
    [part~='toggle'] svg {
      inline-size: 1em;
      block-size: 1em;
      fill: none;
      stroke: currentColor;
      stroke-width: 2;
      stroke-linecap: round;
      transition: rotate 0.15s;
    }
    [part~='toggle'][aria-expanded='false'] svg {
      rotate: -90deg;
    }
    :host(:dir(rtl)) [part~='toggle'][aria-expanded='false'] svg {
      rotate: 90deg;
    }
    @media (prefers-reduced-motion: reduce) {
      [part~='toggle'] svg {
        transition: none;
      }
    }
    :host([empty]) [part~='body'] {
      opacity: var(--svc-panel-empty-opacity, 0.6);
    }
    [part~='footer'] {
      margin-block-start: 0.5rem;
    }
  `,
];
