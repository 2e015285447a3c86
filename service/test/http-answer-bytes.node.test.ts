/**
 * The body of a search over HTTP is, byte for byte, the engine's answer to the same parameters serialised
 * with `JSON.stringify` (only `processingTimeMS` differs): the HTTP path (rules, the key's parameters, the
 * settings it reads, Analytics, the call log, the response write) adds, drops and reorders nothing. The
 * queries are the engine-scale benchmark's three kinds — prefixes, one-typo pairs, faceted words — on its
 * Zipf corpus, as the admin key and as the search key, with and without `clickAnalytics`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { syntheticQueries, zipfProducts } from '../src/datasets/synthetic.js';
import { Index } from '../src/engine/index.js';
import { rawParams, toSearchParams } from '../src/search/key-params.js';
import { ADMIN_KEY, APP_ID, index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category', 'price'],
  customRanking: ['desc(popularity)'],
};
const products = zipfProducts({ count: 3000, seed: 42 });
const queries = syntheticQueries(products, { count: 15, seed: 7 });

let svc: Running;
const engine = new Index('scale');

/** The answer's text as it left the service. */
async function bodyText(params: string, key = ADMIN_KEY): Promise<string> {
  const response = await fetch(`${svc.url}/1/indexes/scale/query`, {
    method: 'POST',
    headers: {
      'X-Service-Application-Id': APP_ID,
      'X-Service-API-Key': key,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ params }),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=UTF-8');
  return response.text();
}

/** The engine's answer to the same `params` string, as the service would serialise it. */
function engineText(params: string): string {
  return JSON.stringify(engine.search(toSearchParams(rawParams({ params }))));
}

const withoutTime = (text: string) => text.replace(/"processingTimeMS":\d+/, '"processingTimeMS":0');

function paramsOf(query: string, faceted: boolean, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ query, hitsPerPage: '20', ...extra });
  if (faceted) params.set('facets', JSON.stringify(['brand', 'category']));
  return params.toString();
}

before(async () => {
  svc = await startService();
  const taskID = await index(svc, 'scale', products, SETTINGS);
  for (;;) {
    const task = await svc.ok('GET', `/1/indexes/scale/task/${taskID}`);
    if (task.status === 'published') break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  engine.setSettings(SETTINGS);
  engine.saveObjects(products);
});

after(async () => {
  await svc.stop();
});

describe('a search answer over HTTP is the engine answer, byte for byte', () => {
  const kinds = [
    ['prefix', queries.prefix, false],
    ['one-typo', queries.typo.map((t) => t.query), false],
    ['faceted', queries.faceted, true],
  ] as const;
  for (const [kind, list, faceted] of kinds) {
    test(`${kind} queries, admin key and search key`, async () => {
      let hits = 0;
      for (const query of list) {
        const params = paramsOf(query, faceted);
        const expected = engineText(params);
        hits += (JSON.parse(expected) as { nbHits: number }).nbHits;
        assert.equal(withoutTime(await bodyText(params)), withoutTime(expected), `admin key, ${params}`);
        assert.equal(withoutTime(await bodyText(params, SEARCH_KEY)), withoutTime(expected), `search key, ${params}`);
      }
      assert.ok(hits > 0, 'the queries find records');
    });
  }

  test('with clickAnalytics the answer only adds its queryID, at the end', async () => {
    const params = paramsOf(queries.prefix[0]!, true, { clickAnalytics: 'true' });
    const text = await bodyText(params);
    const match = /,"queryID":"([0-9a-f]{32})"}$/.exec(text);
    assert.ok(match, text.slice(-80));
    assert.equal(withoutTime(text.slice(0, match.index)), withoutTime(engineText(params).slice(0, -1)));
    // …and the search log holds it before the answer is sent.
    const logged = await svc.service.services.searchLog.get(match[1]!);
    assert.equal(logged?.query, queries.prefix[0]);
    assert.equal(logged?.objectIDs.length, (JSON.parse(text) as { hits: unknown[] }).hits.length);
  });
});
