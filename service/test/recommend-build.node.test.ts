/**
 * The Recommend models and the Personalization profiles are built from the stored events on first use and
 * then follow `'insights:events'`: an event stored while a build reads counts exactly once, whichever
 * comes first — the read or the event's announcement (on PostgreSQL a write and a read run concurrently;
 * an event lost there stayed out of the models until the next restart, one counted twice doubled its
 * weight).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ValidEvent } from '../src/insights/validate.js';
import { index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
before(async () => {
  svc = await startService();
  await index(svc, 'shop', [
    { objectID: 'A', name: 'Red Pen' },
    { objectID: 'B', name: 'Blue Pen' },
    { objectID: 'C', name: 'Paper Pad' },
  ]);
});
after(() => svc.stop());

let users = 0;
/** One conversion of A and B by a new user (a session of its own). */
function order(): ValidEvent[] {
  users += 1;
  return [
    {
      eventType: 'conversion',
      eventName: 'Purchase',
      index: 'shop',
      userToken: `buyer-${users}`,
      timestamp: Date.now(),
      objectIDs: ['A', 'B'],
    },
  ];
}

/** Bought-together of A: confidence 100 × co(A,B) / (sessions(A) + 1). */
async function boughtWithA(): Promise<Array<[string, number]>> {
  const answer = await svc.call(
    'POST',
    '/1/indexes/*/recommendations',
    { requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 }] },
    { key: SEARCH_KEY },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.results[0].hits.map((hit: { objectID: string; _score: number }) => [hit.objectID, hit._score]);
}

/** n orders: B at 100 × n / (n + 1) (rounded to two decimals as the API answers). */
const expected = (n: number): Array<[string, number]> => [['B', Math.round((10_000 * n) / (n + 1)) / 100]];

test('an event stored just before a rebuild reads is counted once', async () => {
  const { insights, recommender } = svc.service.services;
  await insights.append(order());
  recommender.reset();
  const appending = insights.append(order());
  const building = recommender.rebuild();
  await Promise.all([appending, building]);
  assert.deepEqual(await boughtWithA(), expected(2));
});

test('an event stored while a rebuild reads is counted once', async () => {
  const { insights, recommender } = svc.service.services;
  recommender.reset();
  const building = recommender.rebuild();
  const appending = insights.append(order());
  await Promise.all([appending, building]);
  assert.deepEqual(await boughtWithA(), expected(3));
});

test('events stored during the first Recommend requests are counted once', async () => {
  const { insights, recommender } = svc.service.services;
  recommender.reset();
  const writes: Array<Promise<unknown>> = [];
  const reads: Array<Promise<unknown>> = [];
  for (let i = 0; i < 5; i += 1) {
    writes.push(insights.append(order()));
    reads.push(boughtWithA());
  }
  await Promise.all([...writes, ...reads]);
  assert.deepEqual(await boughtWithA(), expected(8));
  // A rebuild from the stored events alone gives the same models.
  recommender.reset();
  assert.deepEqual(await boughtWithA(), expected(8));
});
