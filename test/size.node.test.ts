/**
 * Size budget of issue 7: the six mission elements (search box, hits, refinement list, pagination,
 * recommendations, trending) with `<svc-search>`, store, client and insights, Lit included, built by esbuild
 * (bundle, minify, ES2022) must stay at or under 20,000 bytes min+gzip. `npm run bench size` prints the
 * same build next to InstantSearch.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIZE_BUDGET_BYTES, SVC_MISSION_ENTRY, bundleSize, bytesByGroup } from '../bench/size.js';

test(`mission entry is at most ${SIZE_BUDGET_BYTES} bytes min+gzip, Lit included`, async () => {
  const size = await bundleSize(SVC_MISSION_ENTRY);
  const paths = size.inputs.map((input) => input.path);

  // The build really contains what it claims to measure (a broken alias would measure an empty bundle).
  for (const folder of ['search', 'search-box', 'hits', 'refinement-list', 'pagination', 'recommendations', 'trending']) {
    assert.ok(paths.some((path) => path.startsWith(`src/elements/${folder}/`)), `bundle lacks src/elements/${folder}`);
  }
  for (const layer of ['store', 'client', 'insights']) {
    assert.ok(paths.some((path) => path.startsWith(`src/${layer}/`)), `bundle lacks src/${layer}`);
  }
  assert.ok(paths.some((path) => path.includes('node_modules/lit-html/')), 'bundle lacks Lit');
  // Browser code never reaches the Node-only service.
  assert.deepEqual(paths.filter((path) => path.startsWith('src/service/')), []);

  const groups = bytesByGroup(size.inputs)
    .slice(0, 12)
    .map(({ group, bytes }) => `  ${group}: ${bytes}`)
    .join('\n');
  assert.ok(
    size.gzip <= SIZE_BUDGET_BYTES,
    `min+gzip ${size.gzip} bytes > budget ${SIZE_BUDGET_BYTES} (minified ${size.minified}); minified bytes by group:\n${groups}`,
  );
});
