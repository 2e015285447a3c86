import { css } from 'lit';

/**
 * Styles shared by every element (one constructable stylesheet, adopted by every shadow root). Colours derive
 * from `currentColor` (text of the page) and one accent — by default mixed with `currentColor`, so it is darker
 * on light pages and lighter on dark ones (≥ 4.5:1 as text on both) — so the default look works on light and dark pages
 * alike; sizes use logical properties so `dir="rtl"` mirrors.
 *
 * Shared custom properties (each element documents the ones it uses):
 * `--svc-accent` (matches, focus, selection), `--svc-border-color`, `--svc-radius`, `--svc-gap`,
 * `--svc-muted-color` (counts, secondary text); marks also read `--svc-highlight-background`,
 * `--svc-highlight-color`, `--svc-highlight-font-weight`.
 */
export const baseStyles = css`
  :host {
    --_accent: var(--svc-accent,color-mix(in srgb,#3d6be0 60%,currentColor));
    --_border: var(--svc-border-color,color-mix(in srgb,currentColor 22%,transparent));
    --_muted: var(--svc-muted-color,color-mix(in srgb,currentColor 65%,transparent));
    --_tint: color-mix(in srgb,currentColor 8%,transparent);
    --_radius: var(--svc-radius,.375rem);
    --_gap: var(--svc-gap,.5rem);
    display: block;
    box-sizing: border-box;
  }
  :host([hidden]), [hidden] {
    display: none !important;
  }
  *, :before, :after {
    box-sizing: inherit;
  }
  .visually-hidden {
    position: absolute !important;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  mark {
    background: var(--svc-highlight-background,color-mix(in srgb,var(--_accent) 22%,transparent));
    color: var(--svc-highlight-color,inherit);
    font-weight: var(--svc-highlight-font-weight,600);
    border-radius: 2px;
  }
  button, input {
    font: inherit;
    color: inherit;
  }
`;

/**
 * What the list elements (hits, refinement list, pagination, recommendations, trending) share: unstyled lists,
 * hit cards in an `ol` grid, muted status messages, a list dimmed while a new answer is awaited.
 */
export const listStyles = [
  baseStyles,
  css`
    ol, ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    ol {
      display: grid;
      gap: var(--_g);
      grid-template-columns: var(--_cols);
    }
    ol>li, [part~=facet] {
      padding-block: var(--svc-hit-padding-block,.75rem);
      padding-inline: var(--svc-hit-padding-inline,1rem);
    }
    ol>li {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
    }
    ol[aria-busy=true] {
      opacity: .6;
      transition: opacity .2s .2s;
    }
    [part~=empty], [part~=error], [part~=loading], [part~=no-results] {
      margin: 0;
      padding-block: .5rem;
      color: var(--_muted);
    }
  `,
];
