import { css } from 'lit';

export const styles = css`
  :host {
    display: inline;
  }
  mark {
    background: var(--svc-highlight-background, color-mix(in srgb, var(--svc-accent, #3d6be0) 22%, transparent));
    color: var(--svc-highlight-color, inherit);
    font-weight: var(--svc-highlight-font-weight, 600);
    border-radius: 2px;
  }
`;
