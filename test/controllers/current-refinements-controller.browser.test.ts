import { expect } from '@open-wc/testing';
import {
  CurrentRefinementsController,
  currentRefinements,
} from '../../src/controllers/current-refinements-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('CurrentRefinementsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_current', undefined, { attributesForFaceting: ['brand', 'category', 'price'] });
  });

  it('groups every kind of refinement by attribute', () => {
    expect(
      currentRefinements({
        indexName,
        query: 'phone',
        page: 0,
        facetRefinements: { category: ['Phones'] },
        disjunctiveFacetRefinements: { brand: ['Sony', 'Dell'] },
        numericRefinements: { price: [{ operator: '>=', value: 200 }] },
        tagRefinements: ['sale'],
        ruleContexts: [],
      }),
    ).to.deep.equal([
      {
        attribute: 'brand',
        refinements: [
          { attribute: 'brand', type: 'disjunctive', value: 'Sony' },
          { attribute: 'brand', type: 'disjunctive', value: 'Dell' },
        ],
      },
      { attribute: 'category', refinements: [{ attribute: 'category', type: 'facet', value: 'Phones' }] },
      { attribute: 'price', refinements: [{ attribute: 'price', type: 'numeric', operator: '>=', value: 200 }] },
      { attribute: '_tags', refinements: [{ attribute: '_tags', type: 'tag', value: 'sale' }] },
      { attribute: 'query', refinements: [{ attribute: 'query', type: 'query', value: 'phone' }] },
    ]);
  });

  it('lists and removes refinements against the real service, honouring included/excluded attributes', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const current = new CurrentRefinementsController(host, { store });
    host.connect();
    store.setQuery('model');
    store.toggleRefinement('brand', 'Sony', 'or');
    store.toggleRefinement('category', 'Phones', 'and');
    store.addNumericRefinement('price', '<', 300);
    await settled(store);
    expect(current.items.map((group) => group.attribute)).to.deep.equal(['brand', 'category', 'price']);
    expect(current.hasRefinements).to.be.true;
    expect(store.getSnapshot().results!.nbHits).to.equal(3); // Sony phones p3, p9, p15 under 300

    current.includedAttributes = ['brand'];
    expect(current.items.map((group) => group.attribute)).to.deep.equal(['brand']);
    current.includedAttributes = undefined;
    current.excludedAttributes = [];
    expect(current.items.map((group) => group.attribute)).to.deep.equal(['brand', 'category', 'price', 'query']);

    current.remove(current.items[2].refinements[0]); // price < 300
    current.remove(current.items[0].refinements[0]); // Sony
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(12); // every phone
    current.remove(current.items.at(-1)!.refinements[0]); // the query
    current.remove(current.items[0].refinements[0]); // Phones
    await settled(store);
    expect(current.items).to.deep.equal([]);
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
    host.disconnect();
    store.dispose();
  });
});
