/**
 * <svc-hierarchical-menu> in real Chromium against the real service: axe, the nested lists and links, keyboard,
 * counts per level as if the menu were not refined (computed from the records), one request per choice, going
 * up, root-path, show-parent-level, show more, sort-by, the results' value ordering, translations, rtl and
 * hostile values.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcHierarchicalMenu } from '../../src/elements/hierarchical-menu/svc-hierarchical-menu.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import '../../src/elements/hierarchical-menu/define.js';
import '../../src/elements/hits/define.js';
import { admin, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex, LEVELS, SHOP } from './shop-fixture.js';

const ATTRIBUTES = LEVELS.join(',');

/** The values shown, as `label count` lines, nested levels indented by two spaces. */
function lines(menu: SvcHierarchicalMenu): string[] {
  const out: string[] = [];
  const walk = (list: Element, depth: number) => {
    for (const li of list.querySelectorAll(':scope > li')) {
      const label = li.querySelector(':scope > a [part~="label"]')!.textContent!.trim();
      const count = li.querySelector(':scope > a [part~="count"]')!.textContent!.trim();
      out.push(`${'  '.repeat(depth)}${label} ${count}`);
      const child = li.querySelector(':scope > ul');
      if (child) walk(child, depth + 1);
    }
  };
  const top = shadow(menu).querySelector('ul');
  if (top) walk(top, 0);
  return out;
}

const link = (menu: SvcHierarchicalMenu, label: string) =>
  [...shadow(menu).querySelectorAll<HTMLAnchorElement>('a[part~="link"]')].find(
    (a) => a.querySelector('[part~="label"]')!.textContent!.trim() === label,
  )!;

