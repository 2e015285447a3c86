// Custom elements manifest (custom-elements.json) from the JSDoc of the elements, Lit-aware.
// Read by Storybook (autodocs, `setCustomElementsManifest` in .storybook/preview.ts) and by
// scripts/readme-api.ts (the element reference, docs/elements.md). Run with `npm run analyze`.
import { readFileSync } from 'node:fs';

/**
 * The English strings of each element class, from its `static defaultTranslations = { … }` object literal:
 * `{ entries: [[key, default]…], spreads: ['SvcSearchField'] }` by class name (a spread of another class's
 * `defaultTranslations` is resolved when the manifest is linked).
 */
const translationsByClass = new Map();

/** The text of a string literal (or a template without substitutions), else undefined. */
function literal(ts, node) {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

/** The key/default pairs of a class (its spreads and, without its own, its superclass's), first ones first. */
function resolveTranslations(name, superclassOf, seen = new Set()) {
  if (!name || seen.has(name)) return [];
  seen.add(name);
  const own = translationsByClass.get(name);
  if (!own) return resolveTranslations(superclassOf.get(name), superclassOf, seen);
  const pairs = new Map();
  for (const spread of own.spreads)
    for (const [key, value] of resolveTranslations(spread, superclassOf, seen)) pairs.set(key, value);
  for (const [key, value] of own.entries) pairs.set(key, value);
  return [...pairs];
}

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
      // The autodocs tables and docs/elements.md show the public API only: no `#private` or protected
      // members, no statics (`styles`, `properties`, `defaultTranslations`…). The translations are a table of
      // their own: `translations` on each element's declaration (`[{ name, default }]`, inherited included).
      name: 'svc-public-api',
      analyzePhase({ ts, node }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        for (const member of node.members) {
          const isStatic = member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword);
          if (!isStatic || !ts.isPropertyDeclaration(member) || member.name.getText() !== 'defaultTranslations')
            continue;
          const initializer = member.initializer;
          if (!initializer || !ts.isObjectLiteralExpression(initializer)) continue;
          const entries = [];
          const spreads = [];
          for (const property of initializer.properties) {
            if (ts.isSpreadAssignment(property)) {
              const target = property.expression;
              if (ts.isPropertyAccessExpression(target)) spreads.push(target.expression.getText());
            } else if (ts.isPropertyAssignment(property)) {
              const key = ts.isIdentifier(property.name) ? property.name.text : literal(ts, property.name);
              const value = literal(ts, property.initializer);
              if (key !== undefined && value !== undefined) entries.push([key, value]);
            }
          }
          translationsByClass.set(node.name.text, { entries, spreads });
        }
      },
      packageLinkPhase({ customElementsManifest }) {
        const declarations = (customElementsManifest.modules ?? []).flatMap((module) => module.declarations ?? []);
        const superclassOf = new Map(
          declarations.filter((d) => d.kind === 'class').map((d) => [d.name, d.superclass?.name]),
        );
        for (const declaration of declarations) {
          if (declaration.kind !== 'class') continue;
          if (declaration.members) {
            declaration.members = declaration.members.filter(
              (member) =>
                !member.static &&
                member.privacy !== 'private' &&
                member.privacy !== 'protected' &&
                !member.name.startsWith('#'),
            );
          }
          if (declaration.customElement) {
            // A "Translations: …" paragraph written after the last JSDoc tag lands in that tag's description (an
            // event's, a part's): it belongs to the element's description, next to the translations table.
            for (const list of [
              declaration.events,
              declaration.slots,
              declaration.cssParts,
              declaration.cssProperties,
            ]) {
              for (const item of list ?? []) {
                const at = item.description?.search(/\s*Translations:/) ?? -1;
                if (at < 0) continue;
                const paragraph = item.description.slice(at).trim();
                item.description = item.description.slice(0, at).trim();
                declaration.description = `${declaration.description ?? ''}\n\n${paragraph}`.trim();
              }
            }
            const pairs = resolveTranslations(declaration.name, superclassOf);
            if (pairs.length) declaration.translations = pairs.map(([name, value]) => ({ name, default: value }));
          }
        }
      },
    },
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
