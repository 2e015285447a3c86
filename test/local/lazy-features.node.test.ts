/**
 * What the worker of `svc-search/local` loads only when needed — the settings validation (`settings-validation.ts`),
 * the filters (`filters.ts`, `filter-bits.ts`), synonyms, the standard language tables, geo search (`geo.ts`), browsing (`browse.ts`), the hits' ranking info,
 * personalisation, the search path's speed-ups of large indices — and what it validates. This file runs in a process of its own that
 * imports only what the worker imports, so whether a part was loaded is observable: a file's settings and rules
 * (validated by the service, the file checked by `decodeBundle`) and valid queries never load the validation; search
 * parameters are still refused with the service's messages (the protocol's table: types, ranges, enumerations,
 * entry formats); `renderingContent` given with a query and settings given in code load it and are validated as the
 * service validates them; geo search loads with the first request that gives a geo area, synonyms with a file that
 * has some, the filters with the first request that gives a filter (a bad one refused with the filter language's
 * message; a file whose rules filter loads them too: `lazy-filter-rules.node.test.ts`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBundle, encodeBundle, type IndexBundle } from '../../src/engine/bundle.js';
import { LARGE_INDEX_AT, optionalFeature, WARM_UP_AT } from '../../src/engine/features.js';
import { warmUpRuns } from '../../src/engine/warm-up.js';
import { LocalEngine, type LocalQuery } from '../../src/local/engine-host.js';

function validationLoaded(): boolean {
  return optionalFeature('settingsValidation') !== undefined;
}

const RECORDS = [
  {
    objectID: '1',
    name: 'Oak chair',
    brand: 'Acme',
    description: 'a sturdy chair of oak for the kitchen table',
    _geoloc: { lat: 48.8566, lng: 2.3522 },
  },
  {
    objectID: '2',
    name: 'Pine table',
    brand: 'Bolt',
    description: 'a pine table with four legs and a drawer',
    _geoloc: { lat: 45.764, lng: 4.8357 },
  },
  { objectID: '3', name: 'Desk chair', brand: 'Acme', description: 'an office chair that turns and rolls' },
];

/** A rule whose consequence sets `renderingContent` (the service checked it when it saved the rule). */
const RULE = {
  objectID: 'table-page',
  conditions: [{ pattern: 'table', anchoring: 'contains' }],
  consequence: { params: { renderingContent: { redirect: { url: '/tables' } } } },
};

function bundleOf(settings: Record<string, unknown>): IndexBundle {
  return {
    name: 'furniture',
    exportedAt: 0,
    indices: [{ name: 'furniture', settings, rules: [RULE as never], synonyms: [], records: RECORDS }],
  };
}

const SETTINGS = { searchableAttributes: ['name', 'description'], attributesForFaceting: ['brand'] };

/** The 400 a multi-query gets, after `prepare` (as the worker calls them). */
async function refusal(engine: LocalEngine, params: Record<string, unknown>): Promise<string> {
  const requests: LocalQuery[] = [{ indexName: 'furniture', params }];
  try {
    await engine.prepare('multiSearch', [requests]);
    engine.multiSearch(requests);
  } catch (error) {
    assert.equal((error as { status?: number }).status, 400, (error as Error).message);
    return (error as Error).message;
  }
  assert.fail(`${JSON.stringify(params)} was accepted`);
}

