/**
 * <svc-dynamic-widgets> in real Chromium against the real service: the facets shown in the order of the index's
 * `renderingContent` and of a rule's for one query (the page's DOM untouched, the Tab order following), those
 * not asked for hidden, the fallback template for a facet without an element (its values shown, record values
 * as text), nothing without an order unless asked, max-facets, axe.
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcDynamicWidgets } from '../../src/elements/dynamic-widgets/svc-dynamic-widgets.js';
import type { SearchStore } from '../../src/store/types.js';
import '../../src/elements/dynamic-widgets/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/rating-menu/define.js';
import '../../src/elements/toggle-refinement/define.js';
import '../../src/elements/panel/define.js';
import { admin, searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex, LEVELS } from './shop-fixture.js';

/** The facets shown, in the order shown (the elements assigned to the rendered slots). */
function shown(dynamic: SvcDynamicWidgets): string[] {
  return [...shadow(dynamic).querySelectorAll('slot')].flatMap((slot) =>
    slot.assignedElements().map((element) => {
      const facet = element.matches('[attribute]') ? element : element.querySelector('[attribute]')!;
      return facet.getAttribute('attribute')!;
    }),
  );
}

/** Every facet the last search sent asked for (all its queries), sorted. */
function lastFacets(store: SearchStore): string[] {
  const last = store.requestLog.filter((entry) => entry.kind === 'search').at(-1)!;
  const { requests } = last.body as { requests: Array<{ params: { facets?: string | string[] } }> };
  return [...new Set(requests.flatMap((request) => request.params.facets ?? []))].sort();
}

