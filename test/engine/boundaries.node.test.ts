/**
 * What the engine and the service may import. The engine (the library's `src/engine/`, `svc-search/engine`)
 * runs in a browser Web Worker (`svc-search/local`) as well as in the service: it imports only its own
 * modules and the wire (`../protocol/`) — no `node:` module, no other layer, no other package — and
 * type-checks with the web platform's worker globals and no Node typings (no `Buffer`, no `process`). The
 * service takes nothing from the library but `svc-search/protocol` and `svc-search/engine` (never browser code).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const serviceRoot = join(root, 'service');
const engineDir = join(root, 'src/engine');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports (static and dynamic), as TypeScript reads them. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

describe('boundaries', () => {
  it('the engine imports only its own modules and the protocol', () => {
    const files = sourceFiles(engineDir);
    assert.ok(files.length >= 10, `engine files: ${files.length}`);
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !/^\.\/[\w-]+\.js$/.test(specifier) && specifier !== '../protocol/index.js')
        .map((specifier) => `${relative(root, file)} → ${specifier}`),
    );
    assert.deepEqual(offending, []);
  });

  it('the engine type-checks with worker globals and without Node typings', () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.webworker.d.ts', 'lib.webworker.iterable.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    };
    const program = ts.createProgram(sourceFiles(engineDir), options);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      .slice(0, 10);
    assert.deepEqual(problems, []);
  });

  it('the service imports nothing from the library but svc-search/protocol and svc-search/engine', () => {
    const offending = sourceFiles(join(serviceRoot, 'src')).flatMap((file) =>
      importsOf(file)
        .filter(
          (specifier) =>
            (/^svc-search(\/|$)/.test(specifier) &&
              specifier !== 'svc-search/protocol' &&
              specifier !== 'svc-search/engine') ||
            /(\.\.\/){2,}src\//.test(specifier),
        )
        .map((specifier) => `${relative(serviceRoot, file)} → ${specifier}`),
    );
    assert.deepEqual(offending, []);
  });
});
