import { expect } from '@open-wc/testing';
import { DynamicWidgetsController } from '../../src/controllers/dynamic-widgets-controller.js';
import { orderValues } from '../../src/controllers/facet-ordering.js';
import type { SearchResults } from '../../src/store/types.js';
import { admin, settled } from '../elements/search-fixture.js';
import { createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('DynamicWidgetsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_dynamic');
    await admin.request('PUT', `/1/indexes/${indexName}/settings`, {
      renderingContent: { facetOrdering: { facets: { order: ['price', '*'] } } },
    });
  });

  it('orders the facets as the results ask (`*` for the others), at most maxFacets', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const dynamic = new DynamicWidgetsController(host, { store });
    dynamic.attributes = ['brand', 'rating', 'price'];
    expect(dynamic.attributesToRender, 'nothing before results').to.deep.equal([]);
    host.connect();
    await settled(store);
    expect(dynamic.attributesToRender).to.deep.equal(['price', 'brand', 'rating']);
    dynamic.maxFacets = 2;
    expect(dynamic.attributesToRender).to.deep.equal(['price', 'brand']);
    store.dispose();
  });

  it('orders the values: named first, the rest by count, alpha or hidden; never a refined value hidden', () => {
    const results = (values: object) =>
      ({ renderingContent: { facetOrdering: { values: { brand: values } } } }) as unknown as SearchResults;
    const items = [
      { value: 'Avery', label: 'Avery', count: 2, isRefined: false },
      { value: 'Hon', label: 'Hon', count: 9, isRefined: false },
      { value: 'Global', label: 'Global', count: 5, isRefined: true },
      { value: 'Xerox', label: 'Xerox', count: 7, isRefined: false },
    ];
    const order = (values: object) => orderValues(results(values), 'brand', items).map((item) => item.value);
    expect(order({ order: ['Xerox'], sortRemainingBy: 'count' })).to.deep.equal(['Xerox', 'Global', 'Hon', 'Avery']);
    expect(order({ sortRemainingBy: 'alpha', hide: ['Avery', 'Global'] })).to.deep.equal(['Global', 'Hon', 'Xerox']);
    expect(order({ order: ['Hon'], sortRemainingBy: 'hidden' })).to.deep.equal(['Hon', 'Global']);
    expect(orderValues(null, 'brand', items)).to.equal(items);
  });
});
