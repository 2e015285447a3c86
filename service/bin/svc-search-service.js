#!/usr/bin/env node
// `svc-search-service serve [flags]`: runs the compiled CLI (dist/cli.js, built by `npm run build`), so
// running the service needs no TypeScript tooling. In the repository, `npm run serve -- [flags]` runs the
// TypeScript source instead.
import { main } from '../dist/cli.js';

await main(process.argv.slice(2));
