import { expect } from '@open-wc/testing';
import {
  HierarchicalMenuController,
  refinedPath,
  refinePath,
} from '../../src/controllers/hierarchical-menu-controller.js';
import { settled } from '../elements/search-fixture.js';
import { countOf, createShopIndex, LEVELS } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('HierarchicalMenuController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_hmenu');
  });

  it('builds the tree of the refined path with counts per level; refine goes down and back up; createURL', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const menu = new HierarchicalMenuController(host, { store });
    menu.attributes = LEVELS;
    host.connect();
    await settled(store);
    expect(menu.items.map((item) => item.value)).to.deep.equal(['Furniture', 'Office Supplies', 'Technology']);
    expect(menu.canRefine).to.be.true;
    menu.refine('Technology > Copiers');
    expect(refinedPath(store.getSnapshot().state, LEVELS)).to.deep.equal({ value: 'Technology > Copiers', level: 1 });
    await settled(store);
    await host.updateComplete;
    const technology = menu.items.find((item) => item.value === 'Technology')!;
    expect(technology.isRefined).to.be.true;
    expect(technology.data!.map((item) => [item.label, item.count, item.isRefined])).to.deep.equal([
      ['Copiers', countOf((p) => p.hierarchicalCategories.lvl1 === 'Technology > Copiers'), true],
      ['Phones', countOf((p) => p.hierarchicalCategories.lvl1 === 'Technology > Phones'), false],
    ]);
    expect(menu.createURL('Technology > Copiers')).to.equal(`?facets[${encodeURIComponent(LEVELS[0]!)}]=Technology`);
    menu.refine('Technology > Copiers'); // the refined value: up to its parent
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Technology'] });
    refinePath(store, LEVELS, undefined);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
    store.dispose();
  });
});
