import { css } from 'lit';
import { baseStyles } from '../base/styles.js';

export const styles = [
  baseStyles,
  css`
    ol {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.25rem;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li {
      display: inline-flex;
      align-items: center;
      gap: 0.25rem;
      overflow-wrap: anywhere;
    }
    [part~='link'] {
      color: var(--_accent);
      text-decoration: underline;
      text-underline-offset: 0.15em;
    }
    [part~='current'] {
      font-weight: 600;
    }
    [part~='separator'] {
      color: var(--_muted);
    }
  `,
];
