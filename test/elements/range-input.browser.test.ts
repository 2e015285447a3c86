import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SearchStore } from '../../src/store/types.js';
import type { SvcRangeInput, SvcRangeChangeEventDetail } from '../../src/elements/range-input/svc-range-input.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import '../../src/elements/range-input/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/current-refinements/define.js';
import '../../src/elements/clear-refinements/define.js';
import { APP_ID, PRODUCTS, SEARCH_KEY, createIndex, searchFixture, settled, shadow } from './search-fixture.js';

// PRODUCTS: p0…p35 priced 100, 110, … 450.
const fields = (element: SvcRangeInput) => ({
  min: shadow(element).querySelector<HTMLInputElement>('input[part~="min"]')!,
  max: shadow(element).querySelector<HTMLInputElement>('input[part~="max"]')!,
  submit: shadow(element).querySelector<HTMLButtonElement>('button[part~="submit"]')!,
  error: shadow(element).querySelector<HTMLElement>('[part~="error"]')!,
  form: shadow(element).querySelector<HTMLFormElement>('form[part~="form"]')!,
});

/** The main query of the last search the store made (sent, or answered from its cache for a state already seen). */
function lastSent(store: SearchStore): Record<string, unknown> {
  const sent = store.requestLog.filter((entry) => entry.kind === 'search').at(-1)!;
  return (sent.body as { requests: Array<{ params: Record<string, unknown> }> }).requests[0]!.params;
}

const prices = (store: SearchStore) => store.getSnapshot().results!.hits.map((hit) => hit.price as number);

/** Types into a field as a user does (focus, select all, type). */
async function type(field: HTMLInputElement, text: string) {
  field.focus();
  field.select();
  if (text) await sendKeys({ type: text });
  else await sendKeys({ press: 'Backspace' });
}

