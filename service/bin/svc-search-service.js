#!/usr/bin/env node
// `svc-search serve …`: runs the built CLI (dist/service/cli.js) when it is at least as new as the
// TypeScript source, else the source through tsx (a checkout where dist/ is stale or absent).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli.js');
const source = join(root, 'src');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const useBuilt = existsSync(built) && (!existsSync(source) || statSync(built).mtimeMs >= newestSource(source));
let cli;
if (useBuilt) {
  cli = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(join(source, 'cli.ts')).href);
}
await cli.main(process.argv.slice(2));
