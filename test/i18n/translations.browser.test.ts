/**
 * Translations, language and direction across every element (issue 7): each visible string — text,
 * `aria-label`, `title`, `placeholder`… in the elements' shadow roots — comes from a translation key, so it
 * is replaceable per element (`el.translations`) and per `<svc-search>` (its `translations`); `lang` picks
 * number formats and plural forms; `dir="rtl"` mirrors the layout. Real local service, real searches.
 *
 * How "every visible string" is checked: the UI is driven through the states that show the conditional
 * strings (typing, refining, show more, facet search without match, no results, one result, an error,
 * recommendations) with every key of every element replaced by a marker `⟪key⟫`; each piece of a collected
 * string between markers must then be empty, a number, or a run of whole words of a value the element shows
 * as data (record values, the typed query, attribute names, the page's own option labels — the actual values,
 * compared case-sensitively); anything else, words or symbols (`«`, `×`), is a string the elements hard-code.
 * The same run in English must leave English strings (so the check can fail), and every key must have been
 * seen as a marker at least once.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/define.js';
import type { SvcElement } from '../../src/elements/base/svc-element.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import { admin, indexProducts, products, until } from '../embedding/fixture.js';

type Mode = 'english' | 'element' | 'root';

/** Keys no scenario here can show, with the reason. Every other key must be seen. */
const NOT_EXERCISED: Record<string, string> = {
  'svc-search-box/loadingLabel': 'only while a search is stalled (> 200 ms); the local service answers faster',
  'svc-autocomplete/loadingLabel': 'only while a search is stalled (> 200 ms); the local service answers faster',
};

/** The record only the "one result" scenario finds, and the autocomplete's suggestions (query, popularity). */
const ZYXWV = {
  objectID: 'zyxwv',
  name: 'Zyxwv Tablet',
  brand: 'Initech',
  price: 300,
  popularity: 1,
  _tags: [] as string[],
};
const SUGGESTIONS = [
  ['phone', 3],
  ['acme phone', 2],
  ['laptop', 1],
] as const;
/** The query typed and the refinements made in the full-page scenario (current refinements show them). */
const TYPED = 'phone';
const REFINED = { attributes: ['brand', 'price'], tags: ['new'] };

/**
 * The data an element may show besides its translated strings: the records' names and brands and the
 * suggestions everywhere (hits, facet values, recommendations, suggestion categories); what was refined
 * (attribute names, tag, query) in current refinements; the page's own `<option>` labels in sort-by.
 */
function dataValues(el: Element): string[] {
  const values: string[] = [...products(), ZYXWV]
    .flatMap((p) => [p.name, p.brand])
    .concat(SUGGESTIONS.map(([query]) => query));
  if (el.localName === 'svc-current-refinements') values.push(...REFINED.attributes, ...REFINED.tags, TYPED);
  if (el.localName === 'svc-sort-by')
    values.push(...[...el.querySelectorAll('option')].map((option) => option.textContent!.trim()));
  return values;
}

/** Whether `piece` is a run of whole words of one of `values` (a highlight splits a value at word boundaries). */
function isData(piece: string, values: string[]): boolean {
  const words = piece.split(/\s+/);
  return values.some((value) => {
    const of = value.split(/\s+/);
    return of.some((_, start) => words.every((word, i) => of[start + i] === word));
  });
}

const marker = (key: string) => `⟪${key}⟫`;

function elementsIn(root: ParentNode): SvcElement[] {
  const out: SvcElement[] = [];
  const walk = (node: ParentNode) => {
    for (const el of node.querySelectorAll('*')) {
      if (el.localName.startsWith('svc-')) out.push(el as SvcElement);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(root);
  return out;
}

const defaultsOf = (el: Element) => (el.constructor as typeof SvcElement).defaultTranslations ?? {};

/** Every key of every element class → its marker (root mode: one map for all). */
function markerMap(elements: Element[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const el of elements) for (const key of Object.keys(defaultsOf(el))) map[key] = marker(key);
  return map;
}

/** The strings an element shows: its shadow root's text and labelling attributes (not slotted content). */
function uiStrings(el: Element): string[] {
  const out: string[] = [];
  const root = el.shadowRoot;
  if (!root) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.parentElement?.closest('style, template')) continue;
      if (node.nodeValue!.trim()) out.push(node.nodeValue!.trim());
      continue;
    }
    const element = node as Element;
    // Values inside svc-highlight / svc-snippet and other svc elements are checked as their own elements.
    for (const name of [
      'aria-label',
      'title',
      'placeholder',
      'alt',
      'aria-description',
      'aria-roledescription',
      'aria-valuetext',
      'label',
    ]) {
      const value = element.getAttribute(name);
      if (value?.trim()) out.push(value.trim());
    }
  }
  return out;
}

