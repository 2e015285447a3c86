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
import '../../src/elements/numeric-menu/define.js';
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
    const fallback = dynamic.querySelector(`[data-svc-fallback]`)!;
    expect(fallback.hasAttribute('data-svc-withheld'), 'the fallback no longer shown is kept, left out').to.be.true;
    // Its facet still asked, the order that shows it again needs one search.
    const searches = () => store.requestLog.filter((entry) => entry.kind === 'search').length;
    const before = searches();
    store.setQuery('');
    await settled(store);
    await dynamic.updateComplete;
    expect(shown(dynamic)).to.deep.equal(['rating', LEVELS[0], 'brand']);
    expect(fallback.hasAttribute('data-svc-withheld')).to.be.false;
    await fallback.querySelector<HTMLElement & { updateComplete: Promise<unknown> }>('svc-refinement-list')!
      .updateComplete;
    await settled(store);
    expect(searches() - before, 'one search for ""').to.equal(1);
  });

  it('a child not shown keeps its facet in the search: the order that shows it needs no second search', async () => {
    const { dynamic, store } = await setup();
    const searches = () => store.requestLog.filter((entry) => entry.kind === 'search').length;
    await waitUntil(() => shown(dynamic).length === 3);
    const toggle = dynamic.querySelector('svc-toggle-refinement')!;
    await waitUntil(() => toggle.hasAttribute('data-svc-withheld'), 'the toggle, not in the order, is left out');
    // Left out, it still asks for its facet: the answer that brings an order showing it has its values.
    store.setQuery('a');
    await settled(store);
    expect(lastFacets(store)).to.deep.equal(['brand', LEVELS[0], 'rating', 'sameDayShipping']);
    // The rule's order for "hon" shows the toggle and leaves the rating out: one search, the toggle's counts in it.
    const before = searches();
    store.setQuery('hon');
    await settled(store);
    await dynamic.updateComplete;
    await toggle.updateComplete;
    expect(shown(dynamic)).to.deep.equal(['brand', 'sameDayShipping']);
    expect(toggle.hasAttribute('data-svc-withheld')).to.be.false;
    expect(store.getSnapshot().results!.facets!.sameDayShipping).to.not.equal(undefined);
    // Shown, the toggle registered its needs at its update: a search they made due would be settled here.
    await settled(store);
    expect(searches() - before, 'one search for "hon"').to.equal(1);
  });

  it('a child not shown adds no queries of its own: a numeric menu left out sends no counts', async () => {
    const { dynamic, store } = await setup(
      html`<svc-dynamic-widgets>${CHILDREN}<svc-numeric-menu attribute="price" show-counts>
          <option value="">All</option><option value=":10">Under 10</option><option value="10:">10 and above</option>
        </svc-numeric-menu></svc-dynamic-widgets>`,
    );
    const menu = dynamic.querySelector('svc-numeric-menu')!;
    await waitUntil(() => menu.hasAttribute('data-svc-withheld'), 'the menu, in no order, is left out');
    store.setQuery('a');
    await settled(store);
    const last = store.requestLog.filter((entry) => entry.kind === 'search').at(-1)!;
    const { requests } = last.body as { requests: unknown[] };
    expect(requests, 'the main query alone: no range counts for a menu not shown').to.have.length(1);
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
