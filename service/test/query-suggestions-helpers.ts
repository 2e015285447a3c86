/**
 * Shared setup of the Query Suggestions suites (`http-query-suggestions*.node.test.ts`): the shop, its
 * recorded searches (the scenario whose suggestions the suites work out by hand), the configuration most
 * tests start from, and callers of the configuration, status, log and records endpoints.
 */
import assert from 'node:assert/strict';
import { index, type Running, SEARCH_KEY } from './service-helpers.js';

/**
 * The shop. Searchable: name, brand, category. Facets: brand, category, color. Its replica
 * `shop_newest` mirrors the records.
 */
const RECORDS = [
  { objectID: '1', name: 'Oak chair', brand: 'Hon', category: 'Chairs', color: 'Brown' },
  { objectID: '2', name: 'Office chair', brand: 'Hon', category: 'Chairs', color: 'Black' },
  { objectID: '3', name: 'Garden chair', brand: 'Acme', category: 'Chairs', color: 'Green' },
  { objectID: '4', name: 'Chair cushion', brand: 'Acme', category: 'Cushions', color: 'Green' },
  { objectID: '5', name: 'Desk lamp', brand: 'Tensor', category: 'Lamps', color: 'Black' },
  { objectID: '6', name: 'Floor lamp', brand: 'Tensor', category: 'Lamps', color: 'White' },
  { objectID: '7', name: 'Standing desk', brand: 'Hon', category: 'Desks', color: 'White' },
  { objectID: '8', name: 'Cheap desk', brand: 'Acme', category: 'Desks', color: 'Brown' },
];
const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category', 'color'],
  replicas: ['shop_newest'],
};

export const FACETS = [
  { attribute: 'brand', amount: 1 },
  { attribute: 'color', amount: 2 },
];
/** The configuration most tests start from. */
export const BASE = {
  indexName: 'shop_qs',
  sourceIndices: [{ indexName: 'shop', minHits: 1, minLetters: 3, facets: FACETS, generate: [['brand', 'category']] }],
  languages: ['en'],
  exclude: ['cheap'],
};

export interface Status {
  indexName: string;
  isRunning: boolean;
  lastBuiltAt: string | null;
}

interface LogLine {
  timestamp: string;
  level: 'INFO' | 'SKIP' | 'ERROR';
  message: string;
  contextLevel: number;
}

/**
 * The Query Suggestions calls of the suites on the service `running()` gives (read at call time: the suites
 * start it in `before`, and restart it).
 *
 * @example
 * const { built, records, suggestions, configure, recordScenario } = querySuggestionCalls(() => svc);
 */
export function querySuggestionCalls(running: () => Running) {
  let user = 0;

  /** One search by a new user (a user of its own: no keystroke series across the scenario's searches). */
  async function search(indexName: string, params: Record<string, unknown>, userToken = `user-${++user}`) {
    const answer = await running().call('POST', `/1/indexes/${indexName}/query`, params, {
      key: SEARCH_KEY,
      headers: { 'X-Service-UserToken': userToken },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  }

  /** Waits until the configuration's build has ended (after `since`, an earlier lastBuiltAt). */
  async function built(indexName: string, since: string | null = null): Promise<Status> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const status = (await running().ok('GET', `/1/configs/${indexName}/status`)) as Status;
      if (!status.isRunning && status.lastBuiltAt !== null && status.lastBuiltAt !== since) return status;
      if (Date.now() > deadline) throw new Error(`${indexName} was not built: ${JSON.stringify(status)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Rebuilds now through the service's own endpoint (answers when the build has ended). */
  async function rebuild(indexName: string): Promise<Status> {
    return (await running().ok('POST', `/1/_local/configs/${indexName}/build`)) as Status;
  }

  /** Every record of an index, by objectID (as stored: without the answer's `_highlightResult`). */
  async function records(indexName: string): Promise<Map<string, Record<string, any>>> {
    const out = new Map<string, Record<string, any>>();
    let cursor: string | undefined;
    do {
      const answer = await running().ok(
        'POST',
        `/1/indexes/${indexName}/browse`,
        cursor === undefined ? { hitsPerPage: 1000 } : { cursor },
      );
      for (const { _highlightResult, ...record } of answer.hits as Array<Record<string, any>>)
        out.set(record.objectID, record);
      cursor = answer.cursor;
    } while (cursor !== undefined);
    return out;
  }

  /** The suggestions, most popular first (ties by query), as `query:popularity`. */
  async function suggestions(indexName: string): Promise<string[]> {
    return [...(await records(indexName)).values()]
      .sort((a, b) => b.popularity - a.popularity || (a.query < b.query ? -1 : 1))
      .map((record) => `${record.query}:${record.popularity}`);
  }

  async function buildLog(indexName: string): Promise<LogLine[]> {
    const answer = await running().call('GET', `/1/logs/${indexName}`);
    assert.equal(answer.status, 200, String(answer.body));
    assert.match(answer.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    assert.ok(text.endsWith('\n'));
    return text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** Replaces the configuration and rebuilds it. */
  async function configure(config: Record<string, unknown>, indexName = 'shop_qs') {
    await running().ok('PUT', `/1/configs/${indexName}`, config);
    await rebuild(indexName);
  }

  /**
   * Indexes the shop and records the scenario's searches (popular searches of the last 30 days, each by a
   * user of its own unless said).
   */
  async function recordScenario() {
    await index(running(), 'shop', RECORDS, SETTINGS);
    for (let i = 0; i < 2; i++) await search('shop', { query: 'chair', facetFilters: ['brand:Hon'] });
    await search('shop', { query: 'chair', facetFilters: ['brand:Acme'] });
    await search('shop', { query: 'chair' });
    await search('shop', { query: 'Chair' }); // same suggestion as "chair": 5 searches
    for (let i = 0; i < 2; i++) await search('shop', { query: 'chairs' });
    await search('shop', { query: 'lamp', facetFilters: ['brand:Tensor'] });
    for (let i = 0; i < 2; i++) await search('shop', { query: 'lamp' });
    // One user typing: l, la, lam, lamp within 5 s count as one search of "lamp" (4 in all).
    for (const query of ['l', 'la', 'lam', 'lamp']) await search('shop', { query }, 'typist');
    for (let i = 0; i < 2; i++) await search('shop', { query: 'desk' });
    for (let i = 0; i < 2; i++) await search('shop', { query: 'cheap desk' });
    for (let i = 0; i < 2; i++) await search('shop', { query: 'xyz' });
    await search('shop', { query: 'ch' });
    await search('shop', { query: '' });
    await search('shop', { query: 'cushion', analyticsTags: ['mobile'] });
    // On the replica: "oak" once, "desk" once.
    await search('shop_newest', { query: 'oak' });
    await search('shop_newest', { query: 'desk' });
    // Not recorded: analytics false.
    await search('shop', { query: 'table', analytics: false });
  }

  return { search, built, rebuild, records, suggestions, buildLog, configure, recordScenario };
}
