/**
 * <svc-toggle-refinement> in real Chromium against the real service: axe, a checkbox in its label (or a
 * switch), the count of hits it gives (computed from the records, also while on), Space, one request per
 * toggle, `off` refined from the first request, the event, Filter Applied, translations, rtl and a hostile label.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcToggleRefinement } from '../../src/elements/toggle-refinement/svc-toggle-refinement.js';
import '../../src/elements/toggle-refinement/define.js';
import '../../src/elements/refinement-list/define.js';
import { deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex, SHOP } from './shop-fixture.js';

const checkbox = (toggle: SvcToggleRefinement) => shadow(toggle).querySelector<HTMLInputElement>('input')!;
const count = (toggle: SvcToggleRefinement) => shadow(toggle).querySelector('[part~="count"]')!.textContent!.trim();

describe('<svc-toggle-refinement>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_toggle');
  });

  async function setup(
    toggle = html`<svc-toggle-refinement attribute="sameDayShipping" label="Same-day delivery"></svc-toggle-refinement>`,
    insights = false,
  ) {
    const root = await searchFixture(
      indexName,
      html`${toggle}<svc-refinement-list attribute="brand"></svc-refinement-list>`,
      { insights },
    );
    const element = root.querySelector('svc-toggle-refinement')!;
    await waitUntil(() => count(element) !== '0', 'the count');
    return { root, toggle: element, store: root.store! };
  }

  it('is accessible: a checkbox named by its label, or a switch', async () => {
    const { toggle } = await setup();
    await expect(toggle).to.be.accessible();
    expect(checkbox(toggle).closest('label')!.textContent!.replace(/\s+/g, ' ').trim()).to.match(
      /^Same-day delivery \d+$/,
    );
    expect(checkbox(toggle).hasAttribute('role')).to.be.false;
    const other = await setup(html`<svc-toggle-refinement attribute="sameDayShipping" switch></svc-toggle-refinement>`);
    expect(checkbox(other.toggle).getAttribute('role')).to.equal('switch');
    expect(shadow(other.toggle).querySelector('[part~="label-text"]')!.textContent).to.equal('sameDayShipping');
    await expect(other.toggle).to.be.accessible();
  });

  it('shows the hits it gives, on and off; Space toggles; one request each; svc-refine', async () => {
    const { toggle, store } = await setup();
    const sameDay = countOf((p) => p.sameDayShipping);
    expect(count(toggle)).to.equal(String(sameDay));
    expect(checkbox(toggle).checked).to.be.false;
    checkbox(toggle).focus();
    const logged = store.requestLog.length;
    const event = oneEvent(toggle, 'svc-refine');
    await sendKeys({ press: 'Space' });
    expect((await event).detail).to.deep.equal({ attribute: 'sameDayShipping', value: 'true', refined: true });
    await settled(store);
    await toggle.updateComplete;
    expect(store.requestLog.length).to.equal(logged + 1);
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ sameDayShipping: ['true'] });
    expect(store.getSnapshot().results!.nbHits).to.equal(sameDay);
    expect(checkbox(toggle).checked).to.be.true;
    expect(count(toggle), 'the same count while on').to.equal(String(sameDay));
    // Under another refinement the count follows it.
    store.toggleRefinement('brand', 'Hon', 'or');
    await settled(store);
    await toggle.updateComplete;
    expect(count(toggle)).to.equal(String(countOf((p) => p.sameDayShipping && p.brand === 'Hon')));
    checkbox(toggle).click();
    await settled(store);
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Hon'] });
  });

  it('with `off`, the off value is refined from the first request and swapped with `on`', async () => {
    const { toggle, store } = await setup(
      html`<svc-toggle-refinement attribute="sameDayShipping" on="true" off="false"></svc-toggle-refinement>`,
    );
    const first = store.requestLog.find((entry) => entry.kind === 'search')!;
    const params = (first.body as { requests: Array<{ params: { facetFilters?: unknown } }> }).requests[0]!.params;
    expect(params.facetFilters).to.deep.equal([['sameDayShipping:false']]);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => !p.sameDayShipping));
    expect(count(toggle)).to.equal(String(countOf((p) => p.sameDayShipping)));
    checkbox(toggle).click();
    await settled(store);
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ sameDayShipping: ['true'] });
    checkbox(toggle).click();
    await settled(store);
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ sameDayShipping: ['false'] });
  });

  it('sends Filter Applied when turned on', async () => {
    const { root, toggle, store } = await setup(undefined, true);
    const events: Array<{ eventName: string; filters?: string[] }> = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventName === 'Filter Applied') events.push(e.detail.event);
    });
    checkbox(toggle).click();
    await settled(store);
    await waitUntil(() => events.length === 1);
    expect(events[0]!.filters).to.deep.equal(['sameDayShipping:true']);
  });

  it('translations, rtl and a hostile label as text', async () => {
    const { root, toggle } = await setup(
      html`<svc-toggle-refinement attribute="sameDayShipping" dir="rtl" lang="de" label="<img src=x onerror=window.__svcPwned=1>"></svc-toggle-refinement>`,
    );
    toggle.translations = { count: '({count})' };
    await toggle.updateComplete;
    expect(count(toggle)).to.equal(`(${countOf((p) => p.sameDayShipping)})`);
    const [box, text] = [checkbox(toggle), shadow(toggle).querySelector('[part~="label-text"]')!].map((el) =>
      el.getBoundingClientRect(),
    );
    expect(box!.left, 'the checkbox on the right in rtl').to.be.greaterThan(text!.left);
    expect(deepQueryAll(root, 'img')).to.have.length(0);
    expect((window as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
    expect(SHOP.length).to.equal(48);
    await expect(toggle).to.be.accessible();
  });
});
