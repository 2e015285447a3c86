/**
 * <svc-breadcrumb> in real Chromium against the real service, beside <svc-hierarchical-menu>: axe, the nav and
 * its ordered list, links back to each level (real hrefs, plain clicks in place, Enter), "Home", the event,
 * root-path, translations, rtl (the separator turns) and hostile values.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcBreadcrumb } from '../../src/elements/breadcrumb/svc-breadcrumb.js';
import '../../src/elements/breadcrumb/define.js';
import '../../src/elements/hierarchical-menu/define.js';
import { deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { createShopIndex, LEVELS, SHOP } from './shop-fixture.js';

const ATTRIBUTES = LEVELS.join(',');
/** The levels shown: their text, a link (`→`) or the current one (`*`). */
const levels = (crumbs: SvcBreadcrumb) =>
  [...shadow(crumbs).querySelectorAll('li')].map((li) => {
    const link = li.querySelector('a');
    return link ? `→${link.textContent!.trim()}` : `*${li.querySelector('[part~="current"]')!.textContent!.trim()}`;
  });
const link = (crumbs: SvcBreadcrumb, text: string) =>
  [...shadow(crumbs).querySelectorAll('a')].find((a) => a.textContent!.trim() === text)!;

describe('<svc-breadcrumb>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_crumbs');
  });

  async function setup(extra = '') {
    const root = await searchFixture(
      indexName,
      html`<svc-hierarchical-menu attributes=${ATTRIBUTES}></svc-hierarchical-menu>
        <svc-breadcrumb attributes=${ATTRIBUTES} root-path=${extra || ''}></svc-breadcrumb>`,
    );
    const crumbs = root.querySelector('svc-breadcrumb')!;
    await crumbs.updateComplete;
    return { root, crumbs, store: root.store! };
  }

  it('is accessible: a labelled nav, an ordered list, the current level marked', async () => {
    const { crumbs, store } = await setup();
    await expect(crumbs).to.be.accessible();
    expect(shadow(crumbs).querySelector('nav')!.getAttribute('aria-label')).to.equal('Breadcrumb');
    expect(levels(crumbs)).to.deep.equal(['*Home']);
    store.setState(store.fromQueryString(`facets[${LEVELS[1]}]=Furniture > Chairs`));
    await settled(store);
    await crumbs.updateComplete;
    expect(levels(crumbs)).to.deep.equal(['→Home', '→Furniture', '*Chairs']);
    expect(shadow(crumbs).querySelector('[part~="current"]')!.getAttribute('aria-current')).to.equal('location');
    expect(
      [...shadow(crumbs).querySelectorAll('[part~="separator"]')].map((s) => s.getAttribute('aria-hidden')),
    ).to.deep.equal(['true', 'true']);
    await expect(crumbs).to.be.accessible();
  });

  it('follows the hierarchical menu; each level is a link back to it; Home clears; one request each', async () => {
    const { root, crumbs, store } = await setup();
    const menu = root.querySelector('svc-hierarchical-menu')!;
    const menuLink = (label: string) =>
      [...shadow(menu).querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.textContent!.includes(label))!;
    await waitUntil(() => menuLink('Technology'));
    menuLink('Technology').click();
    await settled(store);
    await menu.updateComplete;
    menuLink('Phones').click();
    await settled(store);
    await crumbs.updateComplete;
    expect(levels(crumbs)).to.deep.equal(['→Home', '→Technology', '*Phones']);
    expect(link(crumbs, 'Technology').getAttribute('href')).to.equal(
      `?facets[${encodeURIComponent(LEVELS[0]!)}]=Technology`,
    );
    expect(link(crumbs, 'Home').getAttribute('href')).to.equal('?');

    const logged = store.requestLog.length;
    let event = oneEvent(crumbs, 'svc-refine');
    link(crumbs, 'Technology').click();
    expect((await event).detail).to.deep.equal({ attribute: LEVELS[0], value: 'Technology', refined: true });
    await settled(store);
    expect(store.requestLog.length).to.equal(logged + 1);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ [LEVELS[0]!]: ['Technology'] });
    expect(store.getSnapshot().results!.nbHits).to.equal(SHOP.filter((p) => p.category === 'Technology').length);
    await crumbs.updateComplete;

    link(crumbs, 'Home').focus();
    event = oneEvent(crumbs, 'svc-refine');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.equal({ attribute: LEVELS[0], value: '', refined: false });
    await settled(store);
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({});
  });

  it('root-path leaves out the levels of the root', async () => {
    const { crumbs, store } = await setup('Furniture');
    store.setState(store.fromQueryString(`facets[${LEVELS[1]}]=Furniture > Tables`));
    await settled(store);
    await crumbs.updateComplete;
    expect(levels(crumbs)).to.deep.equal(['→Home', '*Tables']);
  });

  it('translations, rtl (the separator turns) and hostile values as text', async () => {
    const hostile = await createShopIndex('svc_crumbs_hostile', [
      {
        ...SHOP[0],
        objectID: 'evil',
        hierarchicalCategories: {
          lvl0: '<b onmouseover="window.__svcPwned=1">x',
          lvl1: '<b onmouseover="window.__svcPwned=1">x > <script>window.__svcPwned=2</script>',
        },
      },
    ]);
    const root = await searchFixture(
      hostile,
      html`<svc-breadcrumb attributes=${ATTRIBUTES} dir="rtl" lang="fr"></svc-breadcrumb>`,
    );
    const crumbs = root.querySelector('svc-breadcrumb')!;
    crumbs.translations = { label: 'Fil d’Ariane', home: 'Accueil' };
    root.store!.setState(
      root.store!.fromQueryString(
        `facets[${LEVELS[1]}]=${encodeURIComponent('<b onmouseover="window.__svcPwned=1">x > <script>window.__svcPwned=2</script>')}`,
      ),
    );
    await settled(root.store!);
    await crumbs.updateComplete;
    expect(levels(crumbs)).to.deep.equal([
      '→Accueil',
      '→<b onmouseover="window.__svcPwned=1">x',
      '*<script>window.__svcPwned=2</script>',
    ]);
    expect(shadow(crumbs).querySelector('nav')!.getAttribute('aria-label')).to.equal('Fil d’Ariane');
    const list = shadow(crumbs).querySelector('ol')!;
    const [first, last] = [list.firstElementChild!, list.lastElementChild!].map((li) => li.getBoundingClientRect());
    expect(first!.left, 'rtl: Home on the right').to.be.greaterThan(last!.left);
    expect(deepQueryAll(root, 'b, script')).to.have.length(0);
    expect((window as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
    await expect(crumbs).to.be.accessible();
  });
});
