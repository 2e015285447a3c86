/**
 * <svc-panel> in real Chromium against the real service: axe, header (attribute or slot) and footer, the
 * collapse button (aria-expanded, aria-controls, its name, keyboard, the event), marked `empty` — or hidden with
 * hide-when-empty — while its facet element has nothing to refine after a real search, translations, rtl.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcPanel } from '../../src/elements/panel/svc-panel.js';
import '../../src/elements/panel/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/range-slider/define.js';
import { searchFixture, settled, shadow } from './search-fixture.js';
import { createShopIndex } from './shop-fixture.js';

const toggle = (panel: SvcPanel) => shadow(panel).querySelector<HTMLButtonElement>('[part~="toggle"]')!;
const body = (panel: SvcPanel) => shadow(panel).querySelector<HTMLElement>('[part~="body"]')!;

describe('<svc-panel>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_panel');
  });

  async function setup(
    content = html`<svc-panel header="Brand" collapsible>
    <svc-refinement-list attribute="brand"></svc-refinement-list>
    <span slot="footer">Brands of the results</span>
  </svc-panel>`,
  ) {
    const root = await searchFixture(indexName, content);
    const panel = root.querySelector('svc-panel')!;
    await panel.updateComplete;
    return { root, panel, store: root.store! };
  }

  it('is accessible: header, body and footer; the collapse button names the panel and controls the body', async () => {
    const { panel } = await setup();
    await expect(panel).to.be.accessible();
    expect(shadow(panel).querySelector('slot[name="header"]')!.textContent).to.equal('Brand');
    const footer = shadow(panel).querySelector<HTMLSlotElement>('slot[name="footer"]')!;
    expect(footer.assignedElements()[0]!.textContent).to.equal('Brands of the results');
    expect(toggle(panel).getAttribute('aria-expanded')).to.equal('true');
    expect(toggle(panel).getAttribute('aria-label')).to.equal('Collapse Brand');
    expect(shadow(panel).getElementById(toggle(panel).getAttribute('aria-controls')!)).to.equal(body(panel));
  });

  it('collapses and expands with the keyboard; svc-panel-toggle; `collapsed` starts it collapsed', async () => {
    const { panel } = await setup();
    toggle(panel).focus();
    let event = oneEvent(panel, 'svc-panel-toggle');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.equal({ collapsed: true });
    await panel.updateComplete;
    expect(body(panel).hidden).to.be.true;
    expect(panel.hasAttribute('collapsed')).to.be.true;
    expect(toggle(panel).getAttribute('aria-expanded')).to.equal('false');
    expect(toggle(panel).getAttribute('aria-label')).to.equal('Expand Brand');
    event = oneEvent(panel, 'svc-panel-toggle');
    await sendKeys({ press: 'Space' });
    expect((await event).detail).to.deep.equal({ collapsed: false });
    await panel.updateComplete;
    expect(body(panel).hidden).to.be.false;

    const other = await setup(html`<svc-panel collapsible collapsed><h3 slot="header">Price</h3>
      <svc-range-slider attribute="price"></svc-range-slider></svc-panel>`);
    expect(body(other.panel).hidden).to.be.true;
    expect(toggle(other.panel).getAttribute('aria-label')).to.equal('Expand Price');
    await expect(other.panel).to.be.accessible();
  });

  it('is marked empty while its facet has nothing to refine; hide-when-empty hides it', async () => {
    const { panel, store } = await setup();
    await waitUntil(() => panel.canRefine, 'values to refine');
    expect(panel.hasAttribute('empty')).to.be.false;
    store.setQuery('nothing matches this query');
    await settled(store);
    await waitUntil(() => panel.hasAttribute('empty'), 'marked empty');
    expect(getComputedStyle(panel).display).to.equal('block');
    panel.hideWhenEmpty = true;
    await panel.updateComplete;
    expect(getComputedStyle(panel).display).to.equal('none');
    store.setQuery('');
    await settled(store);
    await waitUntil(() => !panel.hasAttribute('empty'), 'values again');
    expect(getComputedStyle(panel).display).to.equal('block');
  });

  it('translations and rtl', async () => {
    const { panel } = await setup(html`<svc-panel header="Marke" collapsible dir="rtl" lang="de">
      <svc-refinement-list attribute="brand"></svc-refinement-list>
    </svc-panel>`);
    panel.translations = { collapse: '{header} einklappen' };
    await panel.updateComplete;
    expect(toggle(panel).getAttribute('aria-label')).to.equal('Marke einklappen');
    const heading = shadow(panel).querySelector('[part~="heading"]')!.getBoundingClientRect();
    expect(heading.left, 'the heading first on the right').to.be.greaterThan(
      toggle(panel).getBoundingClientRect().left,
    );
    await expect(panel).to.be.accessible();
  });
});
