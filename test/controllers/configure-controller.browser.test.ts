import { expect } from '@open-wc/testing';
import { ConfigureController } from '../../src/controllers/configure-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('ConfigureController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_configure', undefined, { attributesForFaceting: ['brand', 'category'] });
  });

  it('adds parameters to every search, replaces them, and searches again when they go', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const configure = new ConfigureController(host, { store });
    // What shows the results (the store searches while someone listens; the configure controller leaves below).
    const unsubscribe = store.subscribe(() => {});
    configure.params = { filters: 'category:Phones', hitsPerPage: 4 };
    host.connect();
    await settled(store);
    expect(store.getSnapshot().results).to.include({ nbHits: 12, hitsPerPage: 4 });

    configure.params = { filters: 'brand:Dell' };
    configure.apply();
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);

    configure.params = {};
    configure.apply();
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(36);

    configure.params = { filters: 'brand:Dell' };
    configure.apply();
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    host.disconnect();
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
    unsubscribe();
    store.dispose();
  });
});
