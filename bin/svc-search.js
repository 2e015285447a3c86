#!/usr/bin/env node
// `svc-search serve …`: runs the built CLI when the package was built (dist/), else the TypeScript
// source through tsx.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'service', 'cli.js');
let cli;
if (existsSync(built)) {
  cli = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(join(root, 'src', 'service', 'cli.ts')).href);
}
await cli.main(process.argv.slice(2));
