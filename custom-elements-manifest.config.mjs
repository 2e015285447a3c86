// Custom elements manifest (custom-elements.json) from the JSDoc of the elements, Lit-aware.
// Read by Storybook (autodocs, `setCustomElementsManifest` in .storybook/preview.ts) and by
// scripts/readme-api.ts (the API section of the README). Run with `npm run analyze`.
export default {
  globs: ['src/elements/**/*.ts'],
  // Define files only register tags; styles hold CSS. Neither declares API.
  exclude: ['src/elements/**/define.ts', 'src/elements/**/styles.ts', 'src/elements/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  packagejson: true,
};