describe('<svc-hierarchical-menu>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_hmenu');
  });

  async function setup(attributes = html`<svc-hierarchical-menu attributes=${ATTRIBUTES}></svc-hierarchical-menu>`) {
    const root = await searchFixture(indexName, html`${attributes}<svc-hits></svc-hits>`);
    const menu = root.querySelector('svc-hierarchical-menu')!;
    await waitUntil(() => lines(menu).length > 0, 'the first level');
    return { root, menu, store: root.store! };
  }

  async function choose(root: SvcSearch, menu: SvcHierarchicalMenu, label: string) {
    link(menu, label).click();
    await settled(root.store!);
    await menu.updateComplete;
  }

  it('is accessible: a labelled list of links, the refined one aria-current', async () => {
    const { root, menu } = await setup();
    await expect(menu).to.be.accessible();
    expect(shadow(menu).querySelector('ul')!.getAttribute('aria-label')).to.equal('Filter by hierarchicalCategories');
    await choose(root, menu, 'Furniture');
    await choose(root, menu, 'Chairs');
    await expect(menu).to.be.accessible();
    expect(link(menu, 'Chairs').getAttribute('aria-current')).to.equal('true');
    expect(link(menu, 'Furniture').hasAttribute('aria-current')).to.be.false;
    expect(link(menu, 'Furniture').closest('li')!.getAttribute('part')).to.equal('item selected-item');
  });

  it('lists the first level by name with counts; a value opens its level; siblings keep their counts', async () => {
    const { root, menu, store } = await setup();
    const top = (name: string) => countOf((p) => p.hierarchicalCategories.lvl0 === name);
    const sub = (name: string) => countOf((p) => p.hierarchicalCategories.lvl1 === name);
    expect(lines(menu)).to.deep.equal([
      `Furniture ${top('Furniture')}`,
      `Office Supplies ${top('Office Supplies')}`,
      `Technology ${top('Technology')}`,
    ]);
    const logged = store.requestLog.length;
    await choose(root, menu, 'Furniture');
    expect(store.requestLog.length).to.equal(logged + 1, 'one request');
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Furniture'] });
    expect(lines(menu)).to.deep.equal([
      `Furniture ${top('Furniture')}`,
      `  Bookcases ${sub('Furniture > Bookcases')}`,
      `  Chairs ${sub('Furniture > Chairs')}`,
      `  Tables ${sub('Furniture > Tables')}`,
      `Office Supplies ${top('Office Supplies')}`,
      `Technology ${top('Technology')}`,
    ]);
    await choose(root, menu, 'Chairs');
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[1]!]: ['Furniture > Chairs'] });
    expect(store.getSnapshot().results!.nbHits).to.equal(sub('Furniture > Chairs'));
    // The first level and the chairs' siblings are counted without the menu's refinement.
    expect(lines(menu)).to.deep.equal([
      `Furniture ${top('Furniture')}`,
      `  Bookcases ${sub('Furniture > Bookcases')}`,
      `  Chairs ${sub('Furniture > Chairs')}`,
      `  Tables ${sub('Furniture > Tables')}`,
      `Office Supplies ${top('Office Supplies')}`,
      `Technology ${top('Technology')}`,
    ]);
    const queries = (store.requestLog.at(-1)!.body as { requests: unknown[] }).requests;
    expect(queries).to.have.length(3, 'the results, the first level, the chairs’ siblings: one request');
  });

  it('choosing the refined value goes up; a first-level value clears; svc-refine tells which', async () => {
    const { root, menu, store } = await setup();
    await choose(root, menu, 'Technology');
    await choose(root, menu, 'Phones');
    let event = oneEvent(menu, 'svc-refine');
    link(menu, 'Phones').click();
    expect((await event).detail).to.deep.equal({ attribute: LEVELS[1], value: 'Technology > Phones', refined: false });
    await settled(store);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Technology'] });
    await menu.updateComplete;
    event = oneEvent(menu, 'svc-refine');
    link(menu, 'Technology').click();
    expect((await event).detail).to.deep.equal({ attribute: LEVELS[0], value: 'Technology', refined: false });
    await settled(store);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
    expect(store.getSnapshot().results!.nbHits).to.equal(SHOP.length);
    // Going up from elsewhere: a refinement set by the URL state is shown.
    store.setState(store.fromQueryString(`facets[${LEVELS[1]}]=Office Supplies > Paper`));
    await settled(store);
    await menu.updateComplete;
    expect(link(menu, 'Paper').getAttribute('aria-current')).to.equal('true');
  });

  it('each value is a real link to its page; Enter on a focused link refines', async () => {
    const { root, menu, store } = await setup();
    expect(link(menu, 'Furniture').getAttribute('href')).to.equal(
      `?facets[${encodeURIComponent(LEVELS[0]!)}]=Furniture`,
    );
    link(menu, 'Technology').focus();
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await menu.updateComplete;
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Technology'] });
    // The refined value's link goes up (here: no refinement).
    expect(link(menu, 'Technology').getAttribute('href')).to.equal('?');
    expect(root.querySelector('svc-hits')).to.exist;
  });

  it('root-path lists the children of a path; show-parent-level="false" hides the siblings of the path', async () => {
    const { root, menu } = await setup(
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES} root-path="Furniture"></svc-hierarchical-menu>`,
    );
    expect(lines(menu).map((line) => line.split(' ')[0])).to.deep.equal(['Bookcases', 'Chairs', 'Tables']);
    await choose(root, menu, 'Tables');
    expect(root.store!.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[1]!]: ['Furniture > Tables'] });
    await choose(root, menu, 'Tables'); // up to Furniture, which is the root: cleared
    expect(root.store!.getSnapshot().state.facetRefinements).to.deep.equal({});

    const other = await setup(
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES} show-parent-level="false"></svc-hierarchical-menu>`,
    );
    await choose(other.root, other.menu, 'Furniture');
    await choose(other.root, other.menu, 'Chairs');
    expect(lines(other.menu).map((line) => line.trim().split(' ')[0])).to.deep.equal([
      'Furniture',
      'Chairs',
      'Office',
      'Technology',
    ]);
  });

  it('limit, show more and sort-by', async () => {
    const { menu } = await setup(
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES} limit="2" show-more sort-by="count:desc,name:asc"></svc-hierarchical-menu>`,
    );
    const more = shadow(menu).querySelector<HTMLButtonElement>('[part~="show-more"]')!;
    expect(lines(menu)).to.have.length(2);
    expect(more.hidden).to.be.false;
    expect(more.getAttribute('aria-expanded')).to.equal('false');
    const byCount = ['Furniture', 'Office Supplies', 'Technology'].sort(
      (a, b) => countOf((p) => p.category === b) - countOf((p) => p.category === a) || a.localeCompare(b),
    );
    expect(lines(menu).map((line) => line.replace(/ \d+$/, ''))).to.deep.equal(byCount.slice(0, 2));
    more.click();
    await menu.updateComplete;
    expect(lines(menu)).to.have.length(3);
    expect(more.textContent!.trim()).to.equal('Show less');
  });

  it('follows the results’ value ordering (renderingContent) while sort-by is the default', async () => {
    const ordered = await createShopIndex('svc_hmenu_order');
    await admin.request('PUT', `/1/indexes/${ordered}/settings`, {
      renderingContent: {
        facetOrdering: {
          values: { [LEVELS[0]!]: { order: ['Technology'], sortRemainingBy: 'alpha', hide: ['Furniture'] } },
        },
      },
    });
    await waitUntil(async () => {
      const settings = await admin.request<{ renderingContent?: unknown }>('GET', `/1/indexes/${ordered}/settings`);
      return Boolean(settings.renderingContent);
    });
    const root = await searchFixture(
      ordered,
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES}></svc-hierarchical-menu>`,
    );
    const menu = root.querySelector('svc-hierarchical-menu')!;
    await waitUntil(() => lines(menu).length > 0);
    expect(lines(menu).map((line) => line.replace(/ \d+$/, ''))).to.deep.equal(['Technology', 'Office Supplies']);
  });

  it('translations, lang and rtl', async () => {
    const { root, menu } = await setup(
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES} lang="de" dir="rtl" show-more limit="1"></svc-hierarchical-menu>`,
    );
    menu.translations = { listLabel: 'Kategorien', showMore: 'Mehr', count: '({count})' };
    await menu.updateComplete;
    expect(shadow(menu).querySelector('ul')!.getAttribute('aria-label')).to.equal('Kategorien');
    expect(shadow(menu).querySelector('[part~="show-more"]')!.textContent!.trim()).to.equal('Mehr');
    expect(lines(menu)[0]).to.match(/^Furniture \(\d+\)$/);
    await choose(root, menu, 'Furniture');
    const child = shadow(menu).querySelector<HTMLElement>('[part~="child-list"]')!;
    expect(getComputedStyle(child).paddingInlineStart).to.equal('16px');
    expect(getComputedStyle(child).paddingRight, 'the indent is on the right in rtl').to.equal('16px');
    await expect(menu).to.be.accessible();
  });

  it('shows hostile paths as text only', async () => {
    const hostile = await createShopIndex('svc_hmenu_hostile', [
      ...SHOP.slice(0, 4),
      {
        ...SHOP[4],
        objectID: 'evil',
        hierarchicalCategories: {
          lvl0: '<img src=x onerror="window.__svcPwned=1">',
          lvl1: '<img src=x onerror="window.__svcPwned=1"> > <script>window.__svcPwned=2</script>',
        },
      },
    ]);
    const root = await searchFixture(
      hostile,
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES}></svc-hierarchical-menu>`,
    );
    const menu = root.querySelector('svc-hierarchical-menu')!;
    await waitUntil(() => lines(menu).some((line) => line.startsWith('<img')));
    await choose(root, menu, '<img src=x onerror="window.__svcPwned=1">');
    expect(lines(menu)).to.include('  <script>window.__svcPwned=2</script> 1');
    expect(deepQueryAll(root, 'img, script')).to.have.length(0);
    expect((window as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
