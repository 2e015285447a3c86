import { expect } from '@open-wc/testing';
import { NumericMenuController, parseNumericRange } from '../../src/controllers/numeric-menu-controller.js';
import { settled } from '../elements/search-fixture.js';
import { countOf, createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('NumericMenuController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_numeric');
  });

  it('reads ranges, refines one at a time, counts each range with showCounts', async () => {
    expect(parseNumericRange(':10')).to.deep.equal({ end: 10 });
    expect(parseNumericRange(' 10 : 100 ')).to.deep.equal({ start: 10, end: 100 });
    expect(parseNumericRange('')).to.deep.equal({});
    expect(parseNumericRange('100:10')).to.equal(undefined);
    expect(parseNumericRange('a:b')).to.equal(undefined);
    const store = storeFor(indexName);
    const host = new PlainHost();
    const menu = new NumericMenuController(host, { store });
    menu.attribute = 'price';
    menu.items = [{ label: 'All' }, { label: 'Cheap', end: 50 }, { label: 'Dear', start: 50 }];
    menu.showCounts = true;
    host.connect();
    await settled(store);
    expect(menu.entries.map((entry) => [entry.isRefined, entry.count])).to.deep.equal([
      [true, 48],
      [false, countOf((p) => p.price <= 50)],
      [false, countOf((p) => p.price >= 50)],
    ]);
    expect(menu.refine(2)).to.be.true;
    // The store tells its listeners at once that a search is due (with the new state): already in effect.
    expect(menu.refine(2), 'already in effect').to.be.false;
    await settled(store);
    await host.updateComplete;
    expect(menu.refine(2)).to.be.false;
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.price >= 50));
    expect(menu.entries.map((entry) => entry.isRefined)).to.deep.equal([false, false, true]);
    store.dispose();
  });
});
