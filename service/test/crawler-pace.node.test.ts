/**
 * The Crawler's pace (`rateLimit`, document 3: at most that many requests start per second), measured where
 * the crawler starts its requests: right after `Pace.acquire` resolves, as `CrawlScope.fetch` does. A late
 * timer only makes a gap longer, so the bounds hold on a loaded machine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Pace } from '../src/crawler/crawl.js';

test('rateLimit 4: concurrent callers start ≥ 250 ms apart, in turn, even after the event loop was busy', async () => {
  const pace = new Pace();
  const signal = new AbortController().signal;
  const starts: number[] = [];
  const all = Promise.all(
    Array.from({ length: 5 }, async () => {
      await pace.acquire(4, signal);
      starts.push(performance.now());
    }),
  );
  // The event loop busy for 600 ms (a loaded machine): timers set for 250 and 500 ms fire late, together. Slots
  // reserved in advance would then start in a burst; counted from each actual start, they stay 250 ms apart.
  const busyUntil = performance.now() + 600;
  while (performance.now() < busyUntil) {
    // busy
  }
  await all;
  const gaps = starts.slice(1).map((start, i) => start - starts[i]!);
  // 1 ms for timers, which count whole milliseconds.
  for (const gap of gaps) assert.ok(gap >= 249, `gaps ${gaps.map((g) => g.toFixed(1)).join(', ')} ms`);
});

test('a late start counts from when it happened: the next one still waits a whole gap', async () => {
  const pace = new Pace();
  const signal = new AbortController().signal;
  await pace.acquire(4, signal);
  // Busy for longer than a gap (a slow page): the next start may come at once, the one after it 250 ms later.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await pace.acquire(4, signal);
  const late = performance.now();
  await pace.acquire(4, signal);
  assert.ok(performance.now() - late >= 249, `${(performance.now() - late).toFixed(1)} ms after the late start`);
});

test('paused: nobody starts until resumed; an abort ends the wait', async () => {
  const pace = new Pace();
  pace.pause();
  const controller = new AbortController();
  let started = false;
  const waiting = pace.acquire(4, controller.signal).then(() => {
    started = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(started, false);
  pace.resume();
  await waiting;
  assert.equal(started, true);
  pace.pause();
  const aborted = new AbortController();
  const stopped = pace.acquire(4, aborted.signal);
  aborted.abort(new Error('stop'));
  await assert.rejects(stopped, /stop/);
});
