// Custom elements manifest (custom-elements.json) from the JSDoc of the elements, Lit-aware.
// Read by Storybook (autodocs, `setCustomElementsManifest` in .storybook/preview.ts) and by
// scripts/readme-api.ts (the element reference, docs/elements.md). Run with `npm run analyze`.
import { readFileSync } from 'node:fs';

export default {
  globs: ['src/elements/**/*.ts'],
  // Styles hold CSS and declare no API.
  // Define files stay in: their customElements.define calls give the tag names (besides any @tagname).
  exclude: ['src/elements/**/styles.ts', 'src/elements/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  // package.json (its `customElements` field) is kept by hand: the analyzer must not rewrite it.
  packagejson: false,
  /**
   * The analyzer's Lit plugin crashes on a spread in a `static properties` entry
   * (`{ ...list, attribute: 'x' }`: a SpreadAssignment has no name). The spread only carries a converter,
   * which the manifest does not describe, so it is left out of the text the analyzer reads.
   */
  plugins: [
    {
      // `this.dispatchEvent(new CustomEvent(type, …))` in a shared helper is read as an event named after the
      // variable. Real events are named (kebab-case, `svc-…`) and documented with `@event`.
      name: 'svc-drop-unnamed-events',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules ?? []) {
          for (const declaration of module.declarations ?? []) {
            if (!declaration.events) continue;
            declaration.events = declaration.events.filter(
              (event) => event.name && (event.name.includes('-') || event.description),
            );
          }
        }
      },
    },
  ],
  overrideModuleCreation({ ts, globs }) {
    return globs.map((path) => {
      const text = readFileSync(path, 'utf8').replace(/\{(\s*)\.\.\.[A-Za-z_$][\w$]*,\s*/g, '{$1');
      return ts.createSourceFile(path, text, ts.ScriptTarget.ES2015, true);
    });
  },
};
