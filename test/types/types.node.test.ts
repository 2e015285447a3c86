/**
 * Type tests: `tsc --noEmit` over `test/types/*.ts(x)`, which import `svc-search/…` as an application does
 * (the subpaths mapped through package.json `exports` to the sources their declarations are built from).
 * Each file has valid uses and `@ts-expect-error` lines for invalid ones, so a typing that is too loose (an
 * unused `@ts-expect-error`) fails as surely as one that is too strict.
 *
 * Vue templates are checked by `vue-tsc` (strictTemplates, so unknown properties and events are errors too):
 * the example single-file component `examples/vue/ShopSearch.vue` and `test/types/*.vue`, whose wrong uses sit
 * under `<!-- @vue-expect-error TS<code> … -->` comments (vue-tsc reports an unused one as an error).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const here = join(root, 'test/types');

/** `svc-search/<subpath>` → the `src/` file of its `types` target (browser subpaths). */
function paths(): Record<string, string[]> {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(exports)) {
    const target =
      value && typeof value === 'object'
        ? ((value as { types?: string }).types ?? (value as { node?: { types: string } }).node?.types)
        : undefined;
    if (!target) continue;
    out[`svc-search${key.slice(1)}`] = [join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'))];
  }
  return out;
}

/** `tsc`, or `vue-tsc` (which also reads `.vue` files) when `vue` is set, over `files` with the package's subpaths mapped. */
function typecheck(files: string[], { vue = false } = {}): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-types-'));
  try {
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        experimentalDecorators: true,
        useDefineForClassFields: false,
        types: [],
        typeRoots: [join(root, 'node_modules/@types')],
        baseUrl: root,
        paths: paths(),
      },
      ...(vue && { vueCompilerOptions: { strictTemplates: true } }),
      files,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const compiler = vue ? 'node_modules/vue-tsc/bin/vue-tsc.js' : 'node_modules/typescript/bin/tsc';
    const result = spawnSync(process.execPath, [join(root, compiler), '-p', dir], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const files = readdirSync(here)
  .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.node.test.ts'))
  .map((name) => join(here, name));

/** The examples users copy (examples/<framework>/*.ts[x]) must type-check as they are. */
const examples = readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => join(root, 'examples', name));

/** Single-file components: the examples users copy and the template type tests. */
const vueFiles = [
  ...readdirSync(join(root, 'examples/vue'))
    .filter((name) => name.endsWith('.vue'))
    .map((name) => join(root, 'examples/vue', name)),
  ...readdirSync(here)
    .filter((name) => name.endsWith('.vue'))
    .map((name) => join(here, name)),
];

/** `<!-- @vue-expect-error TS2322 … -->` on line n: the error expected on line n + 1, as `"<line> TS<code>"`. */
function expectedVueErrors(text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const match = /<!-- @vue-expect-error (TS\d+)/.exec(line);
    return match ? [`${i + 2} ${match[1]}`] : [];
  });
}

test('tag map, events, generic hits, React JSX and Vue GlobalComponents type-check (and the invalid uses do not)', () => {
  assert.ok(files.length >= 3, `type test files: ${files}`);
  const { status, output } = typecheck(files);
  assert.equal(status, 0, output);
});

test('the examples (React, Vue, Angular, shadow root) type-check with the published subpaths', () => {
  assert.ok(examples.length >= 6, `examples: ${examples}`);
  const { status, output } = typecheck(examples);
  assert.equal(status, 0, output);
});

test('the @ts-expect-error lines are what fails: without them the same files do not compile', () => {
  // Inside node_modules/.cache so that 'react', 'vue' and 'lit' resolve from the copies as from the originals.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/svc-types-strict-'));
  try {
    const stripped = files.map((file) => {
      const copy = join(dir, file.split('/').pop()!);
      writeFileSync(
        copy,
        readFileSync(file, 'utf8').replace(/\/\/ @ts-expect-error.*$|\{\/\* @ts-expect-error.*?\*\/\}/gm, ''),
      );
      return copy;
    });
    const { status, output } = typecheck(stripped);
    assert.notEqual(status, 0);
    const expected = files.reduce(
      (n, file) => n + (readFileSync(file, 'utf8').match(/@ts-expect-error/g)?.length ?? 0),
      0,
    );
    const errors = new Set(
      output
        .split('\n')
        .filter((line) => /error TS\d+/.test(line))
        .map((line) => line.replace(/: error.*/, '')),
    );
    assert.ok(errors.size >= expected, `expected ≥ ${expected} error locations, got ${errors.size}:\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Vue templates type-check with vue-tsc: the ShopSearch.vue example and the valid uses, every @vue-expect-error used', () => {
  assert.ok(
    vueFiles.some((file) => file.endsWith('examples/vue/ShopSearch.vue')) && vueFiles.length >= 2,
    `vue files: ${vueFiles}`,
  );
  const { status, output } = typecheck(vueFiles, { vue: true });
  assert.equal(status, 0, output);
});

test('the @vue-expect-error elements are what fails, each on its line with the error it names', () => {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/svc-types-vue-'));
  try {
    for (const file of vueFiles.filter((file) => file.startsWith(here))) {
      const text = readFileSync(file, 'utf8');
      const expected = expectedVueErrors(text);
      assert.ok(expected.length >= 10, `${file}: ${expected.length} expected errors`);
      // The comments stay (same line numbers) but no longer direct vue-tsc.
      const copy = join(dir, file.split('/').pop()!);
      writeFileSync(copy, text.replaceAll('@vue-expect-error', '@vue-disarmed'));
      const { status, output } = typecheck([copy], { vue: true });
      assert.notEqual(status, 0);
      const found = [...output.matchAll(/\((\d+),\d+\): error (TS\d+)/g)].map(([, line, code]) => `${line} ${code}`);
      assert.deepEqual([...new Set(found)].sort(), [...expected].sort(), output);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ShopSearch.vue has the very template of shop-search.ts, the one test/embedding/vue.browser.test.ts mounts', () => {
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  const sfc = /^<template>([\s\S]*)^<\/template>/m.exec(
    readFileSync(join(root, 'examples/vue/ShopSearch.vue'), 'utf8'),
  )?.[1];
  const component = /template: `([^`]*)`/.exec(readFileSync(join(root, 'examples/vue/shop-search.ts'), 'utf8'))?.[1];
  assert.ok(sfc && component);
  assert.equal(squash(sfc), squash(component));
});
