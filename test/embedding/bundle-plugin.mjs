// Web-test-runner plugin for the embedding tests (test/embedding/*.browser.test.ts[x]): serves each test
// file as one esbuild bundle, the way an application's bundler would build it. Needed because React 19 ships
// only CommonJS (the dev server's node-resolve serves ES modules as they are), and because JSX/TSX, Vue's
// full build and Angular's JIT compiler are then handled exactly as in an app. The bundle imports nothing
// but the test runner's own web socket module (kept external so server commands such as sendKeys work).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const EMBEDDING_TEST = /^\/test\/embedding\/[^/]+\.browser\.test\.tsx?$/;

/**
 * Resolves `svc-search` and `svc-search/<subpath>` (what the examples import, as an app would) through the
 * package's own `exports` map, to the TypeScript source the `dist/` target is compiled from — so the
 * examples run from source in the tests and the subpaths they use are exactly the published ones.
 * @returns {import('esbuild').Plugin}
 */
function packageSelfReference() {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return {
    name: 'svc-search-self-reference',
    setup(b) {
      b.onResolve({ filter: /^svc-search(\/.*)?$/ }, ({ path }) => {
        const key = `.${path.slice('svc-search'.length)}`;
        let target = exports[key];
        if (target && typeof target === 'object') target = target.browser ?? target.default ?? target.import;
        if (typeof target !== 'string')
          return { errors: [{ text: `"${path}" is not exported by svc-search (package.json exports)` }] };
        return { path: join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
      });
    },
  };
}

/** @returns {import('@web/dev-server-core').Plugin} */
export function embeddingBundlePlugin() {
  return {
    name: 'svc-embedding-bundle',
    async serve(context) {
      if (!EMBEDDING_TEST.test(context.path)) return undefined;
      let result;
      try {
        result = await build({
          entryPoints: [join(root, context.path)],
          bundle: true,
          format: 'esm',
          target: 'es2022',
          platform: 'browser',
          write: false,
          sourcemap: 'inline',
          tsconfig: join(root, 'tsconfig.json'),
          jsx: 'automatic',
          // React and Vue read NODE_ENV; development keeps their warnings visible in the test output.
          define: {
            'process.env.NODE_ENV': '"development"',
            __VUE_OPTIONS_API__: 'true',
            __VUE_PROD_DEVTOOLS__: 'false',
            __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
            ngServerMode: 'false',
          },
          // The full Vue build (runtime template compiler), as an app aliases it to use `template` strings.
          alias: { vue: 'vue/dist/vue.esm-bundler.js' },
          external: ['/__web-dev-server__web-socket.js'],
          plugins: [packageSelfReference()],
          logLevel: 'silent',
        });
      } catch (error) {
        // Show the bundler's own messages in the browser log instead of "Failed to fetch dynamically imported module".
        const messages = (error.errors ?? [error]).map(
          (e) => `${e.text ?? e.message}${e.location ? ` (${e.location.file}:${e.location.line})` : ''}`,
        );
        return {
          body: `throw new Error(${JSON.stringify(`esbuild could not bundle ${context.path}:\n${messages.join('\n')}`)});`,
          type: 'js',
        };
      }
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}
