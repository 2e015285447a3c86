import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    :host {
      --_thumb: var(--svc-range-slider-thumb-size, 1.25rem);
      padding-inline: calc(var(--_thumb) / 2);
    }
    [part~='track'] {
      position: relative;
      block-size: var(--_thumb);
      touch-action: none;
      cursor: pointer;
    }
    [part~='track']::before {
      content: '';
      position: absolute;
      inset-inline: 0;
      inset-block-start: 50%;
      block-size: var(--svc-range-slider-track-height, 0.25rem);
      translate: 0 -50%;
      border-radius: 1rem;
      background: var(--_border);
    }
    [part~='range'] {
      position: absolute;
      inset-block-start: 50%;
      block-size: var(--svc-range-slider-track-height, 0.25rem);
      translate: 0 -50%;
      border-radius: 1rem;
      background: var(--_accent);
    }
    [part~='thumb'] {
      position: absolute;
      inset-block-start: 0;
      inline-size: var(--_thumb);
      block-size: var(--_thumb);
      margin-inline-start: calc(var(--_thumb) / -2);
      border: 2px solid var(--_accent);
      border-radius: 50%;
      background: var(--svc-range-slider-thumb-background, Canvas);
      cursor: grab;
      touch-action: none;
    }
    [part~='thumb']:active {
      cursor: grabbing;
    }
    [part~='thumb'][aria-disabled='true'] {
      border-color: var(--_border);
      cursor: default;
    }
    [part~='values'] {
      display: flex;
      justify-content: space-between;
      gap: var(--_gap);
      margin-block-start: 0.375rem;
      margin-inline: calc(var(--_thumb) / -2);
      font-size: 0.875em;
      font-variant-numeric: tabular-nums;
      color: var(--_muted);
    }
  `,
];
