import { expect } from '@open-wc/testing';
import { ClearRefinementsController } from '../../src/controllers/clear-refinements-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('ClearRefinementsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_clear', undefined, { attributesForFaceting: ['brand', 'category', 'price'] });
  });

  it('clears in one request, keeps the query by default, and honours included/excluded attributes', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const clearing = new ClearRefinementsController(host, { store });
    host.connect();
    await settled(store);
    expect(clearing.canClear).to.be.false;
    expect(clearing.clear()).to.deep.equal([]);

    store.setQuery('model');
    store.toggleRefinement('brand', 'Dell', 'or');
    store.toggleRefinement('category', 'Headphones', 'and');
    store.toggleTag('unused-tag');
    await settled(store);
    expect(clearing.attributesToClear).to.deep.equal(['brand', 'category', '_tags']);

    clearing.includedAttributes = ['category'];
    expect(clearing.clear()).to.deep.equal(['category']);
    await settled(store);
    expect(store.isRefined('brand', 'Dell')).to.be.true;

    clearing.includedAttributes = undefined;
    clearing.excludedAttributes = [];
    const sent = store.requestLog.length;
    expect(clearing.clear()).to.deep.equal(['brand', '_tags', 'query']);
    await settled(store);
    // One search for three changes (answered from the store's cache: the same state was searched first).
    expect(store.requestLog.slice(sent).filter((entry) => entry.kind === 'search')).to.have.length(1);
    const { state, results } = store.getSnapshot();
    expect(state.query).to.equal('');
    expect(state.tagRefinements).to.deep.equal([]);
    expect(results!.nbHits).to.equal(36);
    expect(clearing.canClear).to.be.false;
    host.disconnect();
    store.dispose();
  });
});
