import { expect } from '@open-wc/testing';
import { HitsPerPageController } from '../../src/controllers/hits-per-page-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('HitsPerPageController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_hpp');
  });

  it('registers the default size, changes it, and forgets it when the default is chosen again', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const size = new HitsPerPageController(host, { store });
    size.items = [{ value: 6 }, { value: 9, default: true }, { value: 18 }];
    host.connect();
    await settled(store);
    expect(size.defaultValue).to.equal(9);
    expect(size.current).to.equal(9);
    expect(store.getSnapshot().results!.hits).to.have.length(9);

    store.setPage(2);
    await settled(store);
    size.refine(18);
    await settled(store);
    expect(store.getSnapshot().state).to.include({ hitsPerPage: 18, page: 0 });
    expect(store.getSnapshot().results!.hits).to.have.length(18);

    size.refine(9);
    await settled(store);
    expect(store.getSnapshot().state.hitsPerPage).to.equal(undefined);
    expect(store.getSnapshot().results!.hits).to.have.length(9);
    host.disconnect();
    store.dispose();
  });

  it('refuses sizes that are not page sizes and a second default', () => {
    const size = new HitsPerPageController(new PlainHost(), {});
    expect(() => (size.items = [{ value: 0 }])).to.throw(TypeError, /0 is not a page size/);
    expect(() => (size.items = [{ value: 2.5 }])).to.throw(TypeError, /2\.5 is not a page size/);
    expect(
      () =>
        (size.items = [
          { value: 5, default: true },
          { value: 10, default: true },
        ]),
    ).to.throw(TypeError, /more than one item/);
    size.items = [{ value: 5 }];
    expect(() => size.refine(7)).to.throw(RangeError, /7 is not one of the sizes offered \(5\)/);
  });
});
