/**
 * Recommend: the models built from the full demo history (the superstore order lines seeded as 5,009
 * conversion events) and the latency of `POST /1/indexes/*\/recommendations` per model over loopback HTTP,
 * on the real service with its database on disk (every answer writes its queryID to the search log).
 *
 * `npm run bench recommend` prints the tables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService, DEV_CREDENTIALS } from '../service/src/index.js';
import { loadSuperstore } from '../service/src/datasets/superstore.js';
import { IndexModels } from '../service/src/recommend/models.js';
import { Recommender } from '../service/src/recommend/recommender.js';
import { answerRequest, validateRequest } from '../service/src/recommend/request.js';

const INDEX = 'products';
const BUILDS = 7;
const REQUESTS = 400;
const WARMUP = 30;

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at]!;
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

/** A small deterministic generator (mulberry32) so every run asks for the same objectIDs. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-recommend-'));
  const seedStarted = performance.now();
  const service = await createService({ dataDir, demo: true });
  const startMs = performance.now() - seedStarted;
  try {
    const { services } = service;
    const store = services.insights;
    const events = await store.count({ index: INDEX });
    console.log(
      `demo history: ${events} conversion events (${loadSuperstore().orderLines.length} order lines), service start with catalogue + seeding ${ms(startMs)}`,
    );

    // Model build: read every stored event and train all models, as the first Recommend request does.
    const builds: number[] = [];
    const reads: number[] = [];
    const trains: number[] = [];
    for (let i = 0; i < BUILDS; i++) {
      builds.push((await new Recommender(services).rebuild()).ms);
      const t0 = performance.now();
      const stored = await store.query({ index: INDEX });
      const t1 = performance.now();
      new IndexModels().add(stored);
      trains.push(performance.now() - t1);
      reads.push(t1 - t0);
    }
    const med = (list: number[]) =>
      quantile(
        [...list].sort((a, b) => a - b),
        0.5,
      );
    console.log(`\n| model build (full demo history) | median of ${BUILDS} |`);
    console.log('|---|---:|');
    console.log(`| read events from SQLite | ${ms(med(reads))} |`);
    console.log(`| train (sessions, co-occurrence, trending events) | ${ms(med(trains))} |`);
    console.log(`| total (Recommender.rebuild) | ${ms(med(builds))} |`);

    // One user's bulk session (2,100 distinct conversions in batches of 1,000, 500, 490, 110): past
    // maxSessionItems it makes no pairs, so each batch costs about its own size (the test counts the pairs).
    const bulk: number[] = [];
    for (let i = 0; i < BUILDS; i++) {
      const t0 = Date.now() - 3600_000;
      const events = Array.from({ length: 2_100 }, (_, n) => ({
        eventType: 'conversion',
        userToken: 'bulk',
        timestamp: t0 + n,
        objectIDs: [`bulk-${n}`],
      }));
      const models = new IndexModels();
      const started = performance.now();
      for (const size of [1_000, 500, 490, 110]) models.add(events.splice(0, size));
      bulk.push(performance.now() - started);
    }
    const sortedBulk = [...bulk].sort((a, b) => a - b);
    console.log(
      `| one bulk session, 2,100 items in 4 batches (median / max of ${BUILDS}) | ${ms(med(bulk))} / ${ms(sortedBulk.at(-1)!)} |`,
    );

    // Latency over HTTP.
    const { url } = await service.listen(0, '127.0.0.1');
    const headers = {
      'content-type': 'application/json',
      'x-service-application-id': DEV_CREDENTIALS.appId,
      'x-service-api-key': DEV_CREDENTIALS.searchKey,
    };
    const converted = [...new Set((await store.query({ index: INDEX })).flatMap((e) => e.objectIDs ?? []))].sort();
    const categories = ['Furniture', 'Office Supplies', 'Technology'];
    const next = random(42);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const cases: Array<[string, () => Record<string, unknown>]> = [
      ['bought-together', () => ({ model: 'bought-together', objectID: pick(converted), maxRecommendations: 4 })],
      ['related-products', () => ({ model: 'related-products', objectID: pick(converted), maxRecommendations: 6 })],
      ['trending-items (global)', () => ({ model: 'trending-items', maxRecommendations: 8 })],
      [
        'trending-items (facet value)',
        () => ({ model: 'trending-items', facetName: 'category', facetValue: pick(categories), maxRecommendations: 8 }),
      ],
      ['trending-facets', () => ({ model: 'trending-facets', facetName: 'subCategory', maxRecommendations: 5 })],
      [
        'related-products + queryParameters filter',
        () => ({
          model: 'related-products',
          objectID: pick(converted),
          maxRecommendations: 6,
          queryParameters: { filters: 'price < 100' },
        }),
      ],
    ];
    const call = async (request: Record<string, unknown>) => {
      const response = await fetch(`${url}/1/indexes/*/recommendations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ requests: [{ indexName: INDEX, threshold: 0, ...request }] }),
      });
      if (response.status !== 200) throw new Error(`recommend answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { results: Array<{ nbHits: number }> };
    };
    // The first request of a fresh service builds the models (and related-products its content index).
    const fresh = new Recommender(services);
    const coldStarted = performance.now();
    await fresh.rebuild();
    (await fresh.modelsOf(INDEX)).relatedProducts(converted[0]!, fresh.recordsOf(INDEX)!);
    console.log(
      `\ncold start: models + content index of ${services.catalog.get(INDEX)!.size} records ${ms(performance.now() - coldStarted)}`,
    );

    // In process (validation + model + records + search-log write), to separate the work from HTTP.
    const key = {
      acl: ['search' as const],
      isAdmin: false,
      restrictions: {},
      value: DEV_CREDENTIALS.searchKey,
      maxHitsPerQuery: 0,
      forcedParams: [],
    };
    const inProcess = (request: Record<string, unknown>) =>
      answerRequest(services, key, validateRequest({ indexName: INDEX, threshold: 0, ...request }, 0));

    console.log(
      `\n| Recommend request (${REQUESTS} per model) | HTTP median | HTTP p99 | in-process median | in-process p99 | mean hits |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name, make] of cases) {
      for (let i = 0; i < WARMUP; i++) await call(make());
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const request = make();
        const t0 = performance.now();
        const answer = await call(request);
        times.push(performance.now() - t0);
        hits += answer.results[0]!.nbHits;
      }
      times.sort((a, b) => a - b);
      const local: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const request = make();
        const t0 = performance.now();
        await inProcess(request);
        local.push(performance.now() - t0);
      }
      local.sort((a, b) => a - b);
      console.log(
        `| ${name} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.99))} | ${ms(quantile(local, 0.5))} | ${ms(quantile(local, 0.99))} | ${(hits / REQUESTS).toFixed(1)} |`,
      );
    }
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
