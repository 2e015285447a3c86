import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcPagination } from '../../src/elements/pagination/svc-pagination.js';
import '../../src/elements/pagination/define.js';
import '../../src/elements/hits/define.js';
import { HOSTILE, createIndex, searchFixture, settled, shadow } from './search-fixture.js';

const links = (pagination: SvcPagination) => [...shadow(pagination).querySelectorAll<HTMLAnchorElement>('a')];
const pageLinks = (pagination: SvcPagination) => links(pagination).filter((a) => a.part.contains('page'));
const link = (pagination: SvcPagination, kind: string) => links(pagination).find((a) => a.part.contains(kind));

describe('<svc-pagination>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_pagination_el');
    hostileIndex = await createIndex('svc_pagination_hostile', HOSTILE);
  });

  /** 36 records at 4 per page: 9 pages. */
  async function setup(pagination = html`<svc-pagination></svc-pagination>`) {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>${pagination}`);
    root.store!.setHitsPerPage(4);
    await settled(root.store!);
    const element = root.querySelector('svc-pagination')!;
    await element.updateComplete;
    return { root, pagination: element, store: root.store! };
  }

  it('is accessible', async () => {
    const { pagination } = await setup(html`<svc-pagination show-last></svc-pagination>`);
    await expect(pagination).to.be.accessible();
  });

  it('is a labelled nav of real links with aria-current on the current page', async () => {
    const { pagination } = await setup();
    const nav = shadow(pagination).querySelector('nav')!;
    expect(nav.getAttribute('aria-label')).to.equal('Pagination');
    expect(pageLinks(pagination).map((a) => a.textContent!.trim())).to.deep.equal(['1', '2', '3', '4', '5', '6', '7']);
    const current = shadow(pagination).querySelectorAll('[aria-current="page"]');
    expect(current).to.have.length(1);
    expect(current[0].textContent!.trim()).to.equal('1');
    // On the first page, first/previous lead nowhere: no href, aria-disabled.
    for (const kind of ['first', 'previous']) {
      expect(link(pagination, kind)!.hasAttribute('href')).to.be.false;
      expect(link(pagination, kind)!.getAttribute('aria-disabled')).to.equal('true');
    }
    expect(link(pagination, 'last')).to.be.undefined; // show-last is off by default
    const third = pageLinks(pagination)[2];
    expect(third.getAttribute('aria-label')).to.equal('Page 3');
    expect(new URLSearchParams(third.getAttribute('href')!).get('page')).to.equal('3');
    expect(new URLSearchParams(link(pagination, 'next')!.getAttribute('href')!).get('page')).to.equal('2');
  });

  it('changes the page on a plain click (svc-page-change), without leaving the document', async () => {
    const { pagination, store, root } = await setup();
    const changed = oneEvent(pagination, 'svc-page-change');
    const third = pageLinks(pagination)[2];
    let prevented: boolean | undefined;
    shadow(pagination).addEventListener('click', (e) => (prevented = e.defaultPrevented), { once: true });
    third.click();
    expect(prevented).to.be.true;
    expect((await changed).detail.page).to.equal(2);
    await settled(store);
    await pagination.updateComplete;
    expect(shadow(pagination).querySelector('[aria-current="page"]')!.textContent!.trim()).to.equal('3');
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(shadow(hits).querySelector('li')!.dataset.svcPosition).to.equal('9');
    expect(link(pagination, 'previous')!.hasAttribute('href')).to.be.true;
  });

  it('scrolls the results back into view after a page change (unless scroll-to="false")', async () => {
    for (const scrollTo of [undefined, 'false']) {
      const { pagination, store, root } = await setup(
        html`<div style="block-size: 3000px"></div><svc-pagination scroll-to=${scrollTo ?? ''}></svc-pagination>`,
      );
      if (scrollTo === undefined) pagination.removeAttribute('scroll-to');
      await pagination.updateComplete;
      pagination.scrollIntoView();
      expect(root.getBoundingClientRect().top).to.be.below(0);
      pageLinks(pagination)[1].click();
      await settled(store);
      const top = root.getBoundingClientRect().top;
      if (scrollTo === 'false') expect(top).to.be.below(0);
      else expect(Math.abs(top)).to.be.below(2);
      root.remove();
      window.scrollTo(0, 0);
    }
  });

  it('lets a modified or middle click follow the link', async () => {
    const { pagination, store } = await setup();
    const second = pageLinks(pagination)[1];
    const outcomes: boolean[] = [];
    // Runs after the element's own handler (bubbling); cancels so the test page stays where it is.
    shadow(pagination).addEventListener('click', (e) => {
      outcomes.push(e.defaultPrevented);
      e.preventDefault();
    });
    shadow(pagination).addEventListener('auxclick', (e) => e.preventDefault());
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }]) {
      second.dispatchEvent(
        new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, button: 0, ...init }),
      );
    }
    second.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, button: 1 }));
    expect(outcomes).to.deep.equal([false, false, false, false]);
    await new Promise((r) => setTimeout(r, 20));
    expect(store.getSnapshot().state.page).to.equal(0);
  });

  it('works with the keyboard: Tab to a link, Enter follows it in place', async () => {
    const { pagination, store } = await setup();
    link(pagination, 'next')!.focus();
    await sendKeys({ press: 'Enter' });
    await settled(store);
    expect(store.getSnapshot().state.page).to.equal(1);
    await pagination.updateComplete;
    await sendKeys({ down: 'Shift' }); // Shift+Tab: back to the last page link (7)
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    await sendKeys({ press: 'Enter' });
    await settled(store);
    expect(store.getSnapshot().state.page).to.equal(6);
  });

  it('has next(), previous() and goto(page); the window of pages follows', async () => {
    const { pagination, store } = await setup(html`<svc-pagination padding="1" show-last></svc-pagination>`);
    pagination.goto(4);
    await settled(store);
    await pagination.updateComplete;
    expect(pageLinks(pagination).map((a) => a.textContent!.trim())).to.deep.equal(['4', '5', '6']);
    pagination.next();
    await settled(store);
    expect(pagination.currentPage).to.equal(5);
    pagination.previous();
    pagination.previous();
    await settled(store);
    expect(pagination.currentPage).to.equal(3);
    pagination.goto(99); // clamped
    await settled(store);
    await pagination.updateComplete;
    expect(pagination.currentPage).to.equal(8);
    expect(pageLinks(pagination).map((a) => a.textContent!.trim())).to.deep.equal(['7', '8', '9']);
    expect(link(pagination, 'last')!.getAttribute('aria-disabled')).to.equal('true');
  });

  it('honours total-pages, show-first="false" and translations', async () => {
    const { pagination } = await setup(html`<svc-pagination total-pages="3" show-first="false"></svc-pagination>`);
    expect(pageLinks(pagination).map((a) => a.textContent!.trim())).to.deep.equal(['1', '2', '3']);
    expect(link(pagination, 'first')).to.be.undefined;
    expect(link(pagination, 'next')!.textContent!.trim()).to.equal('›');
    pagination.translations = {
      label: 'Seiten',
      next: 'Nächste Seite',
      page: 'Seite {page}',
      nextSymbol: 'weiter',
      previousSymbol: 'zurück',
    };
    await pagination.updateComplete;
    expect(shadow(pagination).querySelector('nav')!.getAttribute('aria-label')).to.equal('Seiten');
    expect(link(pagination, 'next')!.getAttribute('aria-label')).to.equal('Nächste Seite');
    expect(link(pagination, 'next')!.textContent!.trim()).to.equal('weiter');
    expect(link(pagination, 'previous')!.textContent!.trim()).to.equal('zurück');
    // The visible arrow is hidden from assistive technology: the link's name is its label.
    expect(link(pagination, 'next')!.querySelector('[aria-hidden="true"]')!.textContent).to.equal('weiter');
    expect(pageLinks(pagination)[1].getAttribute('aria-label')).to.equal('Seite 2');
  });

  it('lays out right to left under dir="rtl"', async () => {
    const { pagination } = await setup(html`<div dir="rtl"><svc-pagination></svc-pagination></div>`);
    const x = (kind: string) => link(pagination, kind)!.getBoundingClientRect().left;
    expect(x('first')).to.be.above(x('previous'));
    expect(x('previous')).to.be.above(x('next'));
    // The default arrows are bidi-mirrored characters: drawn in the link's direction, "previous" (‹) points
    // right as "next" (›) does in LTR. Pixels of a canvas that draws text the way the page does.
    const drawn = (text: string, direction: CanvasDirection) => {
      const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      context.canvas.width = context.canvas.height = 40;
      context.direction = direction;
      context.font = '32px sans-serif';
      context.textAlign = 'center';
      context.fillText(text, 20, 32);
      return context.getImageData(0, 0, 40, 40).data.join();
    };
    const previous = link(pagination, 'previous')!;
    expect(previous.textContent!.trim()).to.equal('‹');
    expect(getComputedStyle(previous).direction).to.equal('rtl');
    expect(drawn('‹', 'ltr'), 'the two arrows differ').to.not.equal(drawn('›', 'ltr'));
    expect(drawn('‹', 'rtl'), '‹ under rtl').to.equal(drawn('›', 'ltr'));
    expect(drawn('«', 'rtl'), '« under rtl').to.equal(drawn('»', 'ltr'));
    await expect(pagination).to.be.accessible();
  });

  it('goes back to page 1 and recounts the pages after a refinement or a typo query', async () => {
    const { pagination, store } = await setup();
    pagination.goto(5);
    await settled(store);
    store.toggleRefinement('category', 'Phones', 'and'); // 12 hits: 3 pages of 4
    await settled(store);
    await pagination.updateComplete;
    expect(pagination.currentPage).to.equal(0);
    expect(pageLinks(pagination).map((a) => a.textContent!.trim())).to.deep.equal(['1', '2', '3']);
    store.setQuery('smartphnoe');
    await settled(store);
    await pagination.updateComplete;
    expect(store.getSnapshot().results!.nbHits).to.equal(12);
    expect(pagination.nbPages).to.equal(3);
  });

  it('renders nothing for a single page', async () => {
    const { pagination, store } = await setup();
    store.setQuery('model 35');
    await settled(store);
    await pagination.updateComplete;
    expect(shadow(pagination).querySelector('nav')).to.be.null;
  });

  it('encodes a hostile query in the hrefs, nothing else', async () => {
    const root = await searchFixture(hostileIndex, html`<svc-pagination></svc-pagination>`);
    const query = 'phone "\'><&%#';
    root.store!.setHitsPerPage(1);
    root.store!.setQuery(query);
    await settled(root.store!);
    const pagination = root.querySelector('svc-pagination')!;
    await pagination.updateComplete;
    expect(pageLinks(pagination)).to.have.length(2);
    const href = pageLinks(pagination)[1].getAttribute('href')!;
    expect(new URLSearchParams(href).get('q')).to.equal(query);
    expect(new URLSearchParams(href).get('page')).to.equal('2'); // `&` in the query did not split the URL
    expect(href).to.not.match(/[<>" #]/); // (an apostrophe needs no encoding in a URL or a Lit attribute)
    expect(shadow(pagination).querySelectorAll('*').length).to.be.below(30);
  });
});
