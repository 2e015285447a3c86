import { expect } from '@open-wc/testing';
import { ToggleRefinementController } from '../../src/controllers/toggle-refinement-controller.js';
import { settled } from '../elements/search-fixture.js';
import { countOf, createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('ToggleRefinementController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_toggle');
  });

  it('counts the hits it gives, toggles on and off (with an off value refined by default)', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const toggle = new ToggleRefinementController(host, { store });
    Object.assign(toggle, { attribute: 'sameDayShipping', on: 'true', off: 'false' });
    host.connect();
    expect(store.getSnapshot().state.disjunctiveFacetRefinements, 'off at once').to.deep.equal({
      sameDayShipping: ['false'],
    });
    await settled(store);
    expect(toggle.isRefined).to.be.false;
    expect(toggle.count).to.equal(countOf((p) => p.sameDayShipping));
    expect(toggle.toggle()).to.be.true;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ sameDayShipping: ['true'] });
    await settled(store);
    expect(toggle.isRefined).to.be.true;
    expect(toggle.count).to.equal(countOf((p) => p.sameDayShipping));
    expect(toggle.toggle(false)).to.be.false;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ sameDayShipping: ['false'] });
    store.dispose();
  });
});