/** The pieces of a string between markers that are neither empty, a number, nor data the element shows. */
function leftover(text: string, values: string[]): string {
  return text
    .split(/⟪[^⟫]*⟫/)
    .map((piece) => piece.trim())
    .filter((piece) => piece && !/^\d[\d.,\u00a0\u202f]*$/.test(piece) && !isData(piece, values)) // numbers are formatted, not words
    .join(' ‖ ');
}

interface Run {
  leftovers: Map<string, Set<string>>; // tag → words left
  seen: Set<string>; // `tag/key` markers seen
}

function collect(run: Run, root: ParentNode): void {
  for (const el of elementsIn(root)) {
    const values = dataValues(el);
    for (const text of uiStrings(el)) {
      for (const match of text.matchAll(/⟪([^⟫]*)⟫/g)) run.seen.add(`${el.localName}/${match[1]}`);
      const rest = leftover(text, values);
      if (rest) {
        const set = run.leftovers.get(el.localName) ?? new Set<string>();
        set.add(`${rest}  ←  "${text}"`);
        run.leftovers.set(el.localName, set);
      }
    }
  }
}

function applyTranslations(mode: Mode, search: SvcSearch): void {
  const elements = elementsIn(search);
  if (mode === 'root') search.translations = markerMap(elements);
  if (mode === 'element') for (const el of elements) el.translations = markerMap([el]);
}

