/**
 * Vite library mode: one self-contained, minified ES module `dist/svc-search.js` (Lit included) that
 * registers every element and exports every class, for pages without a bundler:
 *   <script type="module" src="…/svc-search.js"></script>
 * Run by `npm run build` (scripts/build.ts) after tsc has written the per-module ES files and `.d.ts`.
 * Storybook also reads this file; `.storybook/main.ts` strips the library settings for its app build.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    minify: 'oxc',
    sourcemap: true,
    copyPublicDir: false,
    lib: {
      entry: 'src/define.ts',
      formats: ['es'],
      fileName: () => 'svc-search.js',
    },
    rolldownOptions: {
      // Everything in one file: no chunks for a page that loads a single script. Full minification (Vite
      // keeps whitespace in ES library builds by default, for downstream bundlers; this file is final).
      output: { codeSplitting: false, minify: true },
    },
  },
});
