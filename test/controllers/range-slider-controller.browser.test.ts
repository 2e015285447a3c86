import { expect } from '@open-wc/testing';
import { RangeSliderController } from '../../src/controllers/range-slider-controller.js';
import { settled } from '../elements/search-fixture.js';
import { createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('RangeSliderController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_slider');
  });

  it('moves the thumbs by steps, never crossing, and commits the range (open at a bound)', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const slider = new RangeSliderController(host, { store });
    slider.attribute = 'price';
    slider.stepOverride = 10;
    host.connect();
    await settled(store);
    expect(slider.range).to.deep.equal({ min: 4, max: 216 });
    expect(slider.values).to.deep.equal({ min: 4, max: 216 });
    slider.nudge('min', 2);
    expect(slider.values.min).to.equal(24);
    slider.moveTo('max', 3);
    expect(slider.values.max, 'not below the lower thumb').to.equal(24);
    slider.moveToRatio('max', 0.5);
    expect(slider.values.max).to.equal(114);
    expect(slider.nearest(0.9)).to.equal('max');
    expect(store.getSnapshot().state.numericRefinements, 'nothing sent before commit').to.deep.equal({});
    expect(slider.commit()).to.deep.equal({ min: 24, max: 114 });
    await settled(store);
    expect(slider.value).to.deep.equal({ min: 24, max: 114 });
    slider.moveToEnd('min', 'min');
    slider.moveToEnd('max', 'max');
    slider.commit();
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
    await settled(store);
    slider.nudge('min', 1);
    slider.cancel();
    expect(slider.values.min).to.equal(4);
    store.dispose();
  });
});
