import { expect } from '@open-wc/testing';
import { BreadcrumbController } from '../../src/controllers/breadcrumb-controller.js';
import { settled } from '../elements/search-fixture.js';
import { createShopIndex, LEVELS } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('BreadcrumbController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_crumbs');
  });

  it('lists the levels of the refined path, goes back to one, and to the root', async () => {
    const store = storeFor(indexName, `facets[${LEVELS[1]}]=Office Supplies > Art`);
    const host = new PlainHost();
    const crumbs = new BreadcrumbController(host, { store });
    crumbs.attributes = LEVELS;
    host.connect();
    await settled(store);
    expect(crumbs.items).to.deep.equal([
      { label: 'Office Supplies', value: 'Office Supplies' },
      { label: 'Art', value: 'Office Supplies > Art' },
    ]);
    expect(crumbs.createURL(undefined)).to.equal('?');
    crumbs.refine('Office Supplies');
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Office Supplies'] });
    crumbs.rootPath = 'Office Supplies';
    await settled(store);
    expect(crumbs.items, 'the root path’s levels left out').to.deep.equal([]);
    expect(crumbs.canRefine).to.be.false;
    crumbs.refine(undefined);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
    store.dispose();
  });
});
