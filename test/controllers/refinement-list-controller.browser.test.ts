import { expect } from '@open-wc/testing';
import { RefinementListController } from '../../src/controllers/refinement-list-controller.js';
import { compareBy } from '../../src/controllers/value-sort.js';
import type { InsightsLike } from '../../src/insights/types.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('RefinementListController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_refinement');
  });

  it('lists values with counts, refines (OR), reports Filter Applied, searches values, shows more', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const applied: string[][] = [];
    // A plain object is enough to receive what the controller reports.
    const insights: InsightsLike = {
      observe() {},
      unobserve() {},
      convert() {},
      filterApplied: (...args) => void applied.push(args.map(String)),
    };
    const brands = new RefinementListController(host, { store, insights });
    Object.assign(brands, { attribute: 'brand', limit: 2, showMore: true, showMoreLimit: 3 });
    host.connect();
    await settled(store);
    expect(JSON.stringify(store.requestLog[0].body)).to.contain('brand');
    expect(brands.items.map((item) => `${item.label}:${item.count}`)).to.deep.equal(['Apple:6', 'Dell:6']);
    expect(brands.canToggleShowMore).to.be.true;
    brands.toggleShowMore();
    expect(brands.items).to.have.length(3);

    expect(brands.refine('Sony')).to.be.true;
    await settled(store);
    expect(applied).to.have.length(1);
    expect(applied[0].slice(0, 3)).to.deep.equal([indexName, 'brand', 'Sony']);
    expect(brands.items[0]).to.deep.include({ value: 'Sony', isRefined: true });
    expect(brands.refine('Sony')).to.be.false;
    expect(applied).to.have.length(1);
    await settled(store);

    await brands.searchForItems('sam');
    expect(brands.isFromSearch).to.be.true;
    expect(brands.items.map((item) => item.value)).to.deep.equal(['Samsung']);
    expect(brands.items[0].highlighted).to.be.a('string');
    brands.refine('Samsung');
    expect(brands.facetQuery).to.equal('');
    await settled(store);
    expect(store.getSnapshot().state.disjunctiveFacetRefinements.brand).to.deep.equal(['Samsung']);
    host.disconnect();
    store.dispose();
  });

  it('sorts by the given criteria and rejects unknown ones clearly', () => {
    const items = [
      { value: 'b', label: 'b', count: 1, isRefined: false },
      { value: 'a', label: 'a', count: 1, isRefined: false },
      { value: 'c', label: 'c', count: 5, isRefined: true },
    ];
    expect([...items].sort(compareBy(['count:asc', 'name:asc'])).map((i) => i.value)).to.deep.equal(['a', 'b', 'c']);
    expect([...items].sort(compareBy(['isRefined', 'name:desc'])).map((i) => i.value)).to.deep.equal(['c', 'b', 'a']);
    expect(() => compareBy(['alpha'])).to.throw(/unknown sort criterion "alpha"/);
  });
});
