import { expect } from '@open-wc/testing';
import { InfiniteHitsController } from '../../src/controllers/infinite-hits-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('InfiniteHitsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_infinite');
  });

  it('accumulates consecutive pages with each page’s queryID and positions, and starts over on a new query', async () => {
    const store = storeFor(indexName, { hitsPerPage: 10, page: 1, query: 'model' });
    const host = new PlainHost();
    const controller = new InfiniteHitsController(host, { store });
    store.registerNeeds('insights', { params: { clickAnalytics: true } });
    host.connect();
    await settled(store);
    expect(controller.pages).to.deep.equal([1]);
    expect(controller.canShowPrevious).to.be.true;
    expect(controller.canShowMore).to.be.true;
    const firstQueryID = store.getSnapshot().results!.queryID;

    expect(controller.showMore()).to.equal(2);
    expect(controller.showMore()).to.equal(2); // asked again while it loads: the same page
    await settled(store);
    expect(controller.showPrevious()).to.equal(0);
    await settled(store);
    expect(controller.pages).to.deep.equal([0, 1, 2]);
    expect(controller.items.map((item) => item.ref.position)).to.deep.equal(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(controller.items[10]).to.deep.include({ page: 1, index: 0 });
    expect(controller.items[10]!.ref).to.deep.include({ objectID: 'p10', queryID: firstQueryID, indexName });
    expect(new Set(controller.items.map((item) => item.ref.queryID)).size).to.equal(3, 'one queryID per page');
    expect(controller.hits.map((hit) => hit.objectID).slice(19, 21)).to.deep.equal(['p19', 'p20']);

    expect(controller.showMore()).to.equal(3);
    await settled(store);
    expect(controller.canShowMore).to.be.false;
    expect(controller.showMore()).to.be.undefined;
    expect(controller.items).to.have.length(36);

    store.setQuery('dell');
    await settled(store);
    expect(controller.pages).to.deep.equal([0]);
    expect(controller.items.map((item) => item.ref.position)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(controller.canShowPrevious || controller.canShowMore).to.be.false;

    store.setQuery('qqqqxxxzzz');
    await settled(store);
    expect(controller.isEmpty).to.be.true;
    expect(controller.items).to.deep.equal([]);

    host.disconnect();
    store.dispose();
  });
});
