/**
 * <svc-query-rule-custom-data> in real Chromium against the real service: the `userData` of the rules applied
 * (a banner for one query, two rules' items in order), rendered through a `<template>`, `renderItem` or the
 * default banner; nothing when no rule applies; transformItems; hostile values as text; axe; translations.
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import type { SvcQueryRuleCustomData } from '../../src/elements/query-rule-custom-data/svc-query-rule-custom-data.js';
import '../../src/elements/query-rule-custom-data/define.js';
import { admin, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { createShopIndex } from './shop-fixture.js';

async function saveRule(indexName: string, objectID: string, rule: Record<string, unknown>) {
  const { taskID } = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/rules/${objectID}`, rule);
  await waitUntil(
    async () =>
      (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status === 'published',
  );
}

const items = (element: SvcQueryRuleCustomData) =>
  [...shadow(element).querySelectorAll('[part~="item"]')].map((item) => item.textContent!.replace(/\s+/g, ' ').trim());

describe('<svc-query-rule-custom-data>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_custom_data');
    await saveRule(indexName, 'chairs-banner', {
      conditions: [{ pattern: 'chairs', anchoring: 'is' }],
      consequence: { userData: { title: 'Sit well', text: 'Every chair we sell.', link: '/chairs' } },
    });
    await saveRule(indexName, 'hostile', {
      conditions: [{ pattern: 'evil', anchoring: 'contains' }],
      consequence: {
        userData: {
          title: '<img src=x onerror="window.__svcPwned=1">',
          text: '<script>window.__svcPwned=2</script>',
          link: 'javascript:window.__svcPwned=3',
        },
      },
    });
    await saveRule(indexName, 'evil-second', {
      conditions: [{ pattern: 'evil', anchoring: 'contains' }],
      consequence: { userData: { title: 'Second', link: 'https://example.com/sale' } },
    });
  });

  async function setup(content = html`<svc-query-rule-custom-data></svc-query-rule-custom-data>`) {
    const root = await searchFixture(indexName, content);
    const element = root.querySelector('svc-query-rule-custom-data')!;
    return { root, element, store: root.store! };
  }

  it('shows nothing while no rule applies, the banner of the rule for its query, and nothing again after', async () => {
    const { element, store } = await setup();
    expect(items(element)).to.deep.equal([]);
    expect(getComputedStyle(shadow(element).querySelector('[part~="items"]')!).display).to.equal('none');
    store.setQuery('chairs');
    await settled(store);
    await element.updateComplete;
    expect(items(element)).to.deep.equal(['Sit well Every chair we sell. Learn more']);
    expect(shadow(element).querySelector('a')!.getAttribute('href')).to.equal('/chairs');
    await expect(element).to.be.accessible();
    store.setQuery('chair');
    await settled(store);
    await element.updateComplete;
    expect(items(element)).to.deep.equal([]);
  });

  it('renders each item through the <template> child, in the order of the rules; hostile values as text only', async () => {
    const { root, element, store } = await setup(
      html`<svc-query-rule-custom-data>
        <template><a data-href="link"><strong data-text="title"></strong></a> <span data-text="text"></span></template>
      </svc-query-rule-custom-data>`,
    );
    store.setQuery('evil');
    await settled(store);
    await element.updateComplete;
    expect(items(element)).to.deep.equal([
      '<img src=x onerror="window.__svcPwned=1"> <script>window.__svcPwned=2</script>',
      'Second',
    ]);
    const links = [...shadow(element).querySelectorAll('a')];
    expect(links[0]!.hasAttribute('href'), 'a javascript: link is not set').to.be.false;
    expect(links[1]!.getAttribute('href')).to.equal('https://example.com/sale');
    expect(deepQueryAll(root, 'img, script')).to.have.length(0);
    expect((window as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });

  it('renderItem and transformItems (properties); the default link is translated', async () => {
    const { element, store } = await setup();
    element.translations = { link: 'Voir' };
    store.setQuery('chairs');
    await settled(store);
    await element.updateComplete;
    expect(items(element)).to.deep.equal(['Sit well Every chair we sell. Voir']);
    element.transformItems = (list) => list.map((item) => ({ ...item, title: String(item.title).toUpperCase() }));
    element.renderItem = (item) => `★ ${item.title}`;
    await element.updateComplete;
    expect(items(element)).to.deep.equal(['★ SIT WELL']);
    expect(element.items).to.deep.equal([{ title: 'SIT WELL', text: 'Every chair we sell.', link: '/chairs' }]);
  });
});
