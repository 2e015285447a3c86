import { css } from 'lit';

/** No box of its own: its children lay out as if it were not there. */
export const styles = css`
  :host {
    display: contents;
  }
`;
