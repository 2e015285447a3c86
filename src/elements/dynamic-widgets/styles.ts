import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    :host {
      display: grid;
      gap: var(--svc-dynamic-widgets-gap, 1.25rem);
      align-content: start;
    }
  `,
];
