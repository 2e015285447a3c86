import { expect } from '@open-wc/testing';
import { RangeInputController, roundTo } from '../../src/controllers/range-input-controller.js';
import { PRODUCTS, createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('RangeInputController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_range', PRODUCTS, { attributesForFaceting: ['brand', 'price'] });
  });

  it('asks for the facet, gives its bounds, refines both sides in one request, bounds without its own range', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const price = new RangeInputController(host, { store });
    price.attribute = 'price';
    host.connect();
    await settled(store);
    expect(price.range).to.deep.equal({ min: 100, max: 450 });
    expect(price.value).to.deep.equal({ min: undefined, max: undefined });
    expect(price.isRefined).to.be.false;

    const sent = store.requestLog.length;
    expect(price.refine({ min: 200, max: 250 })).to.deep.equal({ min: 200, max: 250 });
    await settled(store);
    expect(store.requestLog.length).to.equal(sent + 1);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    expect(price.value).to.deep.equal({ min: 200, max: 250 });
    // The refined answer's hits are 200–250; the bounds are price's stats without its own range.
    expect(price.range).to.deep.equal({ min: 100, max: 450 });
    // Unchanged: nothing sent.
    expect(price.refine({ min: 200, max: 250 })).to.equal(undefined);
    expect(price.clear()).to.deep.equal({ min: undefined, max: undefined });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
    host.disconnect();
    store.dispose();
  });

  it('arriving with a range already refined (URL state): the bounds are those without it from the first answer', async () => {
    const store = storeFor(indexName, {
      numericRefinements: {
        price: [
          { operator: '>=', value: 200 },
          { operator: '<=', value: 250 },
        ],
      },
    });
    const host = new PlainHost();
    const price = new RangeInputController(host, { store });
    price.attribute = 'price';
    host.connect();
    await settled(store);
    expect(store.requestLog.length).to.equal(1);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    expect(price.value).to.deep.equal({ min: 200, max: 250 });
    expect(price.range).to.deep.equal({ min: 100, max: 450 });
    host.disconnect();
    store.dispose();
  });

  it('rounds to precision (bounds and refinements outward), keeps other operators, refuses bad ranges', async () => {
    const store = storeFor(indexName, { numericRefinements: { price: [{ operator: '!=', value: 150 }] } });
    const host = new PlainHost();
    const price = new RangeInputController(host, { store });
    price.attribute = 'price';
    price.precision = 1;
    price.min = 99.99;
    host.connect();
    await settled(store);
    expect(price.step).to.equal(0.1);
    expect(price.range).to.deep.equal({ min: 99.9, max: 450 });
    expect(price.refine({ min: 120.19, max: 130.01 })).to.deep.equal({ min: 120.1, max: 130.1 });
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([
      { operator: '!=', value: 150 },
      { operator: '>=', value: 120.1 },
      { operator: '<=', value: 130.1 },
    ]);
    expect(() => price.refine({ min: 3, max: 2 })).to.throw(RangeError, /greater than max/);
    expect(() => price.refine({ min: Number.NaN })).to.throw(RangeError, /min must be a finite number/);
    expect(() => (price.precision = 1.5)).to.throw(RangeError, /precision must be an integer from 0 to 20/);
    expect(roundTo(1.15, 2, 'floor')).to.equal(1.15);
    expect(roundTo(1.005, 2, 'ceil')).to.equal(1.01);
    host.disconnect();
    store.dispose();
  });
});
