import { css } from 'lit';
import { listStyles } from '../base/styles.js';

export const styles = [
  listStyles,
  css`
    :host {
      --_cols: var(--svc-infinite-hits-columns, var(--svc-hits-columns, 1fr));
      --_g: var(--svc-infinite-hits-gap, var(--svc-hits-gap, var(--_gap)));
    }
    [part~='show-more'], [part~='show-previous'] {
      display: block;
      inline-size: 100%;
      min-block-size: 2.5rem;
      padding-inline: 1rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--svc-button-background, transparent);
      cursor: pointer;
    }
    [part~='show-more'] {
      margin-block-start: var(--_g);
    }
    [part~='show-previous'] {
      margin-block-end: var(--_g);
    }
    [part~='show-more']:hover, [part~='show-previous']:hover {
      border-color: var(--_accent);
      background: color-mix(in srgb, var(--_accent) 10%, transparent);
    }
    [part~='show-more'][aria-disabled='true'], [part~='show-previous'][aria-disabled='true'] {
      cursor: progress;
      opacity: 0.6;
    }
    li[tabindex='-1']:focus-visible {
      outline-offset: 0;
    }
  `,
];
