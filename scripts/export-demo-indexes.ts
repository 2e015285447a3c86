/**
 * Exports the demo catalogue for the static Storybook (run by `npm run build-storybook` after the build):
 * `products` (with its replicas, rule and Recommend answers) and `products_query_suggestions` (the
 * autocomplete's suggestions) as `.svcidx` files in `storybook-static/indexes/` (or the directory given), where
 * the stories' `local-index` finds them (stories/shared.ts, `LOCAL_INDICES`).
 *
 * @example
 * node --import tsx scripts/export-demo-indexes.ts storybook-static/indexes
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_SUGGESTIONS_INDEX } from '../service/src/datasets/demo.js';
import { exportFromService } from '../service/src/export.js';
import { createService } from '../service/src/index.js';
import { LOCAL_INDICES } from '../stories/shared.js';

const outDir = process.argv[2] ?? 'storybook-static/indexes';
const service = await createService({ dataDir: ':memory:', demo: true });
try {
  // The demo's suggestions are built in the background at start: wait for a build to end.
  await service.services.querySuggestions.build(DEMO_SUGGESTIONS_INDEX);
  await mkdir(outDir, { recursive: true });
  for (const index of LOCAL_INDICES) {
    const recommendations = index === DEMO_SUGGESTIONS_INDEX ? 0 : 10;
    const { bytes, records } = await exportFromService(service, { index, recommendations });
    const file = join(outDir, `${index}.svcidx`);
    await writeFile(file, bytes);
    process.stdout.write(`export-demo-indexes: ${file} ${bytes.length} bytes, ${records} records\n`);
  }
} finally {
  await service.close();
}
