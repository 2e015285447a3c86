import { expect, html, waitUntil } from '@open-wc/testing';
import type { SvcHits } from '../../src/elements/hits/svc-hits.js';
import '../../src/elements/hits/define.js';
import { APP_ID, HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';
import { fixture } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';

const items = (hits: Element) => [...shadow(hits).querySelectorAll<HTMLLIElement>('li[part~="item"]')];
const texts = (hits: Element) => items(hits).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());

describe('<svc-hits>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_hits_el');
    hostileIndex = await createIndex('svc_hits_hostile', HOSTILE);
  });

  it('is accessible', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    await expect(hits).to.be.accessible();
    const list = shadow(hits).querySelector('ol')!;
    expect(list.getAttribute('aria-label')).to.equal('Search results');
    expect(list.getAttribute('aria-busy')).to.equal('false');
  });

  it('shows one li per hit with the highlighted name, also for a typo query', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    expect(items(hits)).to.have.length(20);
    root.store!.setQuery('notebok'); // one typo
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)).to.have.length(12);
    expect(texts(hits).every((text) => /notebook model \d+/.test(text))).to.be.true;
    const marks = shadow(hits).querySelectorAll('li mark[part="highlighted"]');
    expect(marks.length).to.equal(12);
    // The typo match is highlighted (the engine marks the matched prefix of the word).
    expect(marks[0].textContent).to.match(/^noteboo/);
  });

  it('shows only refined hits after a refinement', async () => {
    const root = await searchFixture(indexName, html`<svc-hits attribute="brand"></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    root.store!.toggleRefinement('brand', 'Sony', 'or');
    await settled(root.store!);
    await hits.updateComplete;
    expect(texts(hits)).to.deep.equal(Array(6).fill('Sony'));
  });

  it('puts objectID, absolute position, queryID and index on each li, and reports them to insights', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`, { insights: true });
    const hits = root.querySelector('svc-hits')!;
    root.store!.setHitsPerPage(10);
    root.store!.setPage(1);
    await settled(root.store!);
    await hits.updateComplete;
    const queryID = root.store!.getSnapshot().results!.queryID!;
    expect(queryID).to.be.a('string');
    const lis = items(hits);
    expect(lis).to.have.length(10);
    expect(lis.map((li) => li.dataset.svcPosition)).to.deep.equal([
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '19',
      '20',
    ]);
    expect(lis[2].dataset.svcObjectId).to.equal('p12');
    expect(lis[2].dataset.svcQueryId).to.equal(queryID);
    expect(lis[2].dataset.svcIndex).to.equal(indexName);

    // The li was passed to insights.observe: a click inside it is a `Hit Clicked` with its position.
    const clicks: CustomEvent[] = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventType === 'click') clicks.push(e);
    });
    lis[2].click();
    await waitUntil(() => clicks.length === 1, 'no click event for the observed hit');
    expect(clicks[0].detail.event).to.include({ eventName: 'Hit Clicked', queryID, index: indexName });
    expect(clicks[0].detail.event.objectIDs).to.deep.equal(['p12']);
    expect(clicks[0].detail.event.positions).to.deep.equal([13]);

    // After a page change, the old items are unobserved and the new ones carry new positions.
    root.store!.setPage(2);
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)[0].dataset.svcPosition).to.equal('21');
    items(hits)[0].click();
    await waitUntil(() => clicks.length === 2);
    expect(clicks[1].detail.event.positions).to.deep.equal([21]);
  });

  it('renders a <template> child with fields, highlight and snippet', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-hits>
        <template>
          <style>.price { font-weight: bold; }</style>
          <a part="link" data-href="url"><img data-src="image" data-attr-alt="name" loading="lazy" hidden /><svc-highlight attribute="name"></svc-highlight></a>
          <svc-snippet attribute="description" words="5"></svc-snippet>
          <span class="price" data-text="price"></span>
        </template>
      </svc-hits>`,
    );
    const hits = root.querySelector('svc-hits')!;
    root.store!.setQuery('headset battery');
    await settled(root.store!);
    await hits.updateComplete;
    const first = items(hits)[0];
    expect(first.querySelector('a')!.getAttribute('href')).to.equal('/products/p2');
    expect(first.querySelector('img')!.getAttribute('src')).to.equal('/images/p2.png');
    expect(first.querySelector('img')!.getAttribute('alt')).to.equal('Google headset model 2');
    expect(first.querySelector('.price')!.textContent).to.equal('120');
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal('Google headset model 2');
    expect(highlight.shadowRoot!.querySelector('mark')!.textContent).to.equal('headset');
    // The snippet was asked for (attributesToSnippet) because the template uses <svc-snippet>.
    const body = JSON.stringify(root.store!.requestLog.at(-1)!.body);
    expect(body).to.contain('description:5');
    const snippet = first.querySelector('svc-snippet')!;
    await snippet.updateComplete;
    expect(snippet.shadowRoot!.textContent!.split(/\s+/).filter(Boolean).length).to.be.at.most(7);
    expect(snippet.shadowRoot!.querySelector('mark')!.textContent).to.equal('battery');
    // The template's <style> applies inside the shadow root, once.
    expect(getComputedStyle(first.querySelector('.price')!).fontWeight).to.equal('700');
    expect(shadow(hits).querySelectorAll('style').length).to.equal(1);
  });

  it('lets the keyboard reach a link in a hit; Enter on it is a Hit Clicked with its position', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-hits><template><a data-href="url"><svc-highlight attribute="name"></svc-highlight></a></template></svc-hits>`,
      { insights: true },
    );
    const hits = root.querySelector('svc-hits')!;
    await waitUntil(() => !!shadow(hits).querySelector('li a')?.getAttribute('href'));
    const clicks: Array<{ positions?: number[]; objectIDs?: string[] }> = [];
    root.addEventListener('svc-insights', (e) => {
      if (e.detail.event.eventType === 'click') clicks.push(e.detail.event);
    });
    // Cancel the navigation the test page would otherwise do (after insights saw the click).
    shadow(hits).addEventListener('click', (e) => e.preventDefault());
    const links = shadow(hits).querySelectorAll('a');
    links[0].focus();
    await sendKeys({ press: 'Tab' });
    expect(shadow(hits).activeElement).to.equal(links[1]);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => clicks.length === 1, 'no click from the keyboard');
    expect(clicks[0].objectIDs).to.deep.equal(['p1']);
    expect(clicks[0].positions).to.deep.equal([2]);
  });

  it('renders with a renderHit function', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    hits.renderHit = (hit, { position }) => html`<strong>${position}: ${hit.objectID}</strong>`;
    await hits.updateComplete;
    expect(texts(hits).slice(0, 2)).to.deep.equal(['1: p0', '2: p1']);
  });

  it('works without <svc-search> when given a store property', async () => {
    const { createClient } = await import('../../src/client/index.js');
    const { createSearchStore } = await import('../../src/store/index.js');
    const store = createSearchStore({
      client: createClient({ appId: APP_ID, apiKey: 'local-search-key', hosts: [location.origin] }),
      indexName,
      initialState: { query: 'dell' },
    });
    const hits = await fixture<SvcHits>(html`<svc-hits attribute="brand" .store=${store}></svc-hits>`);
    await settled(store);
    await hits.updateComplete;
    expect(texts(hits)).to.deep.equal(Array(6).fill('Dell'));
    hits.remove();
    store.dispose();
  });

  it('shows the empty state in a live region', async () => {
    const root = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
    const hits = root.querySelector('svc-hits')!;
    root.store!.setQuery('qqqqxxxzzz');
    await settled(root.store!);
    await hits.updateComplete;
    expect(items(hits)).to.have.length(0);
    const status = shadow(hits).querySelector('[role="status"]')!;
    expect(status.textContent!.trim()).to.equal('No results for “qqqqxxxzzz”.');
    expect(shadow(hits).querySelector('ol')!.hidden).to.be.true;
    hits.translations = { noResults: 'Aucun résultat pour « {query} ».' };
    await hits.updateComplete;
    expect(status.textContent!.trim()).to.equal('Aucun résultat pour « qqqqxxxzzz ».');
    await expect(hits).to.be.accessible();
  });

  it('shows the store error politely', async () => {
    const root = await fixture<SvcSearch>(html`<svc-search app-id=${APP_ID} api-key="not-a-key" index-name=${indexName}
      hosts=${location.origin} insights="false"><svc-hits></svc-hits></svc-search>`);
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(root.store!.getSnapshot().status).to.equal('error');
    const error = shadow(hits).querySelector('[part="error"]')!;
    expect(error.textContent).to.equal('The search is unavailable right now. Please try again.');
    expect(error.closest('[role="status"]')).to.exist;
  });

  it('never executes nor injects hostile record values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const root = await searchFixture(
      hostileIndex,
      html`<svc-hits>
        <template>
          <a data-href="url" data-attr-title="name" data-attr-onclick="name" data-attr-style="name"><img data-src="image" data-attr-alt="brand" /></a>
          <svc-highlight attribute="name"></svc-highlight> <svc-highlight attribute="brand"></svc-highlight>
          <svc-snippet attribute="description"></svc-snippet> <span data-text="category"></span>
        </template>
      </svc-hits>
      <svc-hits id="default"></svc-hits>`,
    );
    root.store!.setQuery('phone');
    await settled(root.store!);
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    await new Promise((r) => setTimeout(r, 100)); // let any injected image error handler run
    expect(items(hits)).to.have.length(2);
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(deepQueryAll(root, 'script, [onerror], [onload], [onmouseover], [onclick], svg, b, [style]')).to.deep.equal(
      [],
    );
    const first = items(hits).find((li) => li.dataset.svcObjectId === 'evil1')!;
    const second = items(hits).find((li) => li.dataset.svcObjectId === 'evil2')!;
    expect(first.querySelector('a')!.hasAttribute('href')).to.be.false; // javascript: refused
    expect(second.querySelector('a')!.hasAttribute('href')).to.be.false; // obfuscated javascript: refused
    expect(first.querySelector('img')!.hasAttribute('src')).to.be.false;
    expect(second.querySelector('img')!.hasAttribute('src')).to.be.false; // data: refused
    expect(first.querySelector('a')!.getAttribute('title')).to.equal(HOSTILE[0].name); // plain attribute text
    const highlight = first.querySelector('svc-highlight')!;
    await highlight.updateComplete;
    expect(highlight.shadowRoot!.textContent).to.equal('Evil <script>window.__svcPwned = 1</script> phone');
    expect(highlight.shadowRoot!.querySelector('mark')!.textContent).to.equal('phone');
    const snippet = first.querySelector('svc-snippet')!;
    await snippet.updateComplete;
    expect(snippet.shadowRoot!.textContent).to.contain('<b onmouseover="window.__svcPwned = 3">bold</b> &amp; <em');
    expect(snippet.shadowRoot!.querySelectorAll('mark').length).to.equal(1); // only the real match
    expect(second.querySelector('span')!.textContent).to.equal(HOSTILE[1].category);
    const fallback = root.querySelector('#default')!;
    await waitUntil(() => texts(fallback).length === 2);
    expect(texts(fallback)).to.include('Evil <script>window.__svcPwned = 1</script> phone');
  });

  describe('number formatting in a <template> (data-currency, data-decimals, data-number)', () => {
    // Prices as the catalogue stores them: plain JSON numbers (58.1, not "58.10"); `label` is a string.
    const PRICED = [
      {
        objectID: 'n0',
        name: 'Desk lamp',
        price: 58.1,
        stock: 1234567.891,
        label: '58.1',
        rank: 0,
        note: '<img src=x onerror="window.__svcPwned = 10">',
      },
      {
        objectID: 'n1',
        name: 'Desk chair',
        price: 1299,
        stock: 0.5,
        label: 'on request',
        rank: 1,
        note: '<b>bold</b> & <script>window.__svcPwned = 11</script>',
      },
    ];
    let pricedIndex: string;
    before(async () => {
      pricedIndex = await createIndex('svc_hits_numbers', PRICED);
    });

    /** The text of `selector` in each hit, in order. */
    const cells = (hits: Element, selector: string) => items(hits).map((li) => li.querySelector(selector)!.textContent);
    /** A `<svc-hits>` (inside `<div lang=…>` when given) whose template is `markup`; waits for both hits. */
    async function pricedHits(template: ReturnType<typeof html>, lang?: string) {
      const root = await searchFixture(
        pricedIndex,
        lang ? html`<div lang=${lang}><svc-hits>${template}</svc-hits></div>` : html`<svc-hits>${template}</svc-hits>`,
      );
      const hits = root.querySelector('svc-hits')!;
      await waitUntil(() => items(hits).length === 2, 'the two priced hits did not render');
      return { root, hits };
    }
    /** Records `console.warn` calls while `run` runs. */
    async function warnings(run: () => Promise<void>): Promise<unknown[][]> {
      const calls: unknown[][] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void calls.push(args);
      try {
        await run();
      } finally {
        console.warn = warn;
      }
      return calls;
    }

    it('formats a currency with data-currency, in the page language (en)', async () => {
      const { hits } = await pricedHits(
        html`<template><span class="price" data-text="price" data-currency="USD"></span></template>`,
        'en',
      );
      expect(cells(hits, '.price')).to.deep.equal(['$58.10', '$1,299.00']);
      const usd = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' });
      expect(cells(hits, '.price')).to.deep.equal([usd.format(58.1), usd.format(1299)]);
    });

    it('formats for the lang of the closest element that has one (de)', async () => {
      const { hits } = await pricedHits(
        html`<template><span class="price" data-text="price" data-currency="USD"></span> <span class="stock" data-text="stock" data-number></span></template>`,
        'de',
      );
      const usd = new Intl.NumberFormat('de', { style: 'currency', currency: 'USD' });
      expect(cells(hits, '.price')).to.deep.equal([usd.format(58.1), usd.format(1299)]);
      expect(cells(hits, '.price')[0]).to.match(/^58,10\s\$$/); // "58,10 $" with a no-break space
      expect(cells(hits, '.stock')).to.deep.equal([new Intl.NumberFormat('de').format(1234567.891), '0,5']);
      expect(cells(hits, '.stock')[0]).to.equal('1.234.567,891');
      // The element's own lang wins over the page's.
      hits.setAttribute('lang', 'en');
      const root = hits.closest('svc-search')!;
      root.store!.setQuery('desk');
      await settled(root.store!);
      await hits.updateComplete;
      expect(cells(hits, '.price')).to.deep.equal(['$58.10', '$1,299.00']);
    });

    it('sets the fraction digits with data-decimals, with or without a currency', async () => {
      const { hits } = await pricedHits(
        html`<template>
          <span class="two" data-text="price" data-decimals="2"></span>
          <span class="none" data-text="stock" data-decimals="0"></span>
          <span class="eur" data-text="price" data-currency="EUR" data-decimals="0"></span>
          <span class="jpy" data-text="price" data-currency="JPY"></span>
        </template>`,
        'en',
      );
      expect(cells(hits, '.two')).to.deep.equal(['58.10', '1,299.00']);
      expect(cells(hits, '.none')).to.deep.equal(['1,234,568', '1']); // rounded half away from zero: 0.5 → 1
      expect(cells(hits, '.eur')).to.deep.equal(['€58', '€1,299']);
      // Without data-decimals, the currency's own digits (none for yen).
      expect(cells(hits, '.jpy')).to.deep.equal([
        new Intl.NumberFormat('en', { style: 'currency', currency: 'JPY' }).format(58.1),
        '¥1,299',
      ]);
    });

    it('groups a plain number with data-number; without any of the three, numbers stay raw', async () => {
      const { hits } = await pricedHits(
        html`<template><span class="grouped" data-text="stock" data-number></span> <span class="raw" data-text="stock"></span></template>`,
        'en',
      );
      expect(cells(hits, '.grouped')).to.deep.equal(['1,234,567.891', '0.5']);
      expect(cells(hits, '.raw')).to.deep.equal(['1234567.891', '0.5']);
    });

    it('leaves strings (even numeric ones) and missing fields as they are', async () => {
      const { hits } = await pricedHits(
        html`<template>
          <span class="label" data-text="label" data-currency="USD"></span>
          <span class="number" data-text="label" data-number></span>
          <span class="missing" data-text="nothing" data-currency="USD">placeholder</span>
        </template>`,
        'de',
      );
      expect(cells(hits, '.label')).to.deep.equal(['58.1', 'on request']);
      expect(cells(hits, '.number')).to.deep.equal(['58.1', 'on request']);
      expect(cells(hits, '.missing')).to.deep.equal(['', '']);
    });

    it('shows the raw value and warns once for an invalid currency or decimals', async () => {
      let hits!: SvcHits;
      const calls = await warnings(async () => {
        ({ hits } = await pricedHits(
          html`<template>
            <span class="bad-currency" data-text="price" data-currency="US$"></span>
            <span class="bad-decimals" data-text="price" data-decimals="21"></span>
            <span class="nan-decimals" data-text="price" data-currency="USD" data-decimals="two"></span>
            <span class="good" data-text="price" data-currency="USD"></span>
          </template>`,
          'en',
        ));
        // A second answer renders new hits with the same template: no new warning.
        const root = hits.closest('svc-search')!;
        root.store!.setQuery('desk');
        await settled(root.store!);
        await hits.updateComplete;
      });
      expect(cells(hits, '.bad-currency')).to.deep.equal(['58.1', '1299']);
      expect(cells(hits, '.bad-decimals')).to.deep.equal(['58.1', '1299']);
      expect(cells(hits, '.nan-decimals')).to.deep.equal(['58.1', '1299']);
      expect(cells(hits, '.good')).to.deep.equal(['$58.10', '$1,299.00']); // the rest of the template still renders
      const messages = calls.map((args) => args.map(String).join(' ')).filter((m) => m.startsWith('svc-search:'));
      expect(messages).to.have.length(3);
      expect(messages.filter((m) => m.includes('data-currency') && m.includes('"US$"'))).to.have.length(1);
      expect(messages.filter((m) => m.includes('data-decimals') && m.includes('"21"'))).to.have.length(1);
      expect(messages.filter((m) => m.includes('data-decimals') && m.includes('"two"'))).to.have.length(1);
    });

    it('keeps a hostile value text, with or without formatting attributes', async () => {
      delete (window as { __svcPwned?: unknown }).__svcPwned;
      const { root, hits } = await pricedHits(
        html`<template>
          <span class="note" data-text="note" data-currency="USD" data-decimals="2"></span>
          <span class="plain" data-text="note" data-number></span>
        </template>`,
        'en',
      );
      await new Promise((r) => setTimeout(r, 100)); // let any injected image error handler run
      expect(cells(hits, '.note')).to.deep.equal([PRICED[0].note, PRICED[1].note]);
      expect(cells(hits, '.plain')).to.deep.equal([PRICED[0].note, PRICED[1].note]);
      expect(deepQueryAll(root, 'img, b, script, [onerror]')).to.deep.equal([]);
      expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    });
  });

  describe('asks only for the attributes it shows', () => {
    /** The main query's parameters of the last search. */
    const lastParams = (root: SvcSearch) => {
      const searches = root.store!.requestLog.filter((entry) => entry.kind === 'search');
      return (searches.at(-1)!.body as { requests: Array<{ params: Record<string, unknown> }> }).requests[0]!.params;
    };
    const fieldsOf = (root: SvcSearch) => Object.keys(root.store!.getSnapshot().results!.hits[0]!).sort();

    it('a <template>: the fields it names, highlighted and snippeted as it shows them', async () => {
      const root = await searchFixture(
        indexName,
        html`<svc-hits><template>
          <a data-href="url"><svc-highlight attribute="name"></svc-highlight></a>
          <span data-text="brand" data-number></span>
          <svc-snippet attribute="description" words="5"></svc-snippet>
          <button data-svc-conversion="Added to cart">Add</button>
        </template></svc-hits>`,
      );
      const params = lastParams(root);
      expect(params.attributesToRetrieve).to.deep.equal(['brand', 'description', 'name', 'url']);
      expect(params.attributesToHighlight).to.deep.equal(['name']);
      expect(params.attributesToSnippet).to.deep.equal(['description:5']);
      expect(fieldsOf(root)).to.deep.equal([
        '_highlightResult',
        '_snippetResult',
        'brand',
        'description',
        'name',
        'objectID',
        'url',
      ]);
      expect(Object.keys(root.store!.getSnapshot().results!.hits[0]!._highlightResult!)).to.deep.equal(['name']);
      // The rendering still has everything it shows.
      const hits = root.querySelector('svc-hits')!;
      expect(shadow(hits).querySelector('a')!.getAttribute('href')).to.equal('/products/p0');
      const highlight = shadow(hits).querySelector('svc-highlight')!;
      await (highlight as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      expect(shadow(highlight).textContent).to.contain('Apple smartphone model 0');
      expect(texts(hits)[0]).to.contain('Apple');
    });

    it('the default rendering: the highlighted attribute only (every attribute highlighted without one)', async () => {
      const root = await searchFixture(indexName, html`<svc-hits attribute="brand"></svc-hits>`);
      expect(lastParams(root).attributesToRetrieve).to.deep.equal(['brand']);
      expect(lastParams(root).attributesToHighlight).to.deep.equal(['brand']);
      expect(fieldsOf(root)).to.deep.equal(['_highlightResult', 'brand', 'objectID']);
      expect(texts(root.querySelector('svc-hits')!)[0]).to.equal('Apple');

      const plain = await searchFixture(indexName, html`<svc-hits></svc-hits>`);
      expect(lastParams(plain).attributesToRetrieve).to.deep.equal([]);
      expect(lastParams(plain)).not.to.have.property('attributesToHighlight');
      expect(fieldsOf(plain)).to.deep.equal(['_highlightResult', 'objectID']);
      expect(texts(plain.querySelector('svc-hits')!)[0]).to.equal('Apple smartphone model 0');
    });

    it('renderHit, attributes-to-retrieve="*" or a reader it cannot see: whatever the index returns', async () => {
      const render = (hit: Record<string, unknown>) => `${hit.name} · ${hit.price}`;
      const custom = await searchFixture(indexName, html`<svc-hits .renderHit=${render}></svc-hits>`);
      expect(lastParams(custom)).not.to.have.property('attributesToRetrieve');
      expect(texts(custom.querySelector('svc-hits')!)[0]).to.equal('Apple smartphone model 0 · 100');

      const all = await searchFixture(
        indexName,
        html`<svc-hits attributes-to-retrieve="*"><template><span data-text="name"></span></template></svc-hits>`,
      );
      expect(lastParams(all)).not.to.have.property('attributesToRetrieve');
      expect(lastParams(all)).not.to.have.property('attributesToHighlight');
      expect(fieldsOf(all)).to.include('price');

      // Code of the page reading hits registers what it reads ('*': everything); the lists then ask for it too.
      const shared = await searchFixture(
        indexName,
        html`<svc-hits><template><span data-text="name"></span></template></svc-hits>`,
      );
      shared.store!.registerNeeds('page-code', { attributesToRetrieve: ['price'] });
      await settled(shared.store!);
      expect(lastParams(shared).attributesToRetrieve).to.deep.equal(['name', 'price']);
      shared.store!.registerNeeds('page-code', { attributesToRetrieve: ['*'] });
      await settled(shared.store!);
      expect(lastParams(shared)).not.to.have.property('attributesToRetrieve');
    });

    it('attributes-to-retrieve adds fields; several lists ask for what they show together', async () => {
      const root = await searchFixture(
        indexName,
        html`<svc-hits attributes-to-retrieve="sku, price"><template><span data-text="name"></span></template></svc-hits
          ><svc-hits attribute="brand"></svc-hits>`,
      );
      expect(lastParams(root).attributesToRetrieve).to.deep.equal(['brand', 'name', 'price', 'sku']);
      // One template list shows no highlight, the other highlights its brand.
      expect(lastParams(root).attributesToHighlight).to.deep.equal(['brand']);
    });
  });
});
