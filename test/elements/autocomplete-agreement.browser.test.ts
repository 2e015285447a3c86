/**
 * The autocomplete box and the results never disagree, in real Chromium against the real service, with the
 * sequence of the shop: type "leathr chiar" in `<svc-autocomplete>`, then click a brand (a real mouse click on
 * the checkbox of `<svc-refinement-list>`). The box must show the query the results are for:
 * - default mode (suggestions only): the list closes and the box goes back to the results' query ("");
 * - `search-as-you-type`: the results follow the text, and the brand refines them.
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import type { SvcAutocomplete } from '../../src/elements/autocomplete/svc-autocomplete.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import '../../src/elements/autocomplete/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/stats/define.js';
import { admin, createIndex, searchFixture, settled, shadow } from './search-fixture.js';

const BRANDS = ['Hon', 'Global', 'Office Star'];
/** 30 chairs and desks, ten per brand; the leather chairs are the ones "leathr chiar" finds (typos). */
const FURNITURE = Array.from({ length: 30 }, (_, i) => ({
  objectID: `f${i}`,
  name: `${BRANDS[i % 3]} ${i % 2 ? 'Leather Chair' : 'Wooden Desk'} ${i}`,
  brand: BRANDS[i % 3],
  category: 'Furniture',
  rank: i,
}));

async function waitTask(indexName: string, taskID: number): Promise<void> {
  await waitUntil(
    async () =>
      (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status === 'published',
    'task',
  );
}

const field = (ac: SvcAutocomplete) => shadow(ac).querySelector('input')!;
const statsText = (root: SvcSearch) =>
  shadow(root.querySelector('svc-stats')!).textContent!.replace(/\s+/g, ' ').trim();

/** Clicks the brand's checkbox with the mouse (the focus leaves the box as it would for a user). */
async function clickBrand(root: SvcSearch, brand: string): Promise<void> {
  const list = root.querySelector('svc-refinement-list')!;
  const box = [...shadow(list).querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].find(
    (checkbox) => checkbox.value === brand,
  )!;
  const rect = box.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(rect.x + rect.width / 2), Math.round(rect.y + rect.height / 2)],
  });
}

describe('<svc-autocomplete> and the results agree (type "leathr chiar", then click a brand)', () => {
  let indexName: string;

  before(async () => {
    indexName = await createIndex('svc_ac_agree', FURNITURE, {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['brand', 'category'],
    });
    const suggestions = `${indexName}_query_suggestions`;
    const set = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${suggestions}/settings`, {
      searchableAttributes: ['query'],
      customRanking: ['desc(popularity)'],
    });
    await waitTask(suggestions, set.taskID);
    const batch = await admin.request<{ taskID: number }>('POST', `/1/indexes/${suggestions}/batch`, {
      requests: ['leather chair', 'wooden desk'].map((query, i) => ({
        action: 'addObject',
        body: { objectID: query, query, popularity: 10 - i },
      })),
    });
    await waitTask(suggestions, batch.taskID);
  });

  async function shop(mode: 'default' | 'search-as-you-type') {
    const root = await searchFixture(
      indexName,
      html`${
        mode === 'default'
          ? html`<svc-autocomplete></svc-autocomplete>`
          : html`<svc-autocomplete search-as-you-type></svc-autocomplete>`
      }
        <svc-stats></svc-stats>
        <svc-refinement-list attribute="brand"></svc-refinement-list>
        <svc-hits></svc-hits>`,
    );
    const ac = root.querySelector('svc-autocomplete')!;
    await waitUntil(() => /^30 results/.test(statsText(root)), 'the first results');
    ac.focus();
    await sendKeys({ type: 'leathr chiar' });
    await waitUntil(() => ac.suggestionsStatus === 'ready' && ac.expanded, 'the suggestions are listed');
    return { root, ac, store: root.store! };
  }

  it('default: typing asks for suggestions only; clicking a brand closes the list and the box shows the results’ query', async () => {
    let inputs = 0;
    const count = () => {
      inputs += 1;
    };
    document.addEventListener('svc-search-input', count);
    const { root, ac, store } = await shop('default');
    document.removeEventListener('svc-search-input', count);
    expect(inputs, 'no svc-search-input: the text is not the query').to.equal(0);
    expect(ac.suggestions).to.deep.equal(['leather chair']);
    expect(store.getSnapshot().state.query, 'typing did not search the results').to.equal('');
    await clickBrand(root, 'Hon');
    await settled(store);
    await ac.updateComplete;
    expect(ac.expanded).to.be.false;
    expect(store.getSnapshot().state.disjunctiveFacetRefinements).to.deep.equal({ brand: ['Hon'] });
    expect(store.getSnapshot().results!.query).to.equal('');
    expect(field(ac).value, 'the box shows the query of the results').to.equal('');
    await waitUntil(() => /^10 results/.test(statsText(root)), `10 Hon products (${statsText(root)})`);
    await expect(root).to.be.accessible();
  });

  it('search-as-you-type: the results follow the text; clicking a brand refines them and the box keeps the text', async () => {
    const typed: string[] = [];
    const record = (event: CustomEvent<{ query: string }>) => {
      typed.push(event.detail.query);
    };
    document.addEventListener('svc-search-input', record);
    const { root, ac, store } = await shop('search-as-you-type');
    document.removeEventListener('svc-search-input', record);
    await settled(store);
    expect(store.getSnapshot().results!.query).to.equal('leathr chiar');
    expect(typed.at(-1), 'svc-search-input for each change').to.equal('leathr chiar');
    expect(typed).to.have.length('leathr chiar'.length);
    await waitUntil(() => /^15 results/.test(statsText(root)), `the 15 leather chairs (${statsText(root)})`);
    await clickBrand(root, 'Hon');
    await settled(store);
    await ac.updateComplete;
    expect(ac.expanded).to.be.false;
    expect(field(ac).value).to.equal('leathr chiar');
    expect(store.getSnapshot().results!.query, 'the results are for the text shown').to.equal('leathr chiar');
    await waitUntil(() => /^5 results/.test(statsText(root)), `the 5 Hon leather chairs (${statsText(root)})`);
    await expect(root).to.be.accessible();
  });
});
