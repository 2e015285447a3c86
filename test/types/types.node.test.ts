/**
 * Type tests: `tsc --noEmit` over `test/types/*.ts(x)`, which import `svc-search/…` as an application does
 * (the subpaths mapped through package.json `exports` to the sources their declarations are built from).
 * Each file has valid uses and `@ts-expect-error` lines for invalid ones, so a typing that is too loose (an
 * unused `@ts-expect-error`) fails as surely as one that is too strict.
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
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(exports)) {
    const target = value && typeof value === 'object' ? ((value as { types?: string }).types ?? (value as { node?: { types: string } }).node?.types) : undefined;
    if (!target) continue;
    out[`svc-search${key.slice(1)}`] = [join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'))];
  }
  return out;
}

function typecheck(files: string[]): { status: number | null; output: string } {
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
      files,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
    const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
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
      writeFileSync(copy, readFileSync(file, 'utf8').replace(/\/\/ @ts-expect-error.*$|\{\/\* @ts-expect-error.*?\*\/\}/gm, ''));
      return copy;
    });
    const { status, output } = typecheck(stripped);
    assert.notEqual(status, 0);
    const expected = files.reduce((n, file) => n + (readFileSync(file, 'utf8').match(/@ts-expect-error/g)?.length ?? 0), 0);
    const errors = new Set(output.split('\n').filter((line) => /error TS\d+/.test(line)).map((line) => line.replace(/: error.*/, '')));
    assert.ok(errors.size >= expected, `expected ≥ ${expected} error locations, got ${errors.size}:\n${output}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