describe('translations: every visible string of every element is replaceable', () => {
  let indexName: string;
  let emptyIndex: string;
  const mounted: Element[] = [];

  before(async () => {
    const records = products().map((p, i) => ({ ...p, _tags: i % 3 === 0 ? ['new'] : [] }));
    records.push(ZYXWV);
    indexName = await indexProducts('i18n', records);
    // The autocomplete's suggestions (its default index name), records in the Query Suggestions shape.
    await admin('POST', `/1/indexes/${indexName}_query_suggestions/batch`, {
      requests: SUGGESTIONS.map(([query, popularity]) => ({
        action: 'addObject',
        body: {
          objectID: query,
          query,
          popularity,
          [indexName]: { facets: { exact_matches: { brand: [{ value: 'Acme', count: 1 }] } } },
        },
      })),
    });
    emptyIndex = `i18n_empty_${Date.now().toString(36)}`;
    await admin('PUT', `/1/indexes/${emptyIndex}/settings`, {
      searchableAttributes: ['name'],
      attributesForFaceting: ['brand'],
    });
  });

  afterEach(() => {
    for (const el of mounted.splice(0)) el.remove();
  });

  function mount(html: string, index = indexName): SvcSearch {
    const host = document.createElement('div');
    host.innerHTML = `<svc-search app-id="SVCLOCAL" api-key="local-search-key" hosts="${location.origin}" index-name="${index}" insights="false">${html}</svc-search>`;
    document.body.append(host);
    mounted.push(host);
    return host.querySelector('svc-search')!;
  }

  const settled = async (search: SvcSearch) => {
    await until(
      () => search.store?.getSnapshot().status === 'idle' || search.store?.getSnapshot().status === 'error',
      'search answered',
    );
    for (const el of elementsIn(search)) await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  };

  /** Drives the states that show conditional strings, collecting after each. */
  async function scenarios(mode: Mode): Promise<Run> {
    const run: Run = { leftovers: new Map(), seen: new Set() };

    // 1. A full page: typed query, refinements of every kind, a second page, show more, facet search without match.
    const page = mount(`
      <svc-search-box></svc-search-box>
      <svc-stats></svc-stats>
      <svc-refinement-list attribute="brand" searchable limit="1" show-more></svc-refinement-list>
      <svc-menu attribute="brand" limit="1" show-more></svc-menu>
      <svc-current-refinements></svc-current-refinements>
      <svc-clear-refinements></svc-clear-refinements>
      <svc-sort-by><option value="${indexName}">Most popular</option></svc-sort-by>
      <svc-hits-per-page></svc-hits-per-page>
      <svc-range-input attribute="price" min="0" max="1000"></svc-range-input>
      <svc-hits></svc-hits>
      <svc-infinite-hits></svc-infinite-hits>
      <svc-pagination show-first show-last padding="1"></svc-pagination>`);
    const perPage = page.querySelector('svc-hits-per-page')!;
    perPage.items = [{ value: 5, default: true }, { value: 10 }];
    page.querySelector('svc-current-refinements')!.excludedAttributes = [];
    await until(() => Boolean(page.store), 'store');
    applyTranslations(mode, page);
    await settled(page);
    collect(run, page);
    const store = page.store!;
    const box = page.querySelector('svc-search-box')!;
    const input = box.shadowRoot!.querySelector('input')!;
    input.value = TYPED;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    store.toggleRefinement('brand', 'Acme', 'or');
    store.addNumericRefinement('price', '>=', 100);
    store.toggleTag('new');
    await settled(page);
    collect(run, page);
    // A page that does not touch the loaded one: the infinite hits start over there ("show previous results").
    store.setPage(2);
    await settled(page);
    collect(run, page);
    const infinite = page.querySelector('svc-infinite-hits')!;
    expect(
      infinite.shadowRoot!.querySelector<HTMLButtonElement>('[part~="show-previous"]')!.hidden,
      'show previous shown',
    ).to.be.false;
    const list = page.querySelector('svc-refinement-list')!;
    list.shadowRoot!.querySelector<HTMLButtonElement>('[part~="show-more"]')?.click();
    page.querySelector('svc-menu')!.shadowRoot!.querySelector<HTMLButtonElement>('[part~="show-more"]')!.click();
    await settled(page);
    collect(run, page); // "show less"
    const facetSearch = list.shadowRoot!.querySelector<HTMLInputElement>('[part~="search-input"]')!;
    facetSearch.value = 'qqqq';
    facetSearch.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await until(() => /⟪noValues⟫|No values/.test(list.shadowRoot!.textContent ?? ''), 'facet search without match');
    collect(run, page);
    // The range input's refusals: a minimum above the maximum, then a field that is not a number ("1e").
    const range = page.querySelector('svc-range-input')!;
    const [rangeMin, rangeMax] = [...range.shadowRoot!.querySelectorAll('input')];
    const rangeSubmit = range.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit"]')!;
    const rangeError = () => range.shadowRoot!.querySelector('[part~="error"]')!.textContent ?? '';
    rangeMin!.value = '300';
    rangeMax!.value = '200';
    rangeSubmit.click();
    await until(() => /⟪invalidRange⟫|greater/.test(rangeError()), 'range refused');
    collect(run, page);
    rangeMin!.value = '';
    rangeMax!.focus();
    rangeMax!.select();
    await sendKeys({ type: '1e' });
    rangeSubmit.click();
    await until(() => /⟪invalidNumber⟫|Enter a number/.test(rangeError()), 'not a number refused');
    collect(run, page);
    page.parentElement!.remove();

    // 2. No results for a query; 3. exactly one result; 4. an empty index and no query.
    for (const [query, index] of [
      ['qqqqzzzz', indexName],
      ['zyxwv', indexName],
      ['', emptyIndex],
    ] as const) {
      const search = mount(
        '<svc-stats></svc-stats><svc-hits></svc-hits><svc-infinite-hits></svc-infinite-hits>',
        index,
      );
      await until(() => Boolean(search.store), 'store');
      applyTranslations(mode, search);
      search.store!.setQuery(query);
      await settled(search);
      collect(run, search);
      search.parentElement!.remove();
    }

    // 5. The search fails (the index does not exist).
    const failing = mount('<svc-hits></svc-hits><svc-infinite-hits></svc-infinite-hits>', 'i18n_missing_index');
    await until(() => Boolean(failing.store), 'store');
    applyTranslations(mode, failing);
    failing.store!.refresh();
    await until(() => failing.store!.getSnapshot().status === 'error', 'error');
    await settled(failing);
    collect(run, failing);
    failing.parentElement!.remove();

    // 6. Recommendations and trends: while loading, then empty (no events yet) or failing (missing index).
    for (const index of [indexName, 'i18n_missing_index']) {
      const recommend = mount(
        `<svc-recommendations model="related-products" object-id="acme-1"></svc-recommendations>
         <svc-recommendations model="bought-together" object-id="acme-1"></svc-recommendations>
         <svc-trending model="trending-items"></svc-trending>
         <svc-trending model="trending-items" facet-name="brand" facet-value="Acme"></svc-trending>
         <svc-trending model="trending-facets" facet-name="brand"></svc-trending>`,
        index,
      );
      await until(() => Boolean(recommend.store), 'store');
      applyTranslations(mode, recommend);
      for (const el of elementsIn(recommend))
        await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      collect(run, recommend); // loading
      await until(
        () => elementsIn(recommend).every((el) => !/⟪loading⟫|Loading/.test(el.shadowRoot?.textContent ?? '')),
        'recommendations answered',
      );
      collect(run, recommend);
      recommend.parentElement!.remove();
    }

    // 7. The autocomplete: its list with several suggestions and a category, then with one.
    const suggest = mount('<svc-autocomplete category-attribute="brand"></svc-autocomplete>');
    await until(() => Boolean(suggest.store), 'store');
    applyTranslations(mode, suggest);
    await settled(suggest);
    collect(run, suggest);
    const autocomplete = suggest.querySelector('svc-autocomplete')!;
    for (const [text, count] of [
      ['phone', 2],
      ['laptop', 1],
    ] as const) {
      autocomplete.focus();
      autocomplete.input!.select();
      await sendKeys({ type: text });
      await until(
        () => autocomplete.suggestionsStatus === 'ready' && autocomplete.suggestions.length === count,
        `${count} suggestions`,
      );
      await sendKeys({ press: 'ArrowDown' });
      await autocomplete.updateComplete;
      collect(run, suggest);
    }
    suggest.parentElement!.remove();
    return run;
  }

  const allKeys = () => {
    const out: string[] = [];
    for (const tag of [
      'svc-search-box',
      'svc-autocomplete',
      'svc-stats',
      'svc-refinement-list',
      'svc-menu',
      'svc-current-refinements',
      'svc-clear-refinements',
      'svc-sort-by',
      'svc-hits-per-page',
      'svc-range-input',
      'svc-hits',
      'svc-infinite-hits',
      'svc-pagination',
      'svc-recommendations',
      'svc-trending',
    ]) {
      for (const key of Object.keys((customElements.get(tag) as unknown as typeof SvcElement).defaultTranslations))
        out.push(`${tag}/${key}`);
    }
    return out;
  };

  const report = (run: Run) => [...run.leftovers].map(([tag, words]) => `${tag}: ${[...words].join(' | ')}`).join('\n');

  it('in English the check finds the default strings (it can fail)', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(60_000); // many real searches in a row; generous for a loaded machine
    const run = await scenarios('english');
    expect(run.leftovers.size).to.be.greaterThan(5);
  });

  it('the check refuses hard-coded words that are data only elsewhere, other cases of data, and symbols', () => {
    const [hits, refinements, sortBy] = ['svc-hits', 'svc-current-refinements', 'svc-sort-by'].map((tag) =>
      document.createElement(tag),
    );
    sortBy!.innerHTML = '<option value="x">Most popular</option>';
    expect(leftover('Acme Phone 12', dataValues(hits!)), 'a record value').to.equal('');
    expect(leftover('Phone', dataValues(hits!)), 'a highlighted word of one').to.equal('');
    expect(leftover('⟪page⟫ 1,234', dataValues(hits!)), 'a marker and a number').to.equal('');
    expect(leftover('Most popular', dataValues(sortBy!)), "the page's own option label").to.equal('');
    expect(leftover('Most popular', dataValues(hits!))).to.equal('Most popular');
    expect(leftover('Lowest price', dataValues(refinements!))).to.equal('Lowest price');
    expect(leftover('Brand', dataValues(refinements!))).to.equal('Brand');
    expect(leftover('New', dataValues(refinements!))).to.equal('New');
    expect(leftover('⟪first⟫ «', dataValues(hits!))).to.equal('«');
    expect(leftover('×', dataValues(refinements!))).to.equal('×');
  });

  it('a <svc-search> key shared by several elements can be translated for one tag: "svc-pagination.label"', async () => {
    const search = mount(
      '<svc-search-box></svc-search-box><svc-sort-by><option value="x">Most popular</option></svc-sort-by><svc-pagination></svc-pagination>',
    );
    search.translations = { label: 'Suche', 'svc-pagination.label': 'Seiten', 'svc-sort-by.label': 'Sortieren nach' };
    await settled(search);
    const pager = search.querySelector('svc-pagination')!;
    const sortBy = search.querySelector('svc-sort-by')!;
    const box = search.querySelector('svc-search-box')!;
    await until(() => Boolean(pager.shadowRoot?.querySelector('nav')), 'pagination rendered');
    expect(pager.shadowRoot!.querySelector('nav')!.getAttribute('aria-label')).to.equal('Seiten');
    expect(uiStrings(sortBy)).to.include('Sortieren nach');
    expect(uiStrings(box)).to.include('Suche');
    // The element's own translations still win over the root's scoped key.
    pager.translations = { label: 'Blättern' };
    await pager.updateComplete;
    expect(pager.shadowRoot!.querySelector('nav')!.getAttribute('aria-label')).to.equal('Blättern');
  });

  for (const mode of ['element', 'root'] as const) {
    it(`with translations on ${mode === 'element' ? 'each element' : '<svc-search>'}, no hard-coded string remains and every key is shown`, async function (this: {
      timeout(ms: number): void;
    }) {
      this.timeout(60_000);
      const run = await scenarios(mode);
      expect(report(run), 'strings not coming from translations').to.equal('');
      const missing = allKeys().filter(
        (key) => !run.seen.has(key) && !(key in NOT_EXERCISED) && !/\.(one|other|few|many|two|zero)$/.test(key),
      );
      expect(missing, 'keys never shown').to.deep.equal([]);
    });
  }
});
