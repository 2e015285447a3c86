import { unsafeCSS } from 'lit';
import { BASE_CSS, LIST_CSS } from './style-text.js';

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
export const baseStyles = unsafeCSS(BASE_CSS);

/**
 * What the list elements (hits, refinement list, pagination, recommendations, trending) share: unstyled lists,
 * hit cards in an `ol` grid, muted status messages, a list dimmed while a new answer is awaited.
 */
export const listStyles = [baseStyles, unsafeCSS(LIST_CSS)];
