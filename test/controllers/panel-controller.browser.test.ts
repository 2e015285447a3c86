import { expect } from '@open-wc/testing';
import { PanelController, refinableIn } from '../../src/controllers/panel-controller.js';
import { settled } from '../elements/search-fixture.js';
import { createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('PanelController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_panel');
  });

  it('toggles collapsed and reads its content’s canRefine after each answer', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const content = Object.assign(document.createElement('div'), {
      canRefine: true,
      updateComplete: Promise.resolve(true),
    });
    const wrapper = document.createElement('section');
    wrapper.append(content);
    expect(refinableIn([wrapper])).to.equal(content);
    const panel = new PanelController(host, { store }, () => [wrapper]);
    host.connect();
    await settled(store);
    expect(panel.canRefine).to.be.true;
    content.canRefine = false;
    store.setQuery('x');
    await settled(store);
    await host.updateComplete;
    expect(panel.canRefine).to.be.false;
    expect(panel.toggle()).to.be.true;
    expect(panel.collapsed).to.be.true;
    expect(panel.toggle(false)).to.be.false;
    store.dispose();
  });
});
