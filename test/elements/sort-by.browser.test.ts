import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcSortBy } from '../../src/elements/sort-by/svc-sort-by.js';
import '../../src/elements/sort-by/define.js';
import { admin, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const RELEVANCE = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

async function waitTask(indexName: string, taskID: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const task = await admin.request<{ status: string }>(
      'GET',
      `/1/indexes/${encodeURIComponent(indexName)}/task/${taskID}`,
    );
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskID} of ${indexName} not published`);
}

/** An index with two sort-by replicas, by price ascending and descending. */
async function indexWithReplicas(): Promise<{ primary: string; asc: string; desc: string }> {
  const primary = await createIndex('svc_sort_el');
  const asc = `${primary}_price_asc`;
  const desc = `${primary}_price_desc`;
  const set = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${primary}/settings`, {
    replicas: [asc, desc],
  });
  await waitTask(primary, set.taskID);
  for (const [replica, order] of [
    [asc, 'asc(price)'],
    [desc, 'desc(price)'],
  ]) {
    const task = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${replica}/settings`, {
      ranking: [order, ...RELEVANCE],
    });
    await waitTask(replica, task.taskID);
  }
  return { primary, asc, desc };
}

const select = (element: SvcSortBy) => shadow(element).querySelector<HTMLSelectElement>('select[part="select"]')!;
const prices = (root: { store?: { getSnapshot(): { results: { hits: Array<Record<string, unknown>> } | null } } }) =>
  root.store!.getSnapshot().results!.hits.map((hit) => hit.price as number);

describe('<svc-sort-by>', () => {
  let names: { primary: string; asc: string; desc: string };
  before(async () => {
    names = await indexWithReplicas();
  });

  async function setup(content?: ReturnType<typeof html>) {
    const root = await searchFixture(
      names.primary,
      content ??
        html`<svc-sort-by>
          <option value=${names.primary}>Most relevant</option>
          <option value=${names.asc}>Lowest price</option>
          <option value=${names.desc}>Highest price</option>
        </svc-sort-by>`,
    );
    const element = root.querySelector('svc-sort-by')!;
    await element.updateComplete;
    return { root, element, store: root.store! };
  }

  it('is accessible', async () => {
    const { element } = await setup();
    await expect(element).to.be.accessible();
  });

  it('renders a labelled select of the <option> children, the current index selected', async () => {
    const { element } = await setup();
    const label = shadow(element).querySelector('label')!;
    expect(label.textContent!.trim()).to.equal('Sort by');
    expect(label.htmlFor).to.equal(select(element).id);
    expect([...select(element).options].map((o) => [o.value, o.textContent!.trim()])).to.deep.equal([
      [names.primary, 'Most relevant'],
      [names.asc, 'Lowest price'],
      [names.desc, 'Highest price'],
    ]);
    expect(select(element).value).to.equal(names.primary);
    expect(element.value).to.equal(names.primary);
  });

  it('switches to a replica with the keyboard, fires svc-sort-change, keeps query and refinements, back to page 1', async () => {
    const { root, element, store } = await setup();
    store.setQuery('notebok');
    store.toggleRefinement('brand', 'Lenovo', 'or');
    store.setHitsPerPage(2);
    store.setPage(1);
    await settled(store);
    select(element).focus();
    const changed = oneEvent(element, 'svc-sort-change');
    await sendKeys({ press: 'ArrowDown' }); // Lowest price
    expect((await changed).detail).to.deep.equal({ value: names.asc });
    await settled(store);
    const { state, results } = store.getSnapshot();
    expect(state.indexName).to.equal(names.asc);
    expect(store.baseIndex).to.equal(names.primary);
    expect(state.query).to.equal('notebok');
    expect(state.disjunctiveFacetRefinements.brand).to.deep.equal(['Lenovo']);
    expect(state.page).to.equal(0);
    expect(results!.nbHits).to.equal(6);
    expect(prices(root)).to.deep.equal([140, 200]);

    await sendKeys({ press: 'ArrowDown' }); // Highest price
    await settled(store);
    expect(store.getSnapshot().state.indexName).to.equal(names.desc);
    expect(prices(root)).to.deep.equal([440, 380]);
  });

  it('shows changes made elsewhere without firing events', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-sort-change', () => fired++);
    store.setIndex(names.desc);
    await settled(store);
    await element.updateComplete;
    expect(select(element).value).to.equal(names.desc);
    element.refine(names.primary);
    await settled(store);
    await element.updateComplete;
    expect(select(element).value).to.equal(names.primary);
    expect(fired).to.equal(0);
  });

  it('takes items as a property, follows changed <option> children, and refuses an unknown index', async () => {
    const { element, store } = await setup(html`<svc-sort-by hide-label></svc-sort-by>`);
    element.items = [
      { value: names.primary, label: 'Featured' },
      { value: names.desc, label: 'Price: high to low' },
    ];
    await element.updateComplete;
    expect([...select(element).options].map((o) => o.textContent!.trim())).to.deep.equal([
      'Featured',
      'Price: high to low',
    ]);
    expect(shadow(element).querySelector('label')!.classList.contains('visually-hidden')).to.be.true;
    expect(() => element.refine('no_such_index')).to.throw(RangeError, /no_such_index.*not one of the sort orders/);
    element.items = undefined;
    const option = document.createElement('option');
    option.value = names.asc;
    option.textContent = 'Cheapest';
    element.append(option);
    await new Promise((r) => setTimeout(r));
    await element.updateComplete;
    expect([...select(element).options].map((o) => o.textContent!.trim())).to.deep.equal(['Cheapest']);
    expect(store.getSnapshot().state.indexName).to.equal(names.primary);
  });

  it('renders hostile labels as text', async () => {
    const { root, element } = await setup(html`<svc-sort-by></svc-sort-by>`);
    element.items = [
      { value: names.primary, label: '<img src=x onerror="window.__svcPwned = 12">' },
      { value: names.asc, label: '</option><script>window.__svcPwned = 13</script>' },
    ];
    element.translations = { label: '<b onmouseover="window.__svcPwned = 14">Sort</b>' };
    await element.updateComplete;
    expect(select(element).options[0].textContent).to.equal('<img src=x onerror="window.__svcPwned = 12">');
    expect(shadow(element).querySelector('label')!.textContent).to.contain('<b onmouseover');
    expect(deepQueryAll(root, 'img, script, b')).to.have.length(0);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
