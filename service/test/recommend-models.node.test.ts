/**
 * The models' incremental updates: adding events one batch at a time (in any order, late events included)
 * gives exactly the models built from all the events at once; a late event that falls between two sessions
 * joins them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentSimilarity, IndexModels, type ModelEvent, type RecordSource } from '../src/recommend/models.js';

const MIN = 60_000;

/** mulberry32: a fixed-seed generator so the case is the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const records: RecordSource = (() => {
  const list = Array.from({ length: 12 }, (_, i) => ({
    objectID: `o${i}`,
    name: `thing ${i % 4} kind`,
    category: `c${i % 3}`,
  }));
  const map = new Map(list.map((r) => [r.objectID, r]));
  return { get: (id) => map.get(id), objects: () => list, version: () => 1 };
})();

function answers(models: IndexModels, now: number) {
  const ids = Array.from({ length: 12 }, (_, i) => `o${i}`);
  return {
    bought: ids.map((id) => models.boughtTogether(id)),
    related: ids.map((id) => models.relatedProducts(id, records)),
    trending: models.trendingItems(now, records),
    facets: models.trendingFacets(now, records, 'category'),
  };
}

test('adding events in shuffled batches equals building from all of them', () => {
  const next = random(7);
  const now = Date.now();
  const events: ModelEvent[] = Array.from({ length: 400 }, () => ({
    eventType: next() < 0.6 ? 'conversion' : next() < 0.8 ? 'click' : 'view',
    userToken: `u${Math.floor(next() * 15)}`,
    timestamp: now - Math.floor(next() * 3 * 24 * 60) * MIN,
    objectIDs: Array.from({ length: 1 + Math.floor(next() * 3) }, () => `o${Math.floor(next() * 12)}`),
  }));
  const all = new IndexModels();
  all.add([...events].sort((a, b) => a.timestamp - b.timestamp));
  const incremental = new IndexModels();
  const shuffled = [...events].sort(() => next() - 0.5);
  for (let i = 0; i < shuffled.length; i += 7) incremental.add(shuffled.slice(i, i + 7));
  const round = (value: unknown) =>
    JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)));
  assert.deepEqual(round(answers(incremental, now)), round(answers(all, now)));
  assert.ok(
    answers(all, now).bought.some((list) => list.length > 0),
    'the case has bought-together pairs',
  );
});

test('a late event between two sessions joins them into one', () => {
  const t0 = Date.now() - 3 * 3600_000;
  const models = new IndexModels();
  // 40 minutes apart: two sessions, so o1 and o2 were not bought together.
  models.add([
    { eventType: 'conversion', userToken: 'u', timestamp: t0, objectIDs: ['o1'] },
    { eventType: 'conversion', userToken: 'u', timestamp: t0 + 40 * MIN, objectIDs: ['o2'] },
  ]);
  assert.deepEqual(models.boughtTogether('o1'), []);
  // A conversion arriving late, 20 minutes after the first: every gap is now ≤ 30 minutes, one session.
  // o1 is in 1 session, with o2 and o3 → 100 × 1 / (1 + 1) = 50 each.
  models.add([{ eventType: 'conversion', userToken: 'u', timestamp: t0 + 20 * MIN, objectIDs: ['o3'] }]);
  assert.deepEqual(models.boughtTogether('o1'), [
    { objectID: 'o2', score: 50 },
    { objectID: 'o3', score: 50 },
  ]);
});

test('a session with more distinct items than maxSessionItems counts its items but makes no pairs', () => {
  const t0 = Date.now() - 3600_000;
  const basket = (user: string, size: number, offset: number): ModelEvent[] =>
    Array.from({ length: size }, (_, i) => ({
      eventType: 'conversion',
      userToken: user,
      timestamp: t0 + i,
      objectIDs: [`x${offset + i}`],
    }));
  const models = new IndexModels({ maxSessionItems: 3 });
  models.add([...basket('small', 3, 0), ...basket('bulk', 4, 100)]);
  // Three items: each in 1 session with the two others → 100 × 1 / (1 + 1) = 50.
  assert.deepEqual(models.boughtTogether('x0'), [
    { objectID: 'x1', score: 50 },
    { objectID: 'x2', score: 50 },
  ]);
  assert.deepEqual(models.boughtTogether('x100'), [], 'four items in one session: no pairs');
  // The bulk session's items still count once each: adding a real basket with x100 scores 100 × 1 / (2 + 1).
  models.add(basket('later', 2, 99));
  assert.deepEqual(
    models.boughtTogether('x100').map(({ objectID, score }) => [objectID, Math.round(score * 100) / 100]),
    [['x99', 33.33]],
  );
});

test('one user sending thousands of distinct conversions in one session stays cheap to add (no n² recount per batch)', () => {
  // Before the basket cap and the per-session update, 2,100 distinct items of one session were recounted
  // pair by pair (≈ 2.2 million pairs) on each batch: ≈ 9 s for the last batch of 110 events. The work is
  // counted, not timed (a timed test fails on a loaded machine; `npm run bench recommend` prints the time).
  const t0 = Date.now() - 3600_000;
  const session = (count: number, user: string): ModelEvent[] =>
    Array.from({ length: count }, (_, i) => ({
      eventType: 'conversion',
      userToken: user,
      timestamp: t0 + i,
      objectIDs: [`${user}-${i}`],
    }));
  const events = session(2_100, 'bulk');
  const incremental = new IndexModels();
  for (const size of [1_000, 500, 490, 110]) incremental.add(events.splice(0, size));
  assert.equal(incremental.size, 2_100);
  assert.equal(incremental.pairUpdates, 0, 'a session past maxSessionItems makes no pairs, in any batch');
  assert.deepEqual(incremental.boughtTogether('bulk-0'), []);

  // The counter counts: a basket of exactly maxSessionItems (50) counts its 1,225 pairs once per model.
  const basket = new IndexModels();
  basket.add(session(50, 'basket'));
  assert.equal(basket.pairUpdates, 2 * 1_225);
  assert.equal(basket.boughtTogether('basket-0').length, 49);
});

test('appending to a long history recomputes only the sessions the new events can change', () => {
  // 200 sessions of two items, a day apart, then one more item joining the last session: the answer for the
  // new pair is right and the older sessions' pairs are untouched.
  const t0 = Date.now() - 300 * 24 * 3600_000;
  const history: ModelEvent[] = Array.from({ length: 200 }, (_, d) => ({
    eventType: 'conversion',
    userToken: 'u',
    timestamp: t0 + d * 24 * 3600_000,
    objectIDs: [`a${d}`, `b${d}`],
  }));
  const models = new IndexModels();
  models.add(history);
  models.add([
    { eventType: 'conversion', userToken: 'u', timestamp: t0 + 199 * 24 * 3600_000 + 5 * MIN, objectIDs: ['c'] },
  ]);
  assert.deepEqual(models.boughtTogether('a0'), [{ objectID: 'b0', score: 50 }]);
  assert.deepEqual(models.boughtTogether('c'), [
    { objectID: 'a199', score: 50 },
    { objectID: 'b199', score: 50 },
  ]);
  const all = new IndexModels();
  all.add([
    ...history,
    { eventType: 'conversion', userToken: 'u', timestamp: t0 + 199 * 24 * 3600_000 + 5 * MIN, objectIDs: ['c'] },
  ]);
  for (const id of ['a0', 'a199', 'b199', 'c']) assert.deepEqual(models.boughtTogether(id), all.boughtTogether(id));
});

test('content similarity rescales over the attributes the source has', () => {
  // Source without brand: weights category .15, name .3 (subCategory, brand missing) → total .45.
  // Same category (.15) + name Jaccard {red, pen} vs {blue, pen} = 1/3 (.1) → .25 / .45 = .5556
  const sim = contentSimilarity(
    { name: 'Red Pen', category: 'Office' },
    { name: 'Blue Pen', category: 'Office', brand: 'Acme' },
    { subCategory: 0.35, category: 0.15, brand: 0.2, name: 0.3 },
  );
  assert.equal(Math.round(sim * 10000) / 10000, 0.5556);
});
