/**
 * `npm run bench -- soak`: does the service's memory level off under steady load? The service runs as its
 * own process (the CLI, demo catalogue, data on disk) so that its resident memory is measured alone, read
 * from `/proc/<pid>/status` (VmRSS). Four clients send a steady mix for `SOAK_SECONDS` (default 300):
 * searches (POST with facets and filters, GET, multi-query with a facets-only query, facet value search,
 * browse pages), indexing (batches that replace, partially update and delete records within a fixed set of
 * 2,000 objectIDs, so the data does not grow), Insights events on the searches' queryIDs and Recommend
 * requests. Prints RSS at start (after a warm-up), in the middle and at the end, a sample every tenth of
 * the run, and the latency of each kind of call.
 *
 * Not part of the default `npm run bench` (it takes five minutes): name it to run it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEV_CREDENTIALS } from '../service/src/index.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CLIENTS = 4;
const IDS = 2000;
const WORDS = ['chair', 'desk', 'lamp', 'table', 'paper', 'binder', 'phone', 'storage', 'art', 'envelope'];
const BRANDS = ['Hon', 'Global', 'Avery', 'Xerox', 'Acco', 'Fellowes'];

const headers = {
  'content-type': 'application/json',
  'x-service-application-id': DEV_CREDENTIALS.appId,
  'x-service-api-key': DEV_CREDENTIALS.adminKey,
};

/** Resident memory of a process in MB (Linux). */
function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function startServiceProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'service/src/cli.ts', 'serve', '--port', '0', '--data-dir', dataDir, '--demo'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening`)));
  });
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'svc-bench-soak-'));
  const { child, url } = await startServiceProcess(dataDir);
  const pid = child.pid!;
  const latencies = new Map<string, number[]>();
  let errors = 0;
  const call = async (kind: string, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) errors += 1;
    const list = latencies.get(kind) ?? [];
    list.push(performance.now() - started);
    latencies.set(kind, list);
    return answer;
  };

  // One step of the mix (weights: 8 searches, 2 writes, 1 events + recommend).
  const step = async () => {
    const roll = Math.random() * 11;
    const word = pick(WORDS);
    if (roll < 3) {
      const answer = await call('search POST', 'POST', '/1/indexes/products/query', {
        query: word,
        facets: ['brand', 'category'],
        filters: `price < ${10 + Math.floor(Math.random() * 500)}`,
        clickAnalytics: true,
        userToken: `user-${Math.floor(Math.random() * 200)}`,
      });
      const hits = (answer.hits as Array<{ objectID: string }> | undefined) ?? [];
      if (hits.length > 0 && typeof answer.queryID === 'string') {
        await call('events', 'POST', '/1/events', {
          events: [
            {
              eventType: 'click',
              eventName: 'Hit Clicked',
              index: 'products',
              userToken: `user-${Math.floor(Math.random() * 200)}`,
              queryID: answer.queryID,
              objectIDs: [hits[0]!.objectID],
              positions: [1],
            },
          ],
        });
      }
    } else if (roll < 4.5) {
      await call('search GET', 'GET', `/1/indexes/products?query=${word}&hitsPerPage=10`);
    } else if (roll < 6) {
      await call('multi-query', 'POST', '/1/indexes/*/queries', {
        requests: [
          { indexName: 'products', query: word, facets: ['brand'], facetFilters: [[`brand:${pick(BRANDS)}`]] },
          { indexName: 'products', query: word, facets: ['brand'], hitsPerPage: 0, analytics: false },
        ],
      });
    } else if (roll < 7) {
      await call('facet search', 'POST', '/1/indexes/products/facets/brand/query', { facetQuery: word.slice(0, 2) });
    } else if (roll < 8) {
      await call('browse', 'POST', '/1/indexes/products/browse', { hitsPerPage: 200, filters: 'price > 100' });
    } else if (roll < 10) {
      const requests = [];
      for (let i = 0; i < 20; i++) {
        const objectID = `soak-${Math.floor(Math.random() * IDS)}`;
        const action = pick(['addObject', 'partialUpdateObject', 'deleteObject', 'addObject']);
        const body =
          action === 'deleteObject'
            ? { objectID }
            : action === 'partialUpdateObject'
              ? { objectID, price: { _operation: 'Increment', value: 1 } }
              : { objectID, name: `Soak ${word} ${objectID}`, brand: pick(BRANDS), price: Math.random() * 500 };
        requests.push({ action, body });
      }
      await call('batch write', 'POST', '/1/indexes/products/batch', { requests });
    } else {
      await call('recommend', 'POST', '/1/indexes/*/recommendations', {
        requests: [{ indexName: 'products', model: 'trending-items', threshold: 0, maxRecommendations: 10 }],
      });
    }
  };

  try {
    // Warm-up: every kind of call a few times, then the start figure.
    for (let i = 0; i < 200; i++) await step();
    latencies.clear();
    const samples: Array<{ at: number; rss: number; calls: number }> = [];
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const calls = () => [...latencies.values()].reduce((sum, list) => sum + list.length, 0);
    samples.push({ at: 0, rss: rssMB(pid), calls: 0 });
    const sampler = setInterval(
      () => samples.push({ at: (performance.now() - started) / 1000, rss: rssMB(pid), calls: calls() }),
      (SECONDS * 1000) / 10,
    );
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < deadline) await step();
      }),
    );
    clearInterval(sampler);
    samples.push({ at: (performance.now() - started) / 1000, rss: rssMB(pid), calls: calls() });

    const middle = samples.reduce((best, s) =>
      Math.abs(s.at - SECONDS / 2) < Math.abs(best.at - SECONDS / 2) ? s : best,
    );
    const [first, last] = [samples[0]!, samples.at(-1)!];
    console.log(
      `${SECONDS} s of steady load, ${CLIENTS} clients, service in its own process (demo catalogue on disk), ` +
        `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
    );
    console.log(
      `service RSS: start ${first.rss.toFixed(0)} MB, middle (${middle.at.toFixed(0)} s) ${middle.rss.toFixed(0)} MB, ` +
        `end ${last.rss.toFixed(0)} MB (end − middle ${(last.rss - middle.rss).toFixed(0)} MB)`,
    );
    console.log(`samples (s: MB): ${samples.map((s) => `${s.at.toFixed(0)}: ${s.rss.toFixed(0)}`).join(', ')}`);
    console.log(`\n| call | count | p50 ms | p99 ms |\n|---|---|---|---|`);
    for (const [kind, list] of [...latencies].sort()) {
      const sorted = [...list].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      console.log(`| ${kind} | ${list.length} | ${at(0.5).toFixed(2)} | ${at(0.99).toFixed(2)} |`);
    }
    console.log(`\n${calls()} calls, ${errors} answered other than 200`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
