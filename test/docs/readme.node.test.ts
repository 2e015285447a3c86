/**
 * The READMEs a newcomer reads: the root README is for the library's users (at most 15 KB, the two commands
 * first), and no README or document links outside the repository or to a file that does not exist.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Markdown files of the repository (tracked or new, not ignored). */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter(Boolean)
    .filter((path) => existsSync(join(root, path)));
}

describe('README and docs', () => {
  it('the root README is at most 15 KB and starts with the two commands', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.ok(statSync(join(root, 'README.md')).size <= 15 * 1024, `README.md is ${readme.length} bytes`);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = firstBlock
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/\s+#.*$/, '').trim());
    assert.deepEqual(commands, ['npm install && npm start', 'npm test']);
    assert.ok(readme.indexOf('```sh') < readme.indexOf('\n## '), 'the commands come before the first section');
  });

  it('no Markdown file links outside the repository or to a missing file', () => {
    const problems: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(join(root, file), 'utf8');
      if (/\.\.\/shared\//.test(text)) problems.push(`${file}: mentions ../shared/`);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = resolve(root, dirname(file), target!.split('#')[0]!);
        if (relative(root, path).startsWith('..')) problems.push(`${file}: ${target} is outside the repository`);
        else if (!existsSync(path)) problems.push(`${file}: ${target} does not exist`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
