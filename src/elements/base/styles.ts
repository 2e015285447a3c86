import { css } from 'lit';

/**
 * Styles shared by every element. Colours derive from `currentColor` (text of the page) and one accent, so the
 * default look works on light and dark pages alike; sizes use logical properties so `dir="rtl"` mirrors.
 *
 * Shared custom properties (each element documents the ones it uses):
 * `--svc-accent` (matches, focus, selection), `--svc-border-color`, `--svc-radius`, `--svc-gap`,
 * `--svc-muted-color` (counts, secondary text).
 */
export const baseStyles = css`
  :host {
    --_accent: var(--svc-accent, #3d6be0);
    --_border: var(--svc-border-color, color-mix(in srgb, currentColor 22%, transparent));
    --_muted: var(--svc-muted-color, color-mix(in srgb, currentColor 65%, transparent));
    --_radius: var(--svc-radius, 0.375rem);
    --_gap: var(--svc-gap, 0.5rem);
    display: block;
    box-sizing: border-box;
  }
  :host([hidden]) {
    display: none !important;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  [hidden] {
    display: none !important;
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
    background: color-mix(in srgb, var(--_accent) 22%, transparent);
    color: inherit;
    font-weight: 600;
    border-radius: 2px;
  }
  button {
    font: inherit;
    color: inherit;
  }
`;
