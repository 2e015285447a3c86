import { expect } from '@open-wc/testing';
import { MenuController } from '../../src/controllers/menu-controller.js';
import type { InsightsLike } from '../../src/insights/types.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('MenuController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_menu');
  });

  it('lists the values, selects one at a time with every count kept, clears, and reports turning on to insights', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const applied: string[][] = [];
    const insights: InsightsLike = {
      observe() {},
      unobserve() {},
      convert() {},
      filterApplied: (index, attribute, value, queryID) =>
        void applied.push([index, attribute, value, String(Boolean(queryID))]),
    };
    const controller = new MenuController(host, { store, insights });
    controller.attribute = 'brand';
    controller.limit = 3;
    host.connect();
    await settled(store);
    expect(controller.items.map((item) => `${item.label}:${item.count}`)).to.deep.equal([
      'Apple:6',
      'Dell:6',
      'Google:6',
    ]);
    expect(controller.canToggleShowMore).to.be.false; // show more off

    expect(controller.refine('Sony')).to.be.true;
    await settled(store);
    expect(controller.selected).to.equal('Sony');
    expect(controller.items[0]).to.deep.equal({ value: 'Sony', label: 'Sony', count: 6, isRefined: true });
    expect(controller.allItems.map((item) => item.count)).to.deep.equal([6, 6, 6, 6]); // 3 fetched (limit) + the selected one
    // The store asked the facet without its own refinement.
    const sent = (store.requestLog.at(-1)!.body as { requests: Array<{ params: { facetFilters?: unknown } }> })
      .requests;
    expect(sent).to.have.length(2);
    expect(sent[1]!.params.facetFilters).to.be.undefined;

    expect(controller.refine('Dell')).to.be.true;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Dell'] });
    expect(controller.refine('Dell')).to.be.false;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({});
    await settled(store);
    expect(applied).to.deep.equal([
      [indexName, 'brand', 'Sony', 'false'], // no clickAnalytics in this store: no queryID
      [indexName, 'brand', 'Dell', 'false'],
    ]);

    // Several values refined (a URL made by another element): pressing one keeps it alone.
    store.setState({ disjunctiveFacetRefinements: { brand: ['Apple', 'Dell'] } });
    expect(controller.refine('Dell')).to.be.true;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Dell'] });
    expect(applied).to.have.length(2, 'Dell was already on: no Filter Applied');

    controller.showMore = true;
    controller.showMoreLimit = 5;
    host.requestUpdate();
    await host.updateComplete;
    await settled(store);
    controller.toggleShowMore();
    expect(controller.items).to.have.length(5);
    host.disconnect();
    store.dispose();
  });
});
