/**
 * The text of the shared styles, without Lit: `styles.ts` makes Lit's stylesheets of it, and the first-paint script
 * (src/prepaint) gives the same rules to the hits it paints before Lit is loaded. `cssText` only joins the literal;
 * its name tells the build's template minifier to minify the CSS inside, as it does Lit's `css`.
 */

/** A CSS literal as text (no interpolation). */
export const cssText = (strings: TemplateStringsArray): string => strings.join('');

/** Every element's rules: see `baseStyles` in styles.ts. */
export const BASE_CSS = cssText`
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

/** The list elements' rules: see `listStyles` in styles.ts. */
export const LIST_CSS = cssText`
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
`;
