/**
 * `node --import tsx bench/analytics-latency.ts`: what recording searches for Analytics costs a search,
 * and what the Analytics reports cost to compute.
 *
 * 1. Search latency over loopback HTTP on the demo catalogue, on disk (WAL, synchronous FULL), with
 *    `analytics: false` (nothing recorded) and with the default (recorded), alternated request by request
 *    so both see the same machine state.
 * 2. What writing one search synchronously (one transaction, one fsync per search) would cost instead of
 *    the queue, and what one queued write of 100 searches costs.
 * 3. Report latency over HTTP with 100,000 recorded searches in the period (20 hits each, drawn from
 *    2,000 objectIDs, 5,000 users, 300 distinct queries, half of them tracked).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createService, DEV_CREDENTIALS } from '../service/src/index.js';
import { AnalyticsLog } from '../service/src/analytics/log.js';
import { SqliteStorage } from '../service/src/storage/sqlite/storage.js';
import type { AnalyticsSearch } from '../service/src/storage/types.js';

const headers = (key: string) => ({
  'content-type': 'application/json',
  'x-service-application-id': DEV_CREDENTIALS.appId,
  'x-service-api-key': key,
});

function quantiles(samples: number[], unit: 'ms' | 'µs' = 'ms'): string {
  const scale = unit === 'ms' ? 1 : 1000;
  const sorted = [...samples].sort((a, b) => a - b).map((x) => x * scale);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return `p50 ${at(0.5).toFixed(2)} ${unit}, p90 ${at(0.9).toFixed(2)} ${unit}, p99 ${at(0.99).toFixed(2)} ${unit}, mean ${mean.toFixed(2)} ${unit}`;
}

const WORDS = [
  'chair',
  'desk',
  'lamp',
  'table',
  'paper',
  'binder',
  'phone',
  'storage',
  'art',
  'envelope',
  'label',
  'fastener',
  'copier',
  'bookcase',
  'appliance',
  'furnishing',
];

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-analytics-'));
  const service = await createService({ dataDir, demo: true });
  const { url } = await service.listen(0, '127.0.0.1');
  try {
    const search = async (query: string, analytics: boolean) => {
      const body = JSON.stringify({
        query,
        hitsPerPage: 20,
        userToken: 'bench-user',
        ...(analytics ? {} : { analytics: false }),
      });
      const start = performance.now();
      const response = await fetch(`${url}/1/indexes/products/query`, {
        method: 'POST',
        headers: headers(DEV_CREDENTIALS.searchKey),
        body,
      });
      await response.json();
      return performance.now() - start;
    };
    for (let i = 0; i < 200; i += 1) await search(WORDS[i % WORDS.length]!, i % 2 === 0); // warm-up
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < 4000; i += 1) {
      // Queries change per pair so the engine does not answer from a warm identical state only.
      const query = `${WORDS[Math.floor(i / 2) % WORDS.length]!}${i % 7 === 0 ? 's' : ''}`;
      if (i % 2 === 0) off.push(await search(query, false));
      else on.push(await search(query, true));
    }
    console.log(`search over HTTP, demo catalogue on disk, 2,000 each, alternated:`);
    console.log(`  analytics=false (not recorded): ${quantiles(off)}`);
    console.log(`  default (recorded, queued):     ${quantiles(on)}`);
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  // 2. Synchronous write per search vs the queue.
  const writeDir = mkdtempSync(join(tmpdir(), 'svc-bench-analytics-write-'));
  const storage = new SqliteStorage(writeDir);
  const log = new AnalyticsLog(storage.analytics);
  const entry = (i: number): AnalyticsSearch => ({
    indexName: 'products',
    ts: Date.now(),
    query: `${WORDS[i % WORDS.length]} ${i}`,
    nbHits: 20,
    userKey: `user-${i % 50}`,
    anonymous: false,
    page: 0,
    hitsPerPage: 20,
    objectIDs: Array.from({ length: 20 }, (_, k) => `OFF-${(i * 7 + k * 101) % 2000}`),
    filters: [{ attribute: 'brand', operator: ':', value: 'Hon' }],
    tags: ['web'],
  });
  const single: number[] = [];
  for (let i = 0; i < 300; i += 1) {
    const start = performance.now();
    log.record(entry(i));
    await log.flush();
    single.push(performance.now() - start);
  }
  const batch: number[] = [];
  for (let b = 0; b < 50; b += 1) {
    for (let i = 0; i < 100; i += 1) log.record(entry(b * 100 + i));
    const start = performance.now();
    await log.flush();
    batch.push(performance.now() - start);
  }
  const record: number[] = [];
  for (let i = 0; i < 1000; i += 1) {
    const start = performance.now();
    log.record(entry(i));
    record.push(performance.now() - start);
  }
  await log.flush();
  console.log(`one search written on its own (1 transaction + fsync): ${quantiles(single)}`);
  console.log(`one queued write of 100 searches:                      ${quantiles(batch)}`);
  console.log(`record() on the search path (queue only):             ${quantiles(record, 'µs')}`);
  await storage.close();
  rmSync(writeDir, { recursive: true, force: true });

  // 3. Reports over 100,000 recorded searches.
  const reportDir = mkdtempSync(join(tmpdir(), 'svc-bench-analytics-reports-'));
  const reportService = await createService({ dataDir: reportDir });
  const { url: reportUrl } = await reportService.listen(0, '127.0.0.1');
  try {
    const big = new AnalyticsLog(reportService.services.storage.analytics);
    const now = Date.now();
    for (let i = 0; i < 100_000; i += 1) {
      big.record({
        ...entry(i),
        query: WORDS[i % WORDS.length]! + (i % 300),
        ts: now - (i % 7) * 86_400_000 - i,
        userKey: `user-${i % 5000}`,
        queryID: i % 2 ? `q${i}` : undefined,
      } as AnalyticsSearch);
      if (i % 1000 === 999) await big.flush();
    }
    await big.flush();
    for (const path of [
      '/2/searches/count',
      '/2/searches?clickAnalytics=true',
      '/2/hits?clickAnalytics=true',
      '/2/users/count',
      '/2/filters/brand',
    ]) {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const start = performance.now();
        const response = await fetch(`${reportUrl}${path}${path.includes('?') ? '&' : '?'}index=products`, {
          headers: headers(DEV_CREDENTIALS.adminKey),
        });
        await response.json();
        times.push(performance.now() - start);
      }
      console.log(`GET ${path} over 100,000 searches: median ${[...times].sort((a, b) => a - b)[2]!.toFixed(0)} ms`);
    }
  } finally {
    await reportService.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