describe('the local engine’s validation', () => {
  const engine = new LocalEngine();

  it('applies a file’s settings and answers valid queries without loading the settings validation', async () => {
    await engine.load(await decodeBundle(await encodeBundle(bundleOf(SETTINGS))));
    const requests: LocalQuery[] = [
      {
        indexName: 'furniture',
        params: {
          query: 'chair',
          hitsPerPage: 5,
          queryType: 'prefixAll',
          removeWordsIfNoResults: 'lastWords',
          attributesToSnippet: ['description:4'],
          typoTolerance: 'min',
          facets: ['brand'],
        },
      },
    ];
    await engine.prepare('multiSearch', [requests]);
    const [answer] = engine.multiSearch(requests).results as Array<Record<string, any>>;
    assert.deepEqual(answer!.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['1', '3']);
    assert.equal(answer!.hitsPerPage, 5);
    assert.equal(answer!.hits[0]._snippetResult.description.value.split(' ').length <= 6, true);
    assert.deepEqual(answer!.facets, { brand: { Acme: 2 } });
    const table: LocalQuery[] = [{ indexName: 'furniture', params: { query: 'table' } }];
    await engine.prepare('multiSearch', [table]);
    assert.deepEqual(engine.multiSearch(table).results[0]!.renderingContent, { redirect: { url: '/tables' } });
    assert.equal(validationLoaded(), false);
    assert.equal(optionalFeature('geo'), undefined, 'no geo search without a geo area');
    assert.equal(optionalFeature('personalization'), undefined, 'no personalisation in the worker');
    assert.equal(optionalFeature('synonyms'), undefined, 'no synonyms code for a file without synonyms');
    assert.equal(optionalFeature('languageTables'), undefined, 'no language tables without removeStopWords');
    assert.equal(optionalFeature('filters'), undefined, 'no filters code for a file and requests without a filter');
  });

  it('loads the filters with the first request that gives one, and refuses a bad filter with its message', async () => {
    assert.equal(optionalFeature('filters'), undefined, 'no filters before a request gives one');
    assert.equal(
      await refusal(engine, { query: 'chair', filters: 'brand:Acme AND (' }),
      'filters: Unexpected end of input, expected a filter',
    );
    assert.notEqual(optionalFeature('filters'), undefined);
    const requests: LocalQuery[] = [
      { indexName: 'furniture', params: { query: 'chair', filters: 'NOT brand:Bolt', facetFilters: ['brand:-Bolt'] } },
      { indexName: 'furniture', params: { query: '', tagFilters: [], numericFilters: [] } },
      { indexName: 'furniture', params: { query: 'chair', optionalFilters: ['name:Desk'] } },
    ];
    await engine.prepare('multiSearch', [requests]);
    const [filtered, empty] = engine.multiSearch(requests).results as Array<{ hits: Array<{ objectID: string }> }>;
    assert.deepEqual(filtered!.hits.map((hit) => hit.objectID).sort(), ['1', '3']);
    assert.equal(empty!.hits.length, 3, 'empty filter lists keep every record');
    assert.equal(validationLoaded(), false);
  });

  it('loads the search path’s speed-ups with a file of LARGE_INDEX_AT records or more, not before', async () => {
    const fileOf = (count: number): IndexBundle => {
      const records = Array.from({ length: count }, (_, i) => ({ objectID: String(i), name: `chair ${i % 50}` }));
      return {
        name: 'sized',
        exportedAt: 0,
        indices: [{ name: 'sized', settings: { searchableAttributes: ['name'] }, rules: [], synonyms: [], records }],
      };
    };
    const below = new LocalEngine();
    await below.load(await decodeBundle(await encodeBundle(fileOf(LARGE_INDEX_AT - 1))));
    assert.equal(optionalFeature('largeIndex'), undefined, 'a file under the threshold');
    assert.equal(below.search('sized', { query: 'chair 7' }).nbHits, 200, 'one record in 50');
    const atThreshold = new LocalEngine();
    await atThreshold.load(await decodeBundle(await encodeBundle(fileOf(LARGE_INDEX_AT))));
    assert.notEqual(optionalFeature('largeIndex'), undefined, 'a file at the threshold');
    const firstHits = (engine: LocalEngine) =>
      (engine.search('sized', { query: 'chair 7', hitsPerPage: 50 }) as { hits: Array<{ objectID: string }> }).hits.map(
        (hit) => hit.objectID,
      );
    assert.deepEqual(firstHits(below), firstHits(atThreshold), 'the same first hits with the speed-ups');
    assert.equal(warmUpRuns(), 0, 'the warm-up waits for WARM_UP_AT records');
  });

  it('warms a large file’s index up without the settings validation (its own settings are valid)', async () => {
    const large = new LocalEngine();
    const records = Array.from({ length: WARM_UP_AT }, (_, i) => ({ objectID: String(i), name: `chair ${i}` }));
    const bundle: IndexBundle = {
      name: 'large',
      exportedAt: 0,
      indices: [{ name: 'large', settings: { searchableAttributes: ['name'] }, rules: [], synonyms: [], records }],
    };
    await large.load(await decodeBundle(await encodeBundle(bundle)));
    assert.equal(warmUpRuns(), 1);
    assert.equal(large.search('large', { query: 'chair 49999' }).nbHits, 1);
    assert.equal(validationLoaded(), false);
  });

  it('loads the standard stop words and plural rules with the first request that turns them on', async () => {
    const requests: LocalQuery[] = [
      { indexName: 'furniture', params: { query: 'the chairs', removeStopWords: true, ignorePlurals: true } },
    ];
    await engine.prepare('multiSearch', [requests]);
    assert.notEqual(optionalFeature('languageTables'), undefined);
    const [answer] = engine.multiSearch(requests).results as Array<{ hits: Array<{ objectID: string }> }>;
    assert.deepEqual(answer!.hits.map((hit) => hit.objectID).sort(), ['1', '3']);
  });

  it('loads synonyms with a file that has some', async () => {
    const bundle = bundleOf(SETTINGS);
    bundle.indices[0]!.synonyms = [{ objectID: 'seat', type: 'synonym', synonyms: ['seat', 'chair'] }];
    const withSynonyms = new LocalEngine();
    await withSynonyms.load(await decodeBundle(await encodeBundle(bundle)));
    assert.notEqual(optionalFeature('synonyms'), undefined);
    const hits = (withSynonyms.search('furniture', { query: 'seat' }) as { hits: Array<{ objectID: string }> }).hits;
    assert.deepEqual(hits.map((hit) => hit.objectID).sort(), ['1', '3']);
  });

  it('loads geo search with the first request that gives a geo area', async () => {
    const requests: LocalQuery[] = [
      { indexName: 'furniture', params: { query: '', aroundLatLng: '48.85, 2.35', aroundRadius: 10_000 } },
    ];
    assert.equal(optionalFeature('geo'), undefined);
    await engine.prepare('multiSearch', [requests]);
    assert.notEqual(optionalFeature('geo'), undefined);
    const [answer] = engine.multiSearch(requests).results as Array<{ hits: Array<{ objectID: string }> }>;
    assert.deepEqual(
      answer!.hits.map((hit) => hit.objectID),
      ['1'],
    );
    assert.equal(validationLoaded(), false);
  });

  it('loads browsing with the first browse, and browses page by page with its cursor', async () => {
    assert.equal(optionalFeature('browse'), undefined, 'no browsing before a browse');
    await engine.prepare('browse', ['furniture', { hitsPerPage: 2 }]);
    assert.notEqual(optionalFeature('browse'), undefined);
    const first = engine.browse('furniture', { hitsPerPage: 2 }) as {
      hits: Array<{ objectID: string }>;
      cursor?: string;
    };
    assert.equal(first.hits.length, 2);
    assert.equal(typeof first.cursor, 'string');
    const next = engine.browse('furniture', { cursor: first.cursor }) as {
      hits: Array<{ objectID: string }>;
      cursor?: string;
    };
    assert.equal(next.cursor, undefined);
    assert.deepEqual([...first.hits, ...next.hits].map((hit) => hit.objectID).sort(), ['1', '2', '3']);
    assert.equal(validationLoaded(), false);
  });

  it('loads the ranking info with the first request that asks for it', async () => {
    const requests: LocalQuery[] = [{ indexName: 'furniture', params: 'query=chair&getRankingInfo=true' }];
    assert.equal(optionalFeature('rankingInfo'), undefined, 'no ranking info before a request asks for it');
    await engine.prepare('multiSearch', [requests]);
    assert.notEqual(optionalFeature('rankingInfo'), undefined);
    const [answer] = engine.multiSearch(requests).results as Array<{ hits: Array<{ _rankingInfo?: unknown }> }>;
    assert.equal(answer!.hits.length, 2);
    for (const hit of answer!.hits) assert.equal((hit._rankingInfo as { nbTypos: number }).nbTypos, 0);
    assert.equal(validationLoaded(), false);
  });

  it('refuses bad search parameters with the service’s messages, still without the settings validation', async () => {
    assert.equal(
      await refusal(engine, { queryType: 'prefixSome' }),
      `Invalid value for parameter "queryType": expected 'prefixLast', 'prefixAll' or 'prefixNone', got "prefixSome"`,
    );
    assert.equal(
      await refusal(engine, { removeWordsIfNoResults: 'most' }),
      `Invalid value for parameter "removeWordsIfNoResults": expected 'none', 'lastWords', 'firstWords' or 'allOptional', got "most"`,
    );
    assert.equal(
      await refusal(engine, { attributesToSnippet: ['description:four'] }),
      'Invalid value for parameter "attributesToSnippet": expected attribute or attribute:N entries, got ["description:four"]',
    );
    assert.equal(
      await refusal(engine, { hitsPerPage: 5000 }),
      'Invalid value for parameter "hitsPerPage": expected an integer between 0 and 1000, got 5000',
    );
    assert.equal(await refusal(engine, { hitPerPage: 5 }), 'Unknown parameter: hitPerPage');
    assert.equal(validationLoaded(), false);
  });

  it('loads the settings validation for renderingContent given with a query, and checks it as the service does', async () => {
    assert.equal(
      await refusal(engine, { renderingContent: { facetOrdering: { facets: { order: 'brand' } } } }),
      'Invalid value for parameter "renderingContent.facetOrdering.facets.order": expected an array of strings',
    );
    assert.equal(validationLoaded(), true);
    const requests: LocalQuery[] = [
      { indexName: 'furniture', params: { query: 'chair', renderingContent: { redirect: { url: '/chairs' } } } },
    ];
    await engine.prepare('multiSearch', [requests]);
    assert.deepEqual(engine.multiSearch(requests).results[0]!.renderingContent, { redirect: { url: '/chairs' } });
  });

  it('validates settings given in code (not read from a file)', async () => {
    const fromCode = new LocalEngine();
    await assert.rejects(fromCode.load(bundleOf({ ...SETTINGS, hitsPerPage: 'ten' })), {
      status: 400,
      message: 'Invalid value for setting "hitsPerPage": expected an integer between 0 and 1000',
    });
    await fromCode.load(bundleOf({ ...SETTINGS, hitsPerPage: 2 }));
    assert.equal((fromCode.search('furniture', { query: '' }) as { hits: unknown[] }).hits.length, 2);
  });

  it('gives an index loaded before a file with custom dictionaries that file’s entries too', async () => {
    const local = new LocalEngine();
    await local.load(await decodeBundle(await encodeBundle(bundleOf(SETTINGS))));
    const query = { query: 'oak chair', removeStopWords: true, hitsPerPage: 5 };
    await local.prepare('search', ['furniture', query]);
    assert.equal(local.search('furniture', query).nbHits, 1, 'oak is not a standard stop word');
    const other = bundleOf(SETTINGS);
    other.name = 'other';
    other.indices[0]!.name = 'other';
    other.dictionaries = {
      stopwords: [{ objectID: 'oak', language: 'en', word: 'oak', state: 'enabled' }],
      plurals: [],
      compounds: [],
      disabledStandardStopwords: [],
    };
    await local.load(await decodeBundle(await encodeBundle(other)));
    // the custom stop word applies to both indices: the query is then 'chair', which two records hold
    assert.equal(local.search('furniture', query).nbHits, 2);
    assert.equal(local.search('other', query).nbHits, 2);
  });

  it('refuses custom dictionaries given in code without objectID and language', async () => {
    const bundle = bundleOf(SETTINGS);
    bundle.dictionaries = {
      stopwords: [{ word: 'oak' } as never],
      plurals: [],
      compounds: [],
      disabledStandardStopwords: [],
    };
    await assert.rejects(new LocalEngine().load(bundle), {
      status: 400,
      message: 'Invalid dictionaries.stopwords: expected entries with objectID and language',
    });
  });

  it('refuses a damaged file (gzip’s checksum) before trusting its settings', async () => {
    const bytes = await encodeBundle(bundleOf(SETTINGS));
    // a byte of the CRC-32 that ends the gzip stream (before its 4-byte length)
    bytes[bytes.length - 6]! ^= 0xff;
    await assert.rejects(decodeBundle(bytes));
  });
});
