/**
 * `svc-search/local` in Chromium with a file of `LARGE_INDEX_AT` records (10,000, exported by the test service with
 * the engine's structures, as `export` writes them from that size): the worker restores the index and loads the
 * search path's speed-ups for large indices (`src/engine/large-index.ts`, a chunk of its own), and answers as the
 * service for the queries those speed-ups serve — two common words (the words' positions kept while matching, the
 * proximity of two words), a rare word beside a common one (matched on the rare word's records' tokens), typos,
 * the custom order walked for the empty query, facets and later pages.
 */
import { expect } from '@open-wc/testing';
import { createClient } from '../../src/client/index.js';
import { LARGE_INDEX_AT } from '../../src/engine/features.js';
import { createLocalClient, type LocalClient } from '../../src/local/index.js';
import { APP_ID, createIndex, SEARCH_KEY } from '../elements/search-fixture.js';
import { comparable } from './fixture.js';

const service = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin], cache: false });

const WOODS = ['oak', 'pine', 'birch', 'walnut', 'maple', 'cherry', 'teak'];
const KINDS = ['chair', 'table', 'shelf', 'lamp', 'desk', 'stool', 'bench', 'cabinet', 'sofa', 'bed', 'mirror'];
const BRANDS = ['Acme', 'Bolt', 'Crest', 'Dune', 'Ember', 'Fjord'];

/** `LARGE_INDEX_AT` records: a few very common words, a rare series word in 20 records each, popularity ties. */
const RECORDS = Array.from({ length: LARGE_INDEX_AT }, (_, i) => ({
  objectID: `r${i}`,
  name: `${WOODS[i % WOODS.length]} ${KINDS[(i * 3) % KINDS.length]} series${i % 500} ${WOODS[(i * 5) % WOODS.length]}`,
  brand: BRANDS[(i * 7) % BRANDS.length],
  popularity: (i * 13) % 9,
}));

const SETTINGS = {
  searchableAttributes: ['name', 'brand'],
  attributesForFaceting: ['brand'],
  customRanking: ['desc(popularity)'],
};

const QUERIES = [
  { query: '', hitsPerPage: 30 },
  { query: 'oak chair', facets: ['brand'] },
  { query: 'chair oak', page: 3, hitsPerPage: 25 },
  { query: 'walnot chair', facets: ['brand'] },
  { query: 'series42 chair' },
  { query: 'series42 chiar', facets: ['brand'] },
  { query: 'pine walnut table' },
  { query: 'walnut', facetFilters: [['brand:Acme', 'brand:Dune']], page: 2 },
];

describe('svc-search/local with a file of LARGE_INDEX_AT records', () => {
  let indexName: string;
  let client: LocalClient;

  before(async () => {
    indexName = await createIndex('local_large', RECORDS, SETTINGS);
    client = createLocalClient({ indices: [`/__svcidx/${indexName}.svcidx?recommendations=0`] });
    expect((await client.ready).indices).to.deep.equal([indexName]);
  });
  after(() => client.terminate());

  for (const params of QUERIES) {
    it(`answers ${JSON.stringify(params)} as the service`, async () => {
      const [local, remote] = await Promise.all([
        client.multiSearch([{ indexName, params }]),
        service.multiSearch([{ indexName, params }]),
      ]);
      expect((remote.results[0] as { nbHits: number }).nbHits, 'the query finds something').to.be.greaterThan(0);
      expect(comparable(local.results[0] as never)).to.deep.equal(comparable(remote.results[0] as never));
    });
  }
});
