/**
 * Closing the service while a Query Suggestions build runs: `close` waits for the build, which stops at its
 * next pause without writing, before the storage closes — no error logged ("database connection is not
 * open"), and on restart the configuration's state is whole (no build recorded half-way, no suggestions
 * index half-written).
 */
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { before, test } from 'node:test';
import { createService } from '../src/index.js';
import { index, startService, storageOptions, tempDir } from './service-helpers.js';

/** 1,600 brand × category pairs: a build with many candidates, so that it pauses many times. */
const RECORDS = Array.from({ length: 1600 }, (_, i) => ({
  objectID: String(i),
  name: `Item ${i}`,
  brand: `brand${i % 40}`,
  category: `category${Math.floor(i / 40)}`,
}));

const CONFIG = {
  indexName: 'shop_qs',
  sourceIndices: [
    {
      indexName: 'shop',
      minHits: 1,
      minLetters: 3,
      facets: [{ attribute: 'brand', amount: 1 }],
      generate: [['brand', 'category']],
    },
  ],
  languages: [],
};

/** Runs `act` and returns what it logged with `console.error` (the service logs a failed build there). */
async function errorsLoggedBy(act: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  };
  try {
    await act();
  } finally {
    console.error = consoleError;
  }
  return errors;
}

let dataDir: string;
before(async () => {
  dataDir = tempDir();
  const svc = await startService({ dataDir });
  await index(svc, 'shop', RECORDS, { attributesForFaceting: ['brand', 'category'] });
  await svc.ok('POST', '/1/configs', CONFIG);
  await svc.ok('POST', '/1/_local/configs/shop_qs/build');
  await svc.stop({ keepData: true });
});

test('a build asked for just before the service closes does not start: no error', async () => {
  // A service that does not listen: its close goes straight to the services, as fast as it can.
  const service = await createService(await storageOptions(dataDir));
  const builtAt = (await service.services.querySuggestions.status('shop_qs')).lastBuiltAt;
  const errors = await errorsLoggedBy(async () => {
    const building = service.services.querySuggestions.build('shop_qs'); // starts on the next turn
    await service.close();
    await building;
    // The build, had it started after the storage closed, would fail on this turn at the latest.
    await nextTurn();
  });
  assert.deepEqual(errors, []);
  const again = await createService(await storageOptions(dataDir));
  try {
    assert.equal((await again.services.querySuggestions.status('shop_qs')).lastBuiltAt, builtAt);
  } finally {
    await again.close();
  }
});

test('closing the service during a build waits for it: no error, nothing half-written', async () => {
  const svc = await startService({ dataDir });
  const suggestions = svc.service.services.querySuggestions;
  const before = await svc.ok('GET', '/1/configs/shop_qs/status');
  const errors = await errorsLoggedBy(async () => {
    void suggestions.build('shop_qs');
    // Running: at one of its pauses (1,600 candidates, a pause every 25).
    for (;;) {
      if ((await suggestions.status('shop_qs')).isRunning) break;
      await nextTurn();
    }
    await nextTurn();
    await svc.stop({ keepData: true });
    await nextTurn();
  });
  assert.deepEqual(errors, []);

  // Restarted on the same data: the interrupted build recorded nothing, the suggestions are the last build's.
  const again = await startService({ dataDir });
  try {
    const status = await again.ok('GET', '/1/configs/shop_qs/status');
    assert.equal(status.lastBuiltAt, before.lastBuiltAt, 'the interrupted build recorded nothing');
    const built = await again.ok('POST', '/1/indexes/shop_qs/query', { hitsPerPage: 0 });
    assert.ok(built.nbHits > 0);
  } finally {
    await again.stop();
  }
});
