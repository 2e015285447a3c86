import { expect } from '@open-wc/testing';
import { SearchBoxController } from '../../src/controllers/search-box-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('SearchBoxController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_search_box');
  });

  it('reads and refines the query, goes back to page 1, and clears', async () => {
    const store = storeFor(indexName, { page: 3 });
    const host = new PlainHost();
    const box = new SearchBoxController(host, { store });
    host.connect();
    await settled(store);
    expect(box.query).to.equal('');
    box.refine('lenovo');
    await settled(store);
    expect(box.query).to.equal('lenovo');
    expect(store.getSnapshot().state.page).to.equal(0);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    const requests = store.requestLog.length;
    box.refine('lenovo'); // unchanged: no request
    await settled(store);
    expect(store.requestLog.length).to.equal(requests);
    box.clear();
    await settled(store);
    expect(box.query).to.equal('');
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
    host.disconnect();
    store.dispose();
  });
});