async function waitTask(indexName: string, taskID: number) {
  await waitUntil(
    async () =>
      (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status === 'published',
  );
}

const CHILDREN = html`<svc-refinement-list attribute="brand"></svc-refinement-list>
  <svc-panel header="Rating"><svc-rating-menu attribute="rating"></svc-rating-menu></svc-panel>
  <svc-toggle-refinement attribute="sameDayShipping"></svc-toggle-refinement>
  <template>
    <section>
      <h3 data-text="attribute"></h3>
      <svc-refinement-list data-attr-attribute="attribute"></svc-refinement-list>
    </section>
  </template>`;

describe('<svc-dynamic-widgets>', () => {
  let indexName: string;
  let plain: string;
  before(async () => {
    indexName = await createShopIndex('svc_dynamic');
    const settings = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/settings`, {
      renderingContent: { facetOrdering: { facets: { order: ['rating', LEVELS[0]!, 'brand'] } } },
    });
    await waitTask(indexName, settings.taskID);
    const rule = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/rules/hon-first`, {
      conditions: [{ pattern: 'hon', anchoring: 'is' }],
      consequence: {
        params: { renderingContent: { facetOrdering: { facets: { order: ['brand', 'sameDayShipping'] } } } },
      },
    });
    await waitTask(indexName, rule.taskID);
    plain = await createShopIndex('svc_dynamic_plain');
  });

  async function setup(attributes = html`<svc-dynamic-widgets>${CHILDREN}</svc-dynamic-widgets>`, index = indexName) {
    const root = await searchFixture(index, attributes);
    const dynamic = root.querySelector('svc-dynamic-widgets')!;
    await dynamic.updateComplete;
    return { root, dynamic, store: root.store! };
  }

  it('shows the facets in the index’s order, hides the others, renders the template for a facet without an element', async () => {
    const { dynamic } = await setup();
    await waitUntil(() => shown(dynamic).length === 3, `three facets (${shown(dynamic).join(', ')})`);
    expect(shown(dynamic)).to.deep.equal(['rating', LEVELS[0], 'brand']);
    expect(dynamic.attributesToRender).to.deep.equal(['rating', LEVELS[0], 'brand']);
    const toggle = dynamic.querySelector('svc-toggle-refinement')!;
    expect(toggle.assignedSlot, 'not in the order: not shown').to.equal(null);
    expect(toggle.getBoundingClientRect().height).to.equal(0);
    // The fallback: the template with { attribute } (its heading text, its list's attribute) shows the values.
    const fallback = dynamic.querySelector(`[data-svc-fallback="${LEVELS[0]}"]`)!;
    expect(fallback.querySelector('h3')!.textContent).to.equal(LEVELS[0]);
    const list = fallback.querySelector('svc-refinement-list')!;
    await waitUntil(() => shadow(list).querySelectorAll('li').length === 3, 'the fallback list’s values');
    expect(shadow(list).querySelector('li')!.textContent!.replace(/\s+/g, ' ').trim()).to.match(
      new RegExp(`^Furniture ${countOf((p) => p.category === 'Furniture')}$`),
    );
    await expect(dynamic).to.be.accessible();
  });

  it('the Tab order follows the order shown, not the DOM order', async () => {
    const { dynamic } = await setup();
    await waitUntil(() => shown(dynamic).length === 3);
    const rating = dynamic.querySelector('svc-rating-menu')!;
    await waitUntil(() => shadow(rating).querySelectorAll('a[href]').length > 0);
    const before = document.createElement('button');
    before.textContent = 'before';
    dynamic.before(before);
    before.focus();
    await sendKeys({ press: 'Tab' });
    const active = document.activeElement;
    expect(active === dynamic.querySelector('svc-panel') || active === rating, `${active?.localName} has the focus`).to
      .be.true;
    before.remove();
  });

  it('a rule’s renderingContent reorders the facets for its query', async () => {
    const { dynamic, store } = await setup();
    await waitUntil(() => shown(dynamic).length === 3);
    store.setQuery('hon');
    await settled(store);
    await dynamic.updateComplete;
    expect(shown(dynamic)).to.deep.equal(['brand', 'sameDayShipping']);
    expect(dynamic.querySelector(`[data-svc-fallback]`), 'the fallback no longer needed is removed').to.equal(null);
    store.setQuery('');
    await settled(store);
    await dynamic.updateComplete;
    expect(shown(dynamic)).to.deep.equal(['rating', LEVELS[0], 'brand']);
  });

  it('a child not shown asks nothing of the search: its facet leaves the requests until an order shows it', async () => {
    const { dynamic, store } = await setup();
    await waitUntil(() => shown(dynamic).length === 3);
    const toggle = dynamic.querySelector('svc-toggle-refinement')!;
    await waitUntil(() => toggle.hasAttribute('data-svc-withheld'), 'the toggle, not in the order, is left out');
    // Leaving it out sends nothing (the results on screen hold more than is needed); the next search omits it.
    store.setQuery('a');
    await settled(store);
    expect(lastFacets(store)).to.deep.equal(['brand', LEVELS[0], 'rating']);
    // The rule's order for "hon" shows the toggle and leaves the rating out: the toggle asks for its facet.
    store.setQuery('hon');
    await waitUntil(() => lastFacets(store).includes('sameDayShipping'), 'the toggle asks again once shown');
    await settled(store);
    expect(shown(dynamic)).to.deep.equal(['brand', 'sameDayShipping']);
    expect(lastFacets(store)).to.deep.equal(['brand', 'sameDayShipping']);
    expect(toggle.hasAttribute('data-svc-withheld')).to.be.false;
  });

  it('without a facet order: nothing, or every child with show-all-without-ordering; max-facets', async () => {
    const none = await setup(html`<svc-dynamic-widgets>${CHILDREN}</svc-dynamic-widgets>`, plain);
    await settled(none.store);
    await none.dynamic.updateComplete;
    expect(shown(none.dynamic)).to.deep.equal([]);
    const all = await setup(
      html`<svc-dynamic-widgets show-all-without-ordering>${CHILDREN}</svc-dynamic-widgets>`,
      plain,
    );
    await waitUntil(() => shown(all.dynamic).length === 3);
    expect(shown(all.dynamic)).to.deep.equal(['brand', 'rating', 'sameDayShipping']);
    const two = await setup(html`<svc-dynamic-widgets max-facets="2">${CHILDREN}</svc-dynamic-widgets>`);
    await waitUntil(() => shown(two.dynamic).length === 2);
    expect(shown(two.dynamic)).to.deep.equal(['rating', LEVELS[0]]);
  });
});
