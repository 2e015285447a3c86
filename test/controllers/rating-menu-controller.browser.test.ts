import { expect } from '@open-wc/testing';
import { RatingMenuController } from '../../src/controllers/rating-menu-controller.js';
import { settled } from '../elements/search-fixture.js';
import { countOf, createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('RatingMenuController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_rating');
  });

  it('counts each choice from the facet values, refines and removes, createURL', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const rating = new RatingMenuController(host, { store });
    rating.attribute = 'rating';
    host.connect();
    await settled(store);
    expect(rating.items.map((item) => [item.stars, item.count])).to.deep.equal(
      [4, 3, 2, 1].map((stars) => [stars, countOf((p) => p.rating >= stars)]),
    );
    expect(rating.createURL(3)).to.equal('?numeric[rating]=%3E%3D3&numeric[rating]=%3C%3D5');
    expect(rating.refine(3)).to.be.true;
    await settled(store);
    expect(rating.refined).to.equal(3);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.rating >= 3));
    expect(rating.items[1]!.isRefined).to.be.true;
    expect(rating.refine(3)).to.be.false;
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
    store.dispose();
  });
});
