/**
 * <svc-autocomplete> in real Chromium against the real local service: a source index and its suggestions
 * index (Query Suggestions records written through the API, and one built by the service from a
 * configuration), the ARIA 1.2 combobox, the keyboard (sendKeys), the mouse (sendMouse), the events, the
 * store's request log (one suggestions request per keystroke at most) and hostile record values.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys, sendMouse } from '@web/test-runner-commands';
import type { SvcAutocomplete } from '../../src/elements/autocomplete/svc-autocomplete.js';
import type { SearchStore } from '../../src/store/types.js';
import '../../src/elements/autocomplete/define.js';
import '../../src/elements/hits/define.js';
import {
  HOSTILE,
  PRODUCTS,
  admin,
  createIndex,
  deepQueryAll,
  searchFixture,
  settled,
  shadow,
} from './search-fixture.js';

/** A Query Suggestions record as the service builds them (document 2's shape), for the source `source`. */
function suggestion(source: string, query: string, popularity: number, category?: string) {
  return {
    objectID: query,
    query,
    popularity,
    nb_words: query.split(' ').length,
    [source]: {
      exact_nb_hits: 6,
      facets: { exact_matches: category ? { category: [{ value: category, count: 6 }] } : {} },
    },
  };
}

async function waitTask(indexName: string, taskID: number): Promise<void> {
  await waitUntil(
    async () =>
      (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status === 'published',
    'task',
  );
}

/** Writes a suggestions index the way the service's build does: searchable `query`, ranked by popularity. */
async function suggestionsIndex(indexName: string, records: Array<Record<string, unknown>>): Promise<void> {
  const set = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/settings`, {
    searchableAttributes: ['query'],
    customRanking: ['desc(popularity)'],
  });
  await waitTask(indexName, set.taskID);
  const batch = await admin.request<{ taskID: number }>('POST', `/1/indexes/${indexName}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(indexName, batch.taskID);
}

const field = (ac: SvcAutocomplete) => shadow(ac).querySelector('input')!;
const listbox = (ac: SvcAutocomplete) => shadow(ac).querySelector<HTMLElement>('[role="listbox"]')!;
const options = (ac: SvcAutocomplete) => [...shadow(ac).querySelectorAll<HTMLElement>('[role="option"]')];
const texts = (ac: SvcAutocomplete) =>
  options(ac).map((option) => option.querySelector('[part~="query"]')!.textContent);
/** Suggestions requests that went to the network (not answered by the cache). */
const sentSuggestions = (store: SearchStore, from = 0) =>
  store.requestLog.slice(from).filter((entry) => entry.kind === 'multiSearch' && !entry.cached);

/** Waits until the list shows suggestions for the text typed (or is closed when `count` is 0). */
async function listed(ac: SvcAutocomplete, count: number): Promise<void> {
  // The answer for the latest text (an earlier text's answer may list as many).
  await waitUntil(
    () => ac.suggestionsStatus !== 'loading' && options(ac).length === count && (count === 0 || ac.expanded),
    `${count} suggestions listed (got ${texts(ac).join(', ')})`,
  );
  await ac.updateComplete;
}

describe('<svc-autocomplete>', () => {
  let indexName: string;

  before(async () => {
    indexName = await createIndex('svc_autocomplete');
    // Default suggestions index name: <index>_query_suggestions.
    await suggestionsIndex(`${indexName}_query_suggestions`, [
      suggestion(indexName, 'smartphone', 100, 'Phones'),
      suggestion(indexName, 'samsung', 90, 'Phones'),
      suggestion(indexName, 'sony', 80, 'Headphones'),
      suggestion(indexName, 'samsung smartphone', 50, 'Phones'),
      suggestion(indexName, 'samsung notebook', 40, 'Laptops'),
      suggestion(indexName, 'sony headset', 30, 'Headphones'),
      suggestion(indexName, 'apple notebook', 20, 'Laptops'),
      suggestion(indexName, 'dell', 10),
    ]);
  });

  async function setup(
    attributes = html`<svc-autocomplete category-attribute="category"></svc-autocomplete>`,
    options: { insights?: boolean } = {},
  ) {
    const root = await searchFixture(indexName, html`${attributes}<svc-hits></svc-hits>`, options);
    const ac = root.querySelector('svc-autocomplete')!;
    await ac.updateComplete;
    return { root, ac, store: root.store! };
  }

  async function type(ac: SvcAutocomplete, text: string, count: number) {
    ac.focus();
    await sendKeys({ type: text });
    await listed(ac, count);
  }

  it('is accessible, closed and open', async () => {
    const { ac } = await setup();
    await expect(ac).to.be.accessible();
    await type(ac, 'sa', 3);
    await sendKeys({ press: 'ArrowDown' });
    await ac.updateComplete;
    await expect(ac).to.be.accessible();
  });

  it('is a search landmark whose field is a combobox controlling a listbox in the same shadow root', async () => {
    const { ac } = await setup();
    const form = shadow(ac).querySelector('form')!;
    expect(form.getAttribute('role')).to.equal('search');
    expect(form.getAttribute('aria-busy')).to.equal('false');
    const input = field(ac);
    expect(shadow(ac).querySelector(`label[for="${input.id}"]`)!.textContent).to.equal('Search');
    expect(input.getAttribute('role')).to.equal('combobox');
    expect(input.getAttribute('aria-autocomplete')).to.equal('list');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.hasAttribute('aria-activedescendant')).to.be.false;
    const controlled = shadow(ac).getElementById(input.getAttribute('aria-controls')!)!;
    expect(controlled).to.equal(listbox(ac));
    expect(controlled.getAttribute('aria-label')).to.equal('Suggestions');
    expect(controlled.hidden).to.be.true;
    expect(shadow(ac).querySelector<HTMLButtonElement>('[part~="reset"]')!.hidden).to.be.true;
  });

  it('lists the highlighted suggestions with their category, most popular first, and announces their number', async () => {
    const { ac } = await setup();
    await type(ac, 'sam', 3);
    expect(field(ac).getAttribute('aria-expanded')).to.equal('true');
    expect(listbox(ac).hidden).to.be.false;
    expect(texts(ac)).to.deep.equal(['samsung', 'samsung smartphone', 'samsung notebook']);
    const first = options(ac)[0]!;
    expect(first.querySelector('mark[part~="highlighted"]')!.textContent).to.equal('sam');
    expect(first.querySelector('[part~="category"]')!.textContent).to.equal('in Phones');
    expect(options(ac)[2]!.querySelector('[part~="category"]')!.textContent).to.equal('in Laptops');
    expect(options(ac).map((option) => option.getAttribute('aria-selected'))).to.deep.equal([
      'false',
      'false',
      'false',
    ]);
    expect(shadow(ac).querySelector('p[role="status"]')!.textContent).to.equal('3 suggestions');
    // Typing asks for suggestions only: the main query is unchanged.
    expect(ac.store!.getSnapshot().state.query).to.equal('');
  });

  it('max-suggestions caps the list; without category-attribute no category is shown', async () => {
    const { ac } = await setup(html`<svc-autocomplete max-suggestions="2"></svc-autocomplete>`);
    await type(ac, 's', 2);
    expect(texts(ac)).to.deep.equal(['smartphone', 'samsung']);
    expect(shadow(ac).querySelector('[part~="category"]')).to.equal(null);
    expect(shadow(ac).querySelector('p[role="status"]')!.textContent).to.equal('2 suggestions');
  });

  it('ArrowDown / ArrowUp move the active option and wrap; aria-activedescendant and aria-selected follow', async () => {
    const { ac } = await setup();
    await type(ac, 'sam', 3);
    const input = field(ac);
    const active = () => input.getAttribute('aria-activedescendant');
    const selected = () => options(ac).map((option) => option.getAttribute('aria-selected') === 'true');
    for (const [key, index] of [
      ['ArrowDown', 0],
      ['ArrowDown', 1],
      ['ArrowDown', 2],
      ['ArrowDown', 0],
      ['ArrowUp', 2],
      ['ArrowUp', 1],
    ] as const) {
      await sendKeys({ press: key });
      await ac.updateComplete;
      expect(active(), `${key} → ${index}`).to.equal(options(ac)[index]!.id);
      expect(shadow(ac).getElementById(active()!)!.getAttribute('role')).to.equal('option');
      expect(selected()).to.deep.equal([0, 1, 2].map((i) => i === index));
      expect(options(ac)[index]!.part.contains('option-active')).to.be.true;
    }
    expect(input.value).to.equal('sam', 'the text stays as typed until a choice');
    expect(document.activeElement).to.equal(ac);
    expect(shadow(ac).activeElement).to.equal(input);
  });

  it('Enter on the active option makes it the query: one search, first page, svc-suggestion-select, list closed', async () => {
    const { ac, store } = await setup();
    store.setPage(2);
    await settled(store);
    await type(ac, 'sam', 3);
    for (let i = 0; i < 3; i++) await sendKeys({ press: 'ArrowDown' });
    const searches = store.requestLog.filter((entry) => entry.kind === 'search').length;
    const submits: string[] = [];
    ac.addEventListener('svc-search-submit', (event) => submits.push(event.detail.query));
    const event = oneEvent(ac, 'svc-suggestion-select');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.equal({ query: 'samsung notebook' });
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('samsung notebook');
    expect(store.getSnapshot().state.page).to.equal(0);
    expect(store.requestLog.filter((entry) => entry.kind === 'search').length - searches).to.equal(1);
    expect(submits, 'the form was not submitted too').to.deep.equal([]);
    await ac.updateComplete;
    expect(field(ac).value).to.equal('samsung notebook');
    expect(field(ac).getAttribute('aria-expanded')).to.equal('false');
    expect(field(ac).hasAttribute('aria-activedescendant')).to.be.false;
    expect(listbox(ac).hidden).to.be.true;
    // Samsung is every sixth product from p1, all notebooks: p1, p7, … p31.
    expect(store.getSnapshot().results!.hits.map((hit) => hit.objectID)).to.deep.equal([
      'p1',
      'p7',
      'p13',
      'p19',
      'p25',
      'p31',
    ]);
  });

  it('Enter without an active option searches the typed text (svc-search-submit, no svc-suggestion-select)', async () => {
    const { ac, store } = await setup();
    await type(ac, 'sony', 2);
    const selects: string[] = [];
    ac.addEventListener('svc-suggestion-select', (event) => selects.push(event.detail.query));
    const event = oneEvent(ac, 'svc-search-submit');
    await sendKeys({ press: 'Enter' });
    expect((await event).detail).to.deep.equal({ query: 'sony' });
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('sony');
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    expect(selects).to.deep.equal([]);
    expect(ac.expanded).to.be.false;
  });

  it('Escape closes the list (the text goes back to the results’ query), then clears the text and the query (svc-search-reset); ArrowDown opens it again', async () => {
    const { ac, store } = await setup();
    store.setQuery('dell');
    await settled(store);
    await ac.updateComplete;
    expect(field(ac).value).to.equal('dell', 'the field shows a query set elsewhere');
    field(ac).select();
    await type(ac, 'sam', 3);
    await sendKeys({ press: 'Escape' });
    await ac.updateComplete;
    expect(ac.expanded).to.be.false;
    expect(field(ac).value).to.equal('dell', 'never searched: the text of the results comes back');
    expect(store.getSnapshot().state.query).to.equal('dell');
    await waitUntil(() => ac.suggestionsStatus === 'ready', 'the suggestions of the text shown');
    await sendKeys({ press: 'ArrowDown' });
    await ac.updateComplete;
    expect(ac.suggestions[0]).to.equal('dell');
    expect(ac.expanded, 'ArrowDown opens a closed list').to.be.true;
    expect(field(ac).getAttribute('aria-activedescendant')).to.equal(options(ac)[0]!.id);
    await sendKeys({ press: 'Escape' });
    await ac.updateComplete;
    const reset = oneEvent(ac, 'svc-search-reset');
    let reachedDocument = false;
    const onKey = (event: KeyboardEvent) => (reachedDocument ||= event.key === 'Escape');
    document.addEventListener('keydown', onKey);
    await sendKeys({ press: 'Escape' });
    document.removeEventListener('keydown', onKey);
    expect((await reset).detail).to.deep.equal({ query: '' });
    expect(reachedDocument, 'Escape stops at the field (an enclosing dialog stays open)').to.be.false;
    await settled(store);
    await ac.updateComplete;
    expect(field(ac).value).to.equal('');
    expect(store.getSnapshot().state.query).to.equal('');
  });

  it('Tab and a click outside close the list; a click on an option selects it and keeps the focus in the field', async () => {
    const { ac, store } = await setup();
    await type(ac, 'sam', 3);
    await sendKeys({ press: 'Tab' });
    await ac.updateComplete;
    expect(ac.expanded, 'Tab').to.be.false;

    const outside = document.createElement('button');
    outside.textContent = 'elsewhere';
    document.body.append(outside);
    try {
      field(ac).focus();
      field(ac).select();
      await sendKeys({ type: 'sony' });
      await listed(ac, 2);
      const box = outside.getBoundingClientRect();
      await sendMouse({
        type: 'click',
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
      await ac.updateComplete;
      expect(ac.expanded, 'click outside').to.be.false;
    } finally {
      outside.remove();
    }

    field(ac).focus();
    field(ac).select();
    await sendKeys({ type: 'sam' });
    await listed(ac, 3);
    const option = options(ac)[2]!.getBoundingClientRect();
    const event = oneEvent(ac, 'svc-suggestion-select');
    await sendMouse({
      type: 'click',
      position: [Math.round(option.x + option.width / 2), Math.round(option.y + option.height / 2)],
    });
    expect((await event).detail.query).to.equal('samsung notebook');
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('samsung notebook');
    expect(shadow(ac).activeElement).to.equal(field(ac));
    expect(ac.expanded).to.be.false;
  });

  it('asks one suggestions request per keystroke at most, through the store: batched, cached, never the main index', async () => {
    const { ac, store } = await setup();
    const from = store.requestLog.length;
    const searches = store.requestLog.filter((entry) => entry.kind === 'search').length;
    ac.focus();
    for (const [i, key] of [...'sams'].entries()) {
      await sendKeys({ type: key });
      await waitUntil(() => sentSuggestions(store, from).length === i + 1, `request ${i + 1}`);
    }
    await listed(ac, 3);
    const sent = sentSuggestions(store, from);
    expect(sent).to.have.length(4);
    expect(
      sent.map(
        (entry) => (entry.body as { requests: Array<{ indexName: string; params: { query: string } }> }).requests,
      ),
    ).to.deep.equal(
      ['s', 'sa', 'sam', 'sams'].map((query) => [
        {
          indexName: `${indexName}_query_suggestions`,
          params: {
            query,
            hitsPerPage: 5,
            attributesToHighlight: ['query'],
            highlightPreTag: '__svc-highlight__',
            highlightPostTag: '__/svc-highlight__',
          },
        },
      ]),
    );
    // Back to a text already asked: the store's cache answers, nothing is sent.
    await sendKeys({ press: 'Backspace' });
    await waitUntil(
      () => store.requestLog.slice(from).some((entry) => entry.kind === 'multiSearch' && entry.cached),
      'answered from the cache',
    );
    expect(sentSuggestions(store, from)).to.have.length(4);
    // Clearing the text asks nothing.
    field(ac).select();
    await sendKeys({ press: 'Backspace' });
    await listed(ac, 0);
    expect(sentSuggestions(store, from)).to.have.length(4);
    expect(
      store.requestLog.filter((entry) => entry.kind === 'search').length,
      'no search of the main index while typing',
    ).to.equal(searches);
  });

  it('with search-as-you-type, one request per keystroke: the main search and the suggestions in one multi-query', async () => {
    const { ac, store } = await setup(html`<svc-autocomplete search-as-you-type></svc-autocomplete>`);
    await settled(store);
    const from = store.requestLog.length;
    ac.focus();
    let text = '';
    for (const key of 'sams') {
      text += key;
      await sendKeys({ type: key });
      // Both answers for this text are in: the results and the suggestions.
      await waitUntil(() => store.getSnapshot().results?.query === text, `results for "${text}"`);
      await listed(ac, text === 's' ? 5 : 3);
    }
    // Every call the store made to the service, whatever its kind (cache answers are not calls).
    const sent = store.requestLog.slice(from).filter((entry) => !entry.cached);
    expect(sent.map((entry) => entry.kind)).to.deep.equal(['search', 'search', 'search', 'search']);
    expect(
      sent.map((entry) =>
        (entry.body as { requests: Array<{ indexName: string; params: { query: string } }> }).requests.map(
          ({ indexName: name, params }) => `${name} ${params.query}`,
        ),
      ),
    ).to.deep.equal(
      ['s', 'sa', 'sam', 'sams'].map((query) => [`${indexName} ${query}`, `${indexName}_query_suggestions ${query}`]),
    );
  });

  it('in a hidden tab too (no animation frames), one request per keystroke with search-as-you-type', async () => {
    const { ac, store } = await setup(html`<svc-autocomplete search-as-you-type></svc-autocomplete>`);
    await settled(store);
    const from = store.requestLog.length;
    await executeServerCommand('page-visibility', { hidden: true });
    try {
      await waitUntil(() => document.visibilityState === 'hidden', 'the page is hidden behind another tab');
      let text = '';
      for (const key of 'sams') {
        text += key;
        // The keystroke's input event (a hidden page gets no key events from the keyboard).
        field(ac).value = text;
        field(ac).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
        await waitUntil(() => store.getSnapshot().results?.query === text, `results for "${text}"`);
        await listed(ac, text === 's' ? 5 : 3);
      }
      expect(document.visibilityState, 'still hidden: no frame ran the searches').to.equal('hidden');
    } finally {
      await executeServerCommand('page-visibility', { hidden: false });
    }
    const sent = store.requestLog.slice(from).filter((entry) => !entry.cached);
    expect(
      sent.map((entry) =>
        (entry.body as { requests: Array<{ indexName: string; params: { query: string } }> }).requests.map(
          ({ indexName: name, params }) => `${name} ${params.query}`,
        ),
      ),
    ).to.deep.equal(
      ['s', 'sa', 'sam', 'sams'].map((query) => [`${indexName} ${query}`, `${indexName}_query_suggestions ${query}`]),
    );
  });

  it('two autocompletes asking in the same tick share one request', async () => {
    const { root, store } = await setup(
      html`<svc-autocomplete></svc-autocomplete><svc-autocomplete max-suggestions="3"></svc-autocomplete>`,
    );
    const [first, second] = [...root.querySelectorAll('svc-autocomplete')];
    const from = store.requestLog.length;
    for (const ac of [first!, second!]) {
      field(ac).value = 'so';
      field(ac).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    }
    await listed(first!, 2);
    await listed(second!, 2);
    const sent = sentSuggestions(store, from);
    expect(sent).to.have.length(1);
    expect((sent[0]!.body as { requests: unknown[] }).requests).to.have.length(2);
  });

  it('searches keep clickAnalytics and their queryID with insights on', async () => {
    const { ac, store } = await setup(html`<svc-autocomplete></svc-autocomplete>`, { insights: true });
    await type(ac, 'del', 1);
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    await settled(store);
    const last = store.requestLog.filter((entry) => entry.kind === 'search').at(-1)!;
    const params = (last.body as { requests: Array<{ params: Record<string, unknown> }> }).requests[0]!.params;
    expect(params.query).to.equal('dell');
    expect(params.clickAnalytics).to.equal(true);
    expect(store.getSnapshot().results!.queryID).to.match(/^[0-9a-f]{32}$/);
  });

  it('shows the suggestions of a configuration built by the service (generate, facets)', async () => {
    const source = await createIndex('svc_autocomplete_qs');
    const suggestions = `${source}_qs`;
    await admin.request('POST', '/1/configs', {
      indexName: suggestions,
      sourceIndices: [
        {
          indexName: source,
          generate: [['brand'], ['brand', 'category']],
          facets: [{ attribute: 'category', amount: 1 }],
          minHits: 1,
        },
      ],
    });
    await admin.request('POST', `/1/_local/configs/${suggestions}/build`);
    const root = await searchFixture(
      source,
      html`<svc-autocomplete suggestions-index=${suggestions} category-attribute="category"></svc-autocomplete>`,
    );
    const ac = root.querySelector('svc-autocomplete')!;
    // The brand, and the brand with each category it is found with on a record: Lenovo is every sixth product
    // from p4, so always the same category (4 + 6k ≡ 1 mod 3: Laptops) — a cross product would invent two more.
    const lenovo = PRODUCTS.filter((product) => product.brand === 'Lenovo');
    const combos = [...new Set(lenovo.map((product) => `lenovo ${product.category.toLowerCase()}`))];
    expect(combos).to.deep.equal(['lenovo laptops']);
    await type(ac, 'len', 1 + combos.length);
    expect(texts(ac)).to.have.members(['lenovo', ...combos]);
    const categories = options(ac).map((option) => [
      option.querySelector('[part~="query"]')!.textContent,
      option.querySelector('[part~="category"]')?.textContent,
    ]);
    expect(categories).to.have.deep.members([
      ['lenovo', 'in Laptops'],
      ['lenovo laptops', 'in Laptops'],
    ]);
    expect(options(ac)[0]!.querySelector('mark')!.textContent).to.equal('len');
  });

  it('renders hostile suggestion values as text only', async () => {
    const hostile = await createIndex('svc_autocomplete_hostile', HOSTILE);
    await suggestionsIndex(`${hostile}_query_suggestions`, [
      {
        ...suggestion(hostile, HOSTILE[0]!.brand, 9),
        [hostile]: { facets: { exact_matches: { category: [{ value: HOSTILE[1]!.category, count: 1 }] } } },
      },
      suggestion(
        hostile,
        'evil <script>window.__svcPwned = 21</script> <svg onload="window.__svcPwned = 22"> &amp; <em>not a match</em>',
        8,
      ),
    ]);
    const root = await searchFixture(
      hostile,
      html`<svc-autocomplete category-attribute="category"></svc-autocomplete>`,
    );
    const ac = root.querySelector('svc-autocomplete')!;
    await type(ac, '<', 2);
    await sendKeys({ press: 'ArrowDown' });
    await ac.updateComplete;
    expect(texts(ac)).to.have.members([
      HOSTILE[0]!.brand,
      'evil <script>window.__svcPwned = 21</script> <svg onload="window.__svcPwned = 22"> &amp; <em>not a match</em>',
    ]);
    const withCategory = options(ac).find((option) => option.querySelector('[part~="category"]'))!;
    expect(withCategory.querySelector('[part~="category"]')!.textContent).to.equal(`in ${HOSTILE[1]!.category}`);
    expect(deepQueryAll(ac, 'script, img, svg:not([aria-hidden]), em, b, [onerror], [onload]')).to.deep.equal([]);
    expect([...shadow(ac).querySelectorAll('mark')].every((mark) => mark.children.length === 0)).to.be.true;
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });

  it('translations replace every string; the count follows the plural rules of lang', async () => {
    const { ac } = await setup();
    ac.lang = 'fr';
    ac.translations = {
      placeholder: 'Rechercher…',
      listLabel: 'Suggestions de recherche',
      inCategory: 'dans {category}',
      suggestionCount: '{count} suggestions',
      'suggestionCount.one': '{count} suggestion',
    };
    await ac.updateComplete;
    expect(field(ac).placeholder).to.equal('Rechercher…');
    await type(ac, 'dell', 1);
    expect(listbox(ac).getAttribute('aria-label')).to.equal('Suggestions de recherche');
    expect(shadow(ac).querySelector('p[role="status"]')!.textContent).to.equal('1 suggestion');
    field(ac).select();
    await sendKeys({ type: 'sam' });
    await listed(ac, 3);
    expect(options(ac)[0]!.querySelector('[part~="category"]')!.textContent).to.equal('dans Phones');
    expect(shadow(ac).querySelector('p[role="status"]')!.textContent).to.equal('3 suggestions');
  });
});
