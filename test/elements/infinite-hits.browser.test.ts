import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcInfiniteHits, SvcShowMoreEventDetail } from '../../src/elements/infinite-hits/svc-infinite-hits.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { IndexState } from '../../src/store/types.js';
import '../../src/elements/infinite-hits/define.js';
import '../../src/elements/refinement-list/define.js';
import {
  APP_ID,
  HOSTILE,
  SEARCH_KEY,
  createIndex,
  deepQueryAll,
  searchFixture,
  settled,
  shadow,
} from './search-fixture.js';
import { eventually, frames, resetInsightsStorage, sleep, storedEvents } from '../insights/helpers.js';

// PRODUCTS: p0…p35 ranked in that order; at 10 per page, pages 0–3 (the last one has 6 hits).
const items = (element: Element) => [...shadow(element).querySelectorAll<HTMLLIElement>('li[part~="item"]')];
const ids = (element: Element) => items(element).map((li) => li.dataset.svcObjectId);
const positions = (element: Element) => items(element).map((li) => Number(li.dataset.svcPosition));
const button = (element: Element, which: 'more' | 'previous') =>
  shadow(element).querySelector<HTMLButtonElement>(`button[part~="show-${which}"]`)!;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A `<svc-search>` whose store starts from `initialState`, around `content`; waits for the first answer. */
async function rootWith(
  indexName: string,
  initialState: Partial<IndexState>,
  content = html`<svc-infinite-hits></svc-infinite-hits>`,
  insights = false,
) {
  const root =
    await fixture<SvcSearch>(html`<svc-search app-id=${APP_ID} api-key=${SEARCH_KEY} index-name=${indexName} hosts=${location.origin}
    insights=${insights ? 'true' : 'false'} .initialState=${initialState}>${content}</svc-search>`);
  await settled(root.store!);
  const element = root.querySelector('svc-infinite-hits')!;
  await element.updateComplete;
  return { root, element, store: root.store! };
}

/** Clicks a button as a user does and waits for the page it asked for to be rendered. */
async function press(element: SvcInfiniteHits, which: 'more' | 'previous') {
  const before = items(element).length;
  const store = (element.closest('svc-search') as SvcSearch).store!;
  button(element, which).click();
  await settled(store);
  await waitUntil(() => items(element).length > before, `no page added by show ${which}`);
  await element.updateComplete;
}

