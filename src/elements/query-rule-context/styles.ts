import { css } from 'lit';

/** It shows nothing. */
export const styles = css`
  :host {
    display: none !important;
  }
`;
