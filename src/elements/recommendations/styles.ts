import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

/** Styles of `<svc-recommendations>` and `<svc-trending>`. */
export const styles = [
  baseStyles,
  css`
    [part~='heading'] ::slotted(*),
    [part~='title'] {
      margin-block: 0 0.75rem;
      font-size: 1.125rem;
    }
    [part~='list'] {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: var(--svc-recommendations-gap, var(--_gap));
      grid-template-columns: var(--svc-recommendations-columns, repeat(auto-fill, minmax(12rem, 1fr)));
    }
    [part~='item'] {
      padding-block: var(--svc-hit-padding-block, 0.75rem);
      padding-inline: var(--svc-hit-padding-inline, 1rem);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }
    [part~='loading'],
    [part~='empty'],
    [part~='error'] {
      margin: 0;
      padding-block: 0.5rem;
      color: var(--_muted);
    }
    [part~='empty'] ::slotted(*),
    [part~='empty'] p {
      margin: 0;
    }
    [part~='list'][aria-busy='true'] {
      opacity: 0.6;
      transition: opacity 0.2s 0.2s;
    }
    [part~='facet-item']:has(> [part~='facet']) {
      padding: 0;
    }
    [part~='facet'] {
      inline-size: 100%;
      text-align: start;
      padding-block: var(--svc-hit-padding-block, 0.75rem);
      padding-inline: var(--svc-hit-padding-inline, 1rem);
      border-radius: inherit;
      border: 0;
      background: none;
      cursor: pointer;
    }
    [part~='facet'][aria-pressed='true'] {
      font-weight: 600;
      color: var(--_accent);
    }
  `,
];
