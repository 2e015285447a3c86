// The engine runs outside Node too (a browser Web Worker will load it): no Node module, no Node
// global, no import of the service's HTTP or storage layers. Checked on the sources, and by bundling
// the engine for the browser platform, which fails on any Node built-in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const dir = join(import.meta.dirname, '../../src/engine');
const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));

describe('the engine is portable', () => {
  it('imports no Node module and no other service layer, and uses no Node global', () => {
    assert.ok(files.length > 10, 'the engine sources are found');
    for (const name of files) {
      const source = readFileSync(join(dir, name), 'utf8');
      for (const [pattern, what] of [
        [/from ['"]node:|require\(|import\(['"]node:/, 'a Node module'],
        [/from ['"]\.\.\/(http|storage)\//, 'the HTTP or storage layer'],
        [/\b(Buffer|process|__dirname|setImmediate)\b[.(]/, 'a Node global'],
      ] as const)
        assert.doesNotMatch(source, pattern, `${name} uses ${what}`);
    }
  });

  it('bundles for the browser platform', async () => {
    const result = await build({
      entryPoints: [join(dir, 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    assert.equal(result.errors.length, 0);
    assert.match(result.outputFiles[0]!.text, /searchForFacetValues/);
  });
});