describe('<svc-range-input>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_range_el', PRODUCTS, {
      attributesForFaceting: ['searchable(brand)', 'category', 'price'],
    });
  });

  async function setup(
    content = html`<svc-range-input attribute="price"></svc-range-input>`,
    options: { insights?: boolean } = {},
  ) {
    // The test reads each hit's price: it asks for it as page code does (the list alone shows only the name).
    const root = await searchFixture(
      indexName,
      html`${content}<svc-hits attributes-to-retrieve="price"></svc-hits>`,
      options,
    );
    const element = root.querySelector('svc-range-input')!;
    const store = root.store!;
    await settled(store);
    await element.updateComplete;
    return { root, element, store };
  }

  async function submit(element: SvcRangeInput, store: SearchStore) {
    fields(element).submit.click();
    await settled(store);
    await element.updateComplete;
  }

  it('is accessible: empty, refined, and showing an error', async () => {
    const { element, store } = await setup();
    await expect(element).to.be.accessible();
    await type(fields(element).min, '200');
    await type(fields(element).max, '300');
    await submit(element, store);
    await expect(element).to.be.accessible();
    await type(fields(element).min, '400');
    await submit(element, store);
    expect(fields(element).error.textContent).to.not.equal('');
    await expect(element).to.be.accessible();
  });

  it('takes its bounds from facets_stats: placeholders, min, max and step of the labelled fields', async () => {
    const { element, store } = await setup();
    expect(lastSent(store).facets).to.include('price');
    expect(store.getSnapshot().results!.facets_stats!.price).to.deep.include({ min: 100, max: 450 });
    const { min, max, submit: button } = fields(element);
    expect([min.placeholder, max.placeholder]).to.deep.equal(['100', '450']);
    for (const field of [min, max]) {
      expect(field.type).to.equal('number');
      expect([field.min, field.max, field.step]).to.deep.equal(['100', '450', '1']);
      expect(field.labels![0]!.textContent!.trim()).to.equal(field === min ? 'Minimum price' : 'Maximum price');
    }
    expect(button.textContent!.trim()).to.equal('Go');
    expect(shadow(element).querySelector('[part~="separator"]')!.textContent).to.equal('to');
    expect(element.range).to.deep.equal({ min: 100, max: 450 });
  });

  it('submits a range: one request with both numeric filters, hits within it, back to the first page', async () => {
    const { element, store } = await setup();
    store.setPage(1);
    await settled(store);
    const sentBefore = store.requestLog.length;
    await type(fields(element).min, '200');
    await type(fields(element).max, '300');
    await submit(element, store);
    expect(store.requestLog.length).to.equal(sentBefore + 1);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=200', 'price<=300']);
    const { state, results } = store.getSnapshot();
    expect(state.numericRefinements).to.deep.equal({
      price: [
        { operator: '>=', value: 200 },
        { operator: '<=', value: 300 },
      ],
    });
    expect(state.page).to.equal(0);
    expect(results!.nbHits).to.equal(11);
    expect(prices(store).every((price) => price >= 200 && price <= 300)).to.be.true;
    expect(element.value).to.deep.equal({ min: 200, max: 300 });
    // The bounds are those of the results without the range: the store asked price's stats in a second
    // query of the same request, without price's own filters.
    const queries = (store.requestLog.at(-1)!.body as { requests: Array<{ params: Record<string, unknown> }> })
      .requests;
    expect(queries.map((query) => query.params.numericFilters)).to.deep.equal([
      ['price>=200', 'price<=300'],
      undefined,
    ]);
    expect(results!.facets_stats!.price).to.deep.include({ min: 100, max: 450 });
    expect([fields(element).min.placeholder, fields(element).max.placeholder]).to.deep.equal(['100', '450']);
  });

  it('refines one side only, and an emptied field removes its side', async () => {
    const { element, store } = await setup();
    await type(fields(element).min, '400');
    await submit(element, store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=400']);
    expect(prices(store).sort((a, b) => a - b)).to.deep.equal([400, 410, 420, 430, 440, 450]);

    await type(fields(element).min, '');
    await type(fields(element).max, '120');
    await submit(element, store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price<=120']);
    expect(prices(store).sort((a, b) => a - b)).to.deep.equal([100, 110, 120]);

    await type(fields(element).max, '');
    await submit(element, store);
    expect(lastSent(store).numericFilters).to.equal(undefined);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
  });

  it('refuses min > max with an accessible inline message, and sends nothing', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-range-change', () => fired++);
    const { min, max, error } = fields(element);
    expect(error.getAttribute('role')).to.equal('alert');
    expect(getComputedStyle(error).display).to.equal('none');
    const sentBefore = store.requestLog.length;
    await type(min, '300');
    await type(max, '200');
    await submit(element, store);
    await new Promise((r) => setTimeout(r, 50));
    expect(store.requestLog.length).to.equal(sentBefore);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
    expect(fired).to.equal(0);
    expect(error.textContent!.trim()).to.equal('The minimum (300) is greater than the maximum (200).');
    expect(getComputedStyle(error).display).to.not.equal('none');
    for (const field of [min, max]) {
      expect(field.getAttribute('aria-invalid')).to.equal('true');
      expect(field.getAttribute('aria-describedby')).to.equal(error.id);
    }
    // Correcting a field takes the message away; the corrected range is sent.
    await type(max, '350');
    await element.updateComplete;
    expect(error.textContent!.trim()).to.equal('');
    expect(min.hasAttribute('aria-invalid')).to.be.false;
    expect(max.hasAttribute('aria-describedby')).to.be.false;
    await submit(element, store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=300', 'price<=350']);
    expect(fired).to.equal(1);
  });

  it('refuses what is not a number (typed "1e") with its own message', async () => {
    const { element, store } = await setup();
    const { max, error } = fields(element);
    const sentBefore = store.requestLog.length;
    await type(max, '1e');
    expect(max.validity.badInput).to.be.true;
    await submit(element, store);
    expect(store.requestLog.length).to.equal(sentBefore);
    expect(error.textContent!.trim()).to.equal('Enter a number.');
    expect(max.getAttribute('aria-invalid')).to.equal('true');
    expect(fields(element).min.hasAttribute('aria-invalid')).to.be.false;
  });

  it('submits with Enter from either field; Tab goes min → max → Go', async () => {
    const { element, store } = await setup();
    const focused = () => shadow(element).activeElement?.getAttribute('part');
    await type(fields(element).min, '150');
    await sendKeys({ press: 'Enter' });
    await settled(store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=150']);
    await sendKeys({ press: 'Tab' });
    expect(focused()).to.equal('input max');
    await sendKeys({ type: '170' });
    await sendKeys({ press: 'Enter' });
    await settled(store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=150', 'price<=170']);
    await sendKeys({ press: 'Tab' });
    expect(focused()).to.equal('submit');
    // Focusing the element from outside focuses its first field (delegatesFocus).
    (shadow(element).activeElement as HTMLElement).blur();
    element.focus();
    expect(focused()).to.equal('input min');
  });

  it('fires svc-range-change with { attribute, min, max } on submission only', async () => {
    const { element, store, root } = await setup();
    const changes: SvcRangeChangeEventDetail[] = [];
    root.addEventListener('svc-range-change', (event) => changes.push(event.detail));
    await type(fields(element).min, '200');
    const changed = oneEvent(element, 'svc-range-change');
    fields(element).submit.click();
    const event = await changed;
    expect(event.detail).to.deep.equal({ attribute: 'price', min: 200, max: undefined });
    expect(event.bubbles && event.composed).to.be.true;
    await settled(store);
    // The same range again: nothing changes, no event, no request.
    const sentBefore = store.requestLog.length;
    await submit(element, store);
    expect(store.requestLog.length).to.equal(sentBefore);
    // Changes made elsewhere, and the element's own `refine()`, fire nothing.
    store.addNumericRefinement('price', '<=', 400);
    await settled(store);
    element.refine({ min: 110, max: 130 });
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(3);
    expect(changes).to.have.length(1);
    expect(() => element.refine({ min: 5, max: 1 })).to.throw(RangeError, /min \(5\) is greater than max \(1\)/);
  });

  it('shows refinements made elsewhere: current refinements, clear refinements, the store', async () => {
    const { element, store, root } = await setup(html`<svc-range-input attribute="price"></svc-range-input>
      <svc-current-refinements></svc-current-refinements><svc-clear-refinements></svc-clear-refinements>`);
    const current = root.querySelector('svc-current-refinements')!;
    const clear = root.querySelector('svc-clear-refinements')!;
    store.addNumericRefinement('price', '>=', 150);
    store.addNumericRefinement('price', '<=', 250);
    await settled(store);
    await element.updateComplete;
    expect([fields(element).min.value, fields(element).max.value]).to.deep.equal(['150', '250']);
    await current.updateComplete;
    const removeMax = [...shadow(current).querySelectorAll<HTMLButtonElement>('button[part="remove"]')].find((b) =>
      /≤ 250/.test(b.getAttribute('aria-label')!),
    )!;
    removeMax.click();
    await settled(store);
    await element.updateComplete;
    expect([fields(element).min.value, fields(element).max.value]).to.deep.equal(['150', '']);
    await clear.updateComplete;
    shadow(clear).querySelector<HTMLButtonElement>('button')!.click();
    await settled(store);
    await element.updateComplete;
    expect([fields(element).min.value, fields(element).max.value]).to.deep.equal(['', '']);
    expect(element.value).to.deep.equal({ min: undefined, max: undefined });
  });

  it('reads the range from the URL state (routing)', async () => {
    const original = location.href;
    history.replaceState(null, '', `${location.pathname}?numeric%5Bprice%5D=%3E%3D120&numeric%5Bprice%5D=%3C%3D160`);
    try {
      const root =
        await fixture<SvcSearch>(html`<svc-search routing insights="false" app-id=${APP_ID} api-key=${SEARCH_KEY}
        index-name=${indexName} hosts=${location.origin}><svc-range-input attribute="price"></svc-range-input></svc-search>`);
      await settled(root.store!);
      const element = root.querySelector('svc-range-input')!;
      await element.updateComplete;
      expect([fields(element).min.value, fields(element).max.value]).to.deep.equal(['120', '160']);
      expect(root.store!.getSnapshot().results!.nbHits).to.equal(5);
      root.remove();
    } finally {
      history.replaceState(null, '', original);
    }
  });

  it('keeps what the user is typing while results arrive', async () => {
    const { element, store } = await setup();
    await type(fields(element).min, '333');
    store.setQuery('notebook');
    await settled(store);
    await element.updateComplete;
    expect(fields(element).min.value).to.equal('333');
  });

  it('min, max and precision attributes set the bounds, the step and the rounding', async () => {
    const { element, store } = await setup(
      html`<svc-range-input attribute="price" min="0" max="1000" precision="2"></svc-range-input>`,
    );
    const { min, max } = fields(element);
    expect([min.placeholder, max.placeholder]).to.deep.equal(['0', '1000']);
    expect([min.min, min.max, min.step]).to.deep.equal(['0', '1000', '0.01']);
    // The minimum is rounded down, the maximum up: the range is never narrower than typed.
    await type(min, '120.555');
    await type(max, '150.001');
    await submit(element, store);
    expect(lastSent(store).numericFilters).to.deep.equal(['price>=120.55', 'price<=150.01']);
    expect([min.value, max.value]).to.deep.equal(['120.55', '150.01']);
    // One bound given, the other from the stats; precision 0 by default rounds the stats outward.
    element.min = undefined;
    element.max = 300;
    element.precision = 0;
    await element.updateComplete;
    expect([min.placeholder, max.placeholder, min.step]).to.deep.equal(['100', '300', '1']);
  });

  it('reports wrong attributes and keeps working', async () => {
    const original = console.error;
    const messages: string[] = [];
    console.error = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
    try {
      const { element } = await setup(
        html`<svc-range-input attribute="price" min="ten" precision="-1"></svc-range-input>`,
      );
      expect(messages.some((m) => /<svc-range-input>: min must be a number/.test(m))).to.be.true;
      expect(messages.some((m) => /<svc-range-input>: .*precision must be an integer from 0 to 20/.test(m))).to.be.true;
      expect(fields(element).min.placeholder).to.equal('100');
      expect(fields(element).min.step).to.equal('1');
      element.removeAttribute('precision');
      element.min = 500;
      element.max = 100;
      await element.updateComplete;
      expect(messages.some((m) => /min \(500\) is greater than max \(100\); both ignored/.test(m))).to.be.true;
      expect(messages.filter((m) => /precision/.test(m))).to.have.length(1); // removing the attribute means 0, no error
      expect(fields(element).min.placeholder).to.equal('100');
    } finally {
      console.error = original;
    }
  });

  it('stays usable without stats: no hits, or an attribute that is not numeric', async () => {
    const { element, store, root } = await setup(html`<svc-range-input attribute="price"></svc-range-input>
      <svc-range-input id="brand" attribute="brand"></svc-range-input>`);
    const brand = root.querySelector<SvcRangeInput>('#brand')!;
    expect(fields(brand).min.hasAttribute('placeholder')).to.be.false;
    expect(fields(brand).min.hasAttribute('min')).to.be.false;
    store.setQuery('qqqqzzzz');
    await settled(store);
    await element.updateComplete;
    expect(store.getSnapshot().results!.nbHits).to.equal(0);
    const { min, max } = fields(element);
    expect(min.hasAttribute('placeholder') || min.hasAttribute('min') || max.hasAttribute('max')).to.be.false;
    store.setQuery('');
    await type(min, '440');
    await submit(element, store);
    expect(store.getSnapshot().results!.nbHits).to.equal(2);
  });

  it('sends nothing to Insights (a range is not an attribute:value filter)', async () => {
    const { element, store, root } = await setup(undefined, { insights: true });
    const events: string[] = [];
    root.addEventListener('svc-insights', (e) => events.push(e.detail.event.eventName));
    await type(fields(element).min, '200');
    await submit(element, store);
    await root.insights!.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(events.filter((name) => name !== 'Hits Viewed')).to.deep.equal([]);
  });

  it('translates every string per element and through <svc-search>, with lang and rtl', async () => {
    const { element, store, root } = await setup();
    root.translations = { submit: 'OK', 'svc-range-input.separator': 'à' };
    element.translations = {
      minLabel: 'Prix minimum',
      maxLabel: 'Prix maximum',
      minPlaceholder: 'dès {value}',
      maxPlaceholder: "jusqu'à {value}",
      invalidRange: 'Le minimum ({min}) dépasse le maximum ({max}).',
    };
    root.setAttribute('lang', 'de');
    root.setAttribute('dir', 'rtl');
    await element.updateComplete;
    const { min, max, submit: button, error } = fields(element);
    expect(button.textContent!.trim()).to.equal('OK');
    expect(shadow(element).querySelector('[part~="separator"]')!.textContent).to.equal('à');
    expect([min.labels![0]!.textContent, max.labels![0]!.textContent]).to.deep.equal(['Prix minimum', 'Prix maximum']);
    expect([min.placeholder, max.placeholder]).to.deep.equal(['dès 100', "jusqu'à 450"]);
    await type(min, '1500');
    await type(max, '1000');
    await submit(element, store);
    // Numbers in messages follow the nearest lang.
    expect(error.textContent!.trim()).to.equal('Le minimum (1.500) dépasse le maximum (1.000).');
    // rtl: the minimum field is on the right of the maximum one, the button on the far left.
    expect(getComputedStyle(min).direction).to.equal('rtl');
    expect(min.getBoundingClientRect().left).to.be.greaterThan(max.getBoundingClientRect().left);
    expect(button.getBoundingClientRect().left).to.be.lessThan(max.getBoundingClientRect().left);
    await expect(element).to.be.accessible();
    root.removeAttribute('dir');
    await waitUntil(() => min.getBoundingClientRect().left < max.getBoundingClientRect().left, 'ltr again');
  });
});
