import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    /* No box of its own: without items it takes no room (no grid gap) in the page's layout. */
    :host {
      display: contents;
    }
    [part~='items'] {
      display: grid;
      gap: var(--_gap);
    }
    [part~='items']:empty {
      display: none;
    }
    [part~='item'] {
      padding-block: 0.75rem;
      padding-inline: 1rem;
      border-radius: var(--_radius);
      background: var(--svc-banner-background, color-mix(in srgb, var(--_accent) 12%, transparent));
      overflow-wrap: anywhere;
    }
    [part~='title'] {
      display: block;
      font-weight: 600;
    }
    [part~='text'] {
      margin: 0.25rem 0 0;
    }
    [part~='link'] {
      color: var(--_accent);
    }
  `,
];
