import { expect } from '@open-wc/testing';
import { HitsController } from '../../src/controllers/hits-controller.js';
import { HIGHLIGHT_PRE_TAG } from '../../src/controllers/highlight-tags.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('HitsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_hits');
  });

  it('gives the hits with absolute positions, asks for safe highlight tags, and stops on disconnect', async () => {
    const store = storeFor(indexName, { hitsPerPage: 5, page: 2, query: 'model' });
    const host = new PlainHost();
    const controller = new HitsController(host, { store });
    controller.attributesToSnippet = ['description:3'];
    host.connect();
    await settled(store);
    expect(controller.items.map((item) => item.ref.position)).to.deep.equal([11, 12, 13, 14, 15]);
    expect(controller.items[0].ref).to.deep.include({ objectID: 'p10', indexName });
    expect(controller.isEmpty).to.be.false;
    expect(controller.query).to.equal('model');
    const sent = JSON.stringify(store.requestLog[0].body);
    expect(sent).to.contain(HIGHLIGHT_PRE_TAG);
    expect(sent).to.contain('description:3');
    expect((controller.hits[0]._highlightResult!.name as { value: string }).value).to.contain(HIGHLIGHT_PRE_TAG);

    store.setQuery('nothing-matches-this');
    await settled(store);
    expect(controller.isEmpty).to.be.true;
    expect(controller.items).to.deep.equal([]);

    host.disconnect();
    const updates = host.updates;
    store.setQuery('model');
    await settled(store);
    expect(host.updates).to.equal(updates);
    expect(controller.snapshot).to.be.undefined;
    store.dispose();
  });

  it('picks up a store given later through a function', async () => {
    let current: ReturnType<typeof storeFor> | undefined;
    const host = new PlainHost();
    const controller = new HitsController(host, { store: () => current });
    host.connect();
    expect(controller.hits).to.deep.equal([]);
    current = storeFor(indexName);
    host.requestUpdate();
    await host.updateComplete;
    await settled(current);
    expect(controller.hits).to.have.length(20);
    host.disconnect();
    current.dispose();
  });
});
