import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcRefinementList } from '../../src/elements/refinement-list/svc-refinement-list.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/hits/define.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const rows = (list: SvcRefinementList) =>
  [...shadow(list).querySelectorAll('li')].map((li) => ({
    label: li.querySelector('[part="label-text"]')!.textContent!.trim(),
    count: li.querySelector('[part="count"]')!.textContent!.trim(),
    checked: li.querySelector('input')!.checked,
  }));
const labels = (list: SvcRefinementList) => rows(list).map((row) => row.label);

describe('<svc-refinement-list>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_refinement_el');
    hostileIndex = await createIndex('svc_refinement_hostile', HOSTILE);
  });

  async function setup(list = html`<svc-refinement-list attribute="brand"></svc-refinement-list>`, insights = false) {
    const root = await searchFixture(indexName, html`${list}<svc-hits attribute="brand"></svc-hits>`, { insights });
    const element = root.querySelector('svc-refinement-list')!;
    await element.updateComplete;
    return { root, list: element, store: root.store! };
  }

  it('is accessible', async () => {
    const { list } = await setup(
      html`<svc-refinement-list attribute="brand" searchable show-more limit="3"></svc-refinement-list>`,
    );
    await expect(list).to.be.accessible();
  });

  it('shows checkboxes with labels and counts, by count then name', async () => {
    const { list } = await setup();
    expect(rows(list)).to.deep.equal(
      ['Apple', 'Dell', 'Google', 'Lenovo', 'Samsung', 'Sony'].map((label) => ({ label, count: '6', checked: false })),
    );
    expect(shadow(list).querySelector('ul')!.getAttribute('aria-label')).to.equal('Filter by brand');
    // The query changes the counts.
    const root = list.closest('svc-search')!;
    root.store!.setQuery('model 1'); // p1, p10…p19
    await settled(root.store!);
    await list.updateComplete;
    expect(rows(list)[0]).to.deep.include({ label: 'Samsung', count: '3' }); // p1, p13, p19
  });

  it('refines with the keyboard (Space), fires svc-refine, keeps OR counts and puts refined values first', async () => {
    const { list, store, root } = await setup();
    const checkboxes = () => [...shadow(list).querySelectorAll('input[type="checkbox"]')] as HTMLInputElement[];
    checkboxes()[2].focus(); // Google
    const refine = oneEvent(list, 'svc-refine');
    await sendKeys({ press: 'Space' });
    expect((await refine).detail).to.deep.equal({ attribute: 'brand', value: 'Google', refined: true });
    await settled(store);
    await list.updateComplete;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Google'] });
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect([...shadow(hits).querySelectorAll('li')].map((li) => li.textContent!.trim())).to.deep.equal(
      Array(6).fill('Google'),
    );
    // Disjunctive: the other brands keep their counts; the refined value comes first.
    expect(rows(list)[0]).to.deep.equal({ label: 'Google', count: '6', checked: true });
    expect(rows(list).map((row) => row.count)).to.deep.equal(Array(6).fill('6'));
    // Tab to the next checkbox and add it (OR).
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Space' });
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(12);
    // Unchecking fires refined: false.
    checkboxes()[0].focus();
    const off = oneEvent(list, 'svc-refine');
    await sendKeys({ press: 'Space' });
    expect((await off).detail.refined).to.be.false;
  });

  it('follows a typo query: only the matching brand is left', async () => {
    const { list, store } = await setup();
    store.setQuery('samsng'); // typo of Samsung
    await settled(store);
    await list.updateComplete;
    expect(rows(list)).to.deep.equal([{ label: 'Samsung', count: '6', checked: false }]);
  });

  it('counts a refined value that is not among the top values of its facet', async () => {
    const { list, store } = await setup(html`<svc-refinement-list attribute="brand" limit="2"></svc-refinement-list>`);
    expect(labels(list)).to.deep.equal(['Apple', 'Dell']);
    store.toggleRefinement('brand', 'Sony', 'or');
    await settled(store);
    await list.updateComplete;
    expect(rows(list)[0]).to.deep.equal({ label: 'Sony', count: '6', checked: true });
  });

  it('with operator="and", requires all values and counts within the results', async () => {
    const { list, store } = await setup(
      html`<svc-refinement-list attribute="category" operator="and"></svc-refinement-list>`,
    );
    shadow(list).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click(); // Headphones (12, first by name)
    await settled(store);
    await list.updateComplete;
    expect(store.getSnapshot().state.facetRefinements).to.deep.equal({ category: ['Headphones'] });
    expect(rows(list)).to.deep.equal([{ label: 'Headphones', count: '12', checked: true }]);
  });

  it('shows more and less', async () => {
    const { list } = await setup(
      html`<svc-refinement-list attribute="brand" limit="2" show-more show-more-limit="4"></svc-refinement-list>`,
    );
    expect(labels(list)).to.deep.equal(['Apple', 'Dell']);
    const button = shadow(list).querySelector<HTMLButtonElement>('[part="show-more"]')!;
    expect(button.hidden).to.be.false;
    expect(button.textContent!.trim()).to.equal('Show more');
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    button.focus();
    await sendKeys({ press: 'Enter' });
    await list.updateComplete;
    expect(labels(list)).to.deep.equal(['Apple', 'Dell', 'Google', 'Lenovo']);
    expect(button.textContent!.trim()).to.equal('Show less');
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    list.translations = { showLess: 'Moins' };
    await list.updateComplete;
    expect(button.textContent!.trim()).to.equal('Moins');
    button.click();
    await list.updateComplete;
    expect(labels(list)).to.deep.equal(['Apple', 'Dell']);
  });

  it('sorts by sort-by', async () => {
    const { list } = await setup(
      html`<svc-refinement-list attribute="brand" sort-by="name:desc"></svc-refinement-list>`,
    );
    expect(labels(list)).to.deep.equal(['Sony', 'Samsung', 'Lenovo', 'Google', 'Dell', 'Apple']);
  });

  it('searches values (search for facet values) with highlighted matches; Enter picks, Escape clears', async () => {
    const { list, store } = await setup(html`<svc-refinement-list attribute="brand" searchable></svc-refinement-list>`);
    const search = shadow(list).querySelector<HTMLInputElement>('[part="search-input"]')!;
    expect(search.getAttribute('aria-label')).to.equal('Search the values of brand');
    search.focus();
    await sendKeys({ type: 'len' });
    await waitUntil(() => labels(list).join() === 'Lenovo', 'facet search did not answer');
    expect(shadow(list).querySelector('[part="label-text"] mark')!.textContent).to.equal('Len');
    expect(store.requestLog.some((entry) => entry.kind === 'searchForFacetValues')).to.be.true;
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await list.updateComplete;
    expect(store.isRefined('brand', 'Lenovo')).to.be.true;
    expect(search.value).to.equal(''); // picking a value ends the facet search
    expect(labels(list)).to.have.length(6);

    await sendKeys({ type: 'zzz' });
    await waitUntil(() => !!shadow(list).querySelector('[part="no-results"]'));
    expect(shadow(list).querySelector('[part="no-results"]')!.textContent).to.equal('No values match “zzz”.');
    await sendKeys({ press: 'Escape' });
    await list.updateComplete;
    expect(search.value).to.equal('');
    expect(labels(list)).to.have.length(6);
  });

  it('sends Filter Applied to insights when a value is turned on, not off', async () => {
    const { list, root, store } = await setup(
      html`<svc-refinement-list attribute="brand"></svc-refinement-list>`,
      true,
    );
    await waitUntil(() => !!store.getSnapshot().results?.queryID);
    const queryID = store.getSnapshot().results!.queryID;
    const events: Array<{ eventName: string; filters?: string[]; queryID?: string }> = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventName === 'Filter Applied') events.push(e.detail.event); // not the hits' views
    });
    const sony = () =>
      [...shadow(list).querySelectorAll('li')].find((li) => li.textContent!.includes('Sony'))!.querySelector('input')!;
    sony().click();
    await settled(store);
    await waitUntil(() => events.length === 1);
    expect(events[0]).to.deep.include({ eventName: 'Filter Applied', queryID });
    expect(events[0].filters).to.deep.equal(['brand:Sony']);
    await list.updateComplete;
    sony().click();
    await settled(store);
    await new Promise((r) => setTimeout(r, 50));
    expect(events).to.have.length(1);
  });

  it('says clearly when attribute is missing', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (message: string) => void errors.push(message);
    try {
      const { list } = await setup(html`<svc-refinement-list></svc-refinement-list>`);
      expect(list.items).to.deep.equal([]);
      expect(errors).to.deep.equal([
        '<svc-refinement-list>: the `attribute` attribute is required (the facet to list).',
      ]);
    } finally {
      console.error = original;
    }
  });

  it('never executes nor injects hostile facet values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const root = await searchFixture(
      hostileIndex,
      html`<svc-refinement-list attribute="brand" searchable></svc-refinement-list>
        <svc-refinement-list attribute="category"></svc-refinement-list>`,
    );
    const [brands, categories] = root.querySelectorAll('svc-refinement-list');
    await brands.updateComplete;
    await categories.updateComplete;
    expect(labels(brands)).to.include(HOSTILE[0].brand);
    expect(labels(categories)).to.include(HOSTILE[1].category);
    const search = shadow(brands).querySelector<HTMLInputElement>('[part="search-input"]')!;
    search.focus();
    await sendKeys({ type: 'img' });
    await waitUntil(() => labels(brands).length === 1, 'facet search did not answer');
    expect(labels(brands)[0]).to.equal(HOSTILE[0].brand);
    expect(shadow(brands).querySelector('mark')!.textContent).to.equal('img');
    shadow(categories).querySelector<HTMLInputElement>('input')!.click();
    await settled(root.store!);
    await new Promise((r) => setTimeout(r, 100));
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(deepQueryAll(root, 'img, script, [onerror]')).to.deep.equal([]);
  });
});
