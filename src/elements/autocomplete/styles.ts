import { css } from 'lit';
import { searchFieldStyles } from '../base/search-field-styles.js';

/** The search field's look (the same form, field, buttons, spinner as `<svc-search-box>`) plus the suggestions popup. */
export const styles = [
  ...searchFieldStyles,
  css`
    :host {
      position: relative;
    }
    [part~='listbox'] {
      position: absolute;
      inset-inline: 0;
      inset-block-start: calc(100% + 0.25rem);
      z-index: var(--svc-autocomplete-z-index, 10);
      margin: 0;
      padding: 0.25rem;
      list-style: none;
      max-block-size: var(--svc-autocomplete-max-height, 22rem);
      overflow-y: auto;
      background: var(--svc-autocomplete-background, Canvas);
      color: var(--svc-autocomplete-color, CanvasText);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      box-shadow: 0 0.5rem 1.5rem rgb(0 0 0 / 0.16);
    }
    [part~='option'] {
      display: flex;
      align-items: baseline;
      gap: var(--_gap);
      padding-block: 0.5rem;
      padding-inline: 0.5rem 0.75rem;
      border-inline-start: 3px solid transparent;
      border-radius: var(--_radius);
      cursor: pointer;
      overflow-wrap: anywhere;
    }
    [part~='option']:hover {
      background: var(--_tint);
    }
    [part~='option-active'] {
      background: var(--svc-autocomplete-active-background, color-mix(in srgb, var(--_accent) 14%, transparent));
      border-inline-start-color: var(--_accent);
    }
    [part~='category'] {
      margin-inline-start: auto;
      flex: none;
      color: var(--_muted);
      font-size: 0.875em;
    }
  `,
];