describe('<svc-infinite-hits>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_infinite_el');
    hostileIndex = await createIndex('svc_infinite_hostile', HOSTILE);
  });

  it('is accessible: first page, more pages, from a later page, empty', async () => {
    const { element, store } = await rootWith(indexName, { hitsPerPage: 10 });
    await expect(element).to.be.accessible();
    const list = shadow(element).querySelector('ol')!;
    expect(list.getAttribute('aria-label')).to.equal('Search results');
    expect(button(element, 'more').textContent!.trim()).to.equal('Show more results');
    expect(button(element, 'previous').hidden).to.be.true;
    await press(element, 'more');
    await expect(element).to.be.accessible();
    store.setPage(3);
    await settled(store);
    await element.updateComplete;
    expect(button(element, 'previous').hidden).to.be.false;
    await expect(element).to.be.accessible();
    store.setQuery('qqqqxxxzzz');
    await settled(store);
    await element.updateComplete;
    await expect(element).to.be.accessible();
  });

  it('accumulates the pages with Show more results until the last one, with absolute positions', async () => {
    const { element, store } = await rootWith(indexName, { hitsPerPage: 10 });
    expect(ids(element)).to.deep.equal(range(0, 9).map((i) => `p${i}`));
    await press(element, 'more');
    expect(store.getSnapshot().state.page).to.equal(1);
    expect(positions(element)).to.deep.equal(range(1, 20));
    await press(element, 'more');
    await press(element, 'more');
    expect(ids(element)).to.deep.equal(range(0, 35).map((i) => `p${i}`));
    expect(positions(element)).to.deep.equal(range(1, 36));
    expect(button(element, 'more').hidden, 'no page after the last').to.be.true;
    expect(element.hits).to.have.length(36);
    expect(element.showMore()).to.be.undefined;
  });

  it('starts over when the query, a refinement or the page size changes (not when only the page does)', async () => {
    const { root, element, store } = await rootWith(
      indexName,
      { hitsPerPage: 10 },
      html`<svc-infinite-hits attribute="brand"></svc-infinite-hits>`,
    );
    await press(element, 'more');
    expect(items(element)).to.have.length(20);
    store.setQuery('sony');
    await settled(store);
    await element.updateComplete;
    expect(store.getSnapshot().state.page).to.equal(0);
    expect(items(element).map((li) => li.textContent!.trim())).to.deep.equal(Array(6).fill('Sony'));
    expect(positions(element)).to.deep.equal(range(1, 6));
    expect(button(element, 'more').hidden).to.be.true;

    store.setQuery('');
    await settled(store);
    await press(element, 'more');
    expect(items(element)).to.have.length(20);
    store.toggleRefinement('category', 'Phones', 'or');
    await settled(store);
    await element.updateComplete;
    expect(items(element)).to.have.length(10);
    expect(ids(element)[0]).to.equal('p0');
    expect(positions(element)).to.deep.equal(range(1, 10));

    store.setHitsPerPage(5);
    await settled(store);
    await element.updateComplete;
    expect(positions(element)).to.deep.equal(range(1, 5));
    // A page that does not follow the loaded ones (a jump elsewhere) starts the list there, without a gap.
    store.setPage(2);
    await settled(store);
    await element.updateComplete;
    expect(positions(element)).to.deep.equal(range(11, 12));
    expect(button(element, 'previous').hidden).to.be.false;
    expect(root.querySelector('svc-infinite-hits')).to.equal(element);
  });

  it('arriving on a later page (URL state) offers Show previous results, which prepends the earlier pages', async () => {
    const { element, store } = await rootWith(indexName, { hitsPerPage: 10, page: 2 });
    expect(positions(element)).to.deep.equal(range(21, 30));
    expect(button(element, 'previous').hidden).to.be.false;
    expect(button(element, 'previous').textContent!.trim()).to.equal('Show previous results');
    await press(element, 'previous');
    expect(store.getSnapshot().state.page).to.equal(1);
    expect(positions(element)).to.deep.equal(range(11, 30));
    await press(element, 'previous');
    expect(positions(element)).to.deep.equal(range(1, 30));
    expect(button(element, 'previous').hidden).to.be.true;
    // Show more continues after the last page loaded, not after the store's page.
    await press(element, 'more');
    expect(positions(element)).to.deep.equal(range(1, 36));
  });

  it('keyboard: Enter on Show more moves the focus to the first new hit; Tab goes on inside it', async () => {
    const { element, store } = await rootWith(
      indexName,
      { hitsPerPage: 10 },
      html`<svc-infinite-hits><template><a data-href="url"><svc-highlight attribute="name"></svc-highlight></a></template></svc-infinite-hits>`,
    );
    shadow(element).addEventListener('click', (e) => e.preventDefault()); // no navigation from the test page
    button(element, 'more').focus();
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await waitUntil(() => shadow(element).activeElement?.localName === 'li', 'the focus did not move to the new hit');
    const focused = shadow(element).activeElement as HTMLLIElement;
    expect(focused.dataset.svcPosition).to.equal('11');
    expect(focused.tabIndex).to.equal(-1);
    expect(items(element).filter((li) => li.hasAttribute('tabindex'))).to.have.length(1, 'hits are not tab stops');
    await sendKeys({ press: 'Tab' });
    expect(shadow(element).activeElement).to.equal(focused.querySelector('a'));
    expect(focused.querySelector('a')!.getAttribute('href')).to.equal('/products/p10');
    // Space on Show previous (from a later page) moves the focus to the first hit of the page added above.
    store.setPage(3);
    await settled(store);
    await element.updateComplete;
    button(element, 'previous').focus();
    await sendKeys({ press: 'Space' });
    await settled(store);
    await waitUntil(
      () => (shadow(element).activeElement as HTMLElement | null)?.dataset?.svcPosition === '21',
      'focus on the first hit of page 3',
    );
  });

  it('does not take the focus from where the user went while the page loaded', async () => {
    const { root, element, store } = await rootWith(indexName, { hitsPerPage: 10 });
    const field = document.createElement('input');
    field.setAttribute('aria-label', 'elsewhere');
    root.append(field);
    button(element, 'more').focus();
    button(element, 'more').click();
    field.focus();
    await settled(store);
    await waitUntil(() => items(element).length === 20);
    await element.updateComplete;
    expect(document.activeElement).to.equal(field);
  });

  it('fires svc-show-more on a user action only', async () => {
    const { element, store } = await rootWith(indexName, { hitsPerPage: 10, page: 1 });
    const events: SvcShowMoreEventDetail[] = [];
    element.addEventListener('svc-show-more', (e) => events.push(e.detail));
    const fired = oneEvent(element, 'svc-show-more');
    button(element, 'more').click();
    expect((await fired).detail).to.deep.equal({ page: 2, direction: 'more' });
    await settled(store);
    await element.updateComplete;
    button(element, 'previous').click();
    await settled(store);
    expect(events).to.deep.equal([
      { page: 2, direction: 'more' },
      { page: 0, direction: 'previous' },
    ]);
    element.showMore(); // the method: same effect, no event
    await settled(store);
    store.setQuery('dell');
    await settled(store);
    expect(events).to.have.length(2);
    expect(store.getSnapshot().state.page).to.equal(0);
  });

  it('renders with renderHit, and the default rendering highlights the attribute', async () => {
    const { element, store } = await rootWith(
      indexName,
      { hitsPerPage: 10, query: 'notebok' },
      html`<svc-infinite-hits attribute="name"></svc-infinite-hits>`,
    );
    expect(items(element)).to.have.length(10);
    expect(shadow(element).querySelectorAll('li mark[part="highlighted"]').length).to.equal(10);
    await press(element, 'more');
    expect(items(element)).to.have.length(12);
    element.renderHit = (hit, { position, index }) => html`<strong>${position}/${index}: ${hit.objectID}</strong>`;
    await element.updateComplete;
    expect(
      items(element)
        .map((li) => li.textContent!.trim())
        .slice(9, 12),
    ).to.deep.equal(['10/9: p28', '11/0: p31', '12/1: p34']);
    expect(store.getSnapshot().state.page).to.equal(1);
  });

  it('shows the empty state and the error in a live region', async () => {
    const { element, store } = await rootWith(indexName, { query: 'qqqqxxxzzz' });
    const status = shadow(element).querySelector('[role="status"]')!;
    expect(status.textContent!.trim()).to.equal('No results for “qqqqxxxzzz”.');
    expect(shadow(element).querySelector('ol')!.hidden).to.be.true;
    expect(button(element, 'more').hidden).to.be.true;
    element.translations = { noResults: 'Aucun résultat pour « {query} ».', showMore: 'Plus de résultats' };
    await element.updateComplete;
    expect(status.textContent!.trim()).to.equal('Aucun résultat pour « qqqqxxxzzz ».');
    expect(button(element, 'more').textContent!.trim()).to.equal('Plus de résultats');
    expect(store.getSnapshot().results!.nbHits).to.equal(0);

    const broken =
      await fixture<SvcSearch>(html`<svc-search app-id=${APP_ID} api-key="not-a-key" index-name=${indexName}
      hosts=${location.origin} insights="false"><svc-infinite-hits></svc-infinite-hits></svc-search>`);
    await settled(broken.store!);
    const failed = broken.querySelector('svc-infinite-hits')!;
    await failed.updateComplete;
    const error = shadow(failed).querySelector('[part="error"]')!;
    expect(error.textContent).to.equal('The search is unavailable right now. Please try again.');
    expect(error.closest('[role="status"]')).to.exist;
    expect(button(failed, 'more').hidden).to.be.true;
  });

  it('never executes nor injects hostile record values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const root = await searchFixture(
      hostileIndex,
      html`<svc-infinite-hits>
          <template>
            <a data-href="url" data-attr-title="name" data-attr-onclick="name" data-attr-style="name"><img data-src="image" data-attr-alt="brand" /></a>
            <svc-highlight attribute="name"></svc-highlight> <svc-snippet attribute="description"></svc-snippet> <span data-text="category"></span>
          </template>
        </svc-infinite-hits>
        <svc-infinite-hits id="default"></svc-infinite-hits>`,
    );
    root.store!.setQuery('phone');
    await settled(root.store!);
    const element = root.querySelector('svc-infinite-hits')!;
    await element.updateComplete;
    await sleep(100); // let any injected image error handler run
    expect(items(element)).to.have.length(2);
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(deepQueryAll(root, 'script, [onerror], [onload], [onmouseover], [onclick], svg, b, [style]')).to.deep.equal(
      [],
    );
    const [first, second] = [
      items(element).find((li) => li.dataset.svcObjectId === 'evil1')!,
      items(element).find((li) => li.dataset.svcObjectId === 'evil2')!,
    ];
    expect(first.querySelector('a')!.hasAttribute('href')).to.be.false;
    expect(second.querySelector('a')!.hasAttribute('href')).to.be.false;
    expect(second.querySelector('img')!.hasAttribute('src')).to.be.false;
    expect(first.querySelector('a')!.getAttribute('title')).to.equal(HOSTILE[0].name);
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal('Evil <script>window.__svcPwned = 1</script> phone');
    expect(highlight.shadowRoot!.querySelector('mark')!.textContent).to.equal('phone');
    expect(second.querySelector('span')!.textContent).to.equal(HOSTILE[1].category);
    const fallback = root.querySelector('#default')!;
    await waitUntil(() => items(fallback).length === 2);
    expect(items(fallback).map((li) => li.textContent!.trim())).to.include(
      'Evil <script>window.__svcPwned = 1</script> phone',
    );
  });

  describe('Insights (read back from the service)', () => {
    beforeEach(() => resetInsightsStorage());

    it('views and clicks carry each hit’s own page’s queryID and absolute position', async () => {
      const { root, element, store } = await rootWith(
        indexName,
        { hitsPerPage: 10 },
        html`<style>svc-infinite-hits::part(item) { block-size: 20px; padding: 0; overflow: hidden; }</style><svc-infinite-hits></svc-infinite-hits>`,
        true,
      );
      const insights = root.insights!;
      const userToken = insights.userToken!;
      const firstQueryID = store.getSnapshot().results!.queryID!;
      expect(firstQueryID).to.be.a('string');
      await press(element, 'more');
      const secondQueryID = store.getSnapshot().results!.queryID!;
      expect(secondQueryID).to.be.a('string').and.not.equal(firstQueryID);
      const lis = items(element);
      expect(lis.slice(0, 10).every((li) => li.dataset.svcQueryId === firstQueryID)).to.be.true;
      expect(lis.slice(10).every((li) => li.dataset.svcQueryId === secondQueryID)).to.be.true;

      lis[12]!.scrollIntoView({ block: 'center' });
      await frames(3);
      await sleep(300); // the view batch closes
      lis[12]!.click(); // third hit of the second page
      lis[1]!.click(); // second hit of the first page
      await insights.flush();

      await eventually(async () => (await storedEvents(userToken, 'click')).length === 2);
      const clicks = await storedEvents(userToken, 'click');
      expect(clicks.map((e) => [e.eventName, e.index, e.queryID, e.objectIDs, e.positions])).to.deep.equal([
        ['Hit Clicked', indexName, secondQueryID, ['p12'], [13]],
        ['Hit Clicked', indexName, firstQueryID, ['p1'], [2]],
      ]);
      // The service's own record of each search agrees on the position.
      expect(clicks.map((e) => e.search?.positions)).to.deep.equal([[13], [2]]);

      const views = await storedEvents(userToken, 'view');
      const viewed = (queryID: string) => views.filter((e) => e.queryID === queryID).flatMap((e) => e.objectIDs ?? []);
      expect(viewed(secondQueryID)).to.include('p12');
      expect(
        viewed(secondQueryID).every((id) => Number(id.slice(1)) >= 10),
        'page 2 hits under page 2’s queryID',
      ).to.be.true;
      expect(
        viewed(firstQueryID).every((id) => Number(id.slice(1)) < 10),
        'page 1 hits under page 1’s queryID',
      ).to.be.true;
      expect(views.every((e) => e.eventName === 'Hits Viewed' && e.index === indexName)).to.be.true;
    });
  });
});
