import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    [part~='list'] {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: var(--svc-hits-gap, var(--_gap));
      grid-template-columns: var(--svc-hits-columns, 1fr);
    }
    [part~='item'] {
      padding-block: var(--svc-hit-padding-block, 0.75rem);
      padding-inline: var(--svc-hit-padding-inline, 1rem);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }
    [part~='empty'],
    [part~='error'] {
      margin: 0;
      padding-block: 1rem;
      color: var(--_muted);
    }
    [part~='list'][aria-busy='true'] {
      opacity: 0.6;
      transition: opacity 0.2s 0.2s;
    }
  `,
];
