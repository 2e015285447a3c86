/**
 * <svc-numeric-menu> in real Chromium against the real service: axe, the radio group from <option> children
 * (read again when they change), arrows choose, one request per choice, counts with show-counts (computed from
 * the records, in the same request), the range shared with <svc-range-input>, the event, unlabelled and invalid
 * options, the items property, translations and rtl.
 */
import { expect, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcNumericMenu } from '../../src/elements/numeric-menu/svc-numeric-menu.js';
import '../../src/elements/numeric-menu/define.js';
import '../../src/elements/range-input/define.js';
import { searchFixture, settled, shadow } from './search-fixture.js';
import { countOf, createShopIndex } from './shop-fixture.js';

const radios = (menu: SvcNumericMenu) => [...shadow(menu).querySelectorAll<HTMLInputElement>('input[type="radio"]')];
const labels = (menu: SvcNumericMenu) =>
  [...shadow(menu).querySelectorAll('[part~="item"]')].map((label) => label.textContent!.replace(/\s+/g, ' ').trim());
const checked = (menu: SvcNumericMenu) => radios(menu).findIndex((radio) => radio.checked);

const OPTIONS = html`<option value="">All</option>
  <option value=":10">Under 10</option>
  <option value="10:100">10 to 100</option>
  <option value="100:">100 and above</option>`;

describe('<svc-numeric-menu>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_numeric');
  });

  async function setup(menu = html`<svc-numeric-menu attribute="price">${OPTIONS}</svc-numeric-menu>`) {
    const root = await searchFixture(indexName, html`${menu}<svc-range-input attribute="price"></svc-range-input>`);
    const element = root.querySelector('svc-numeric-menu')!;
    await waitUntil(() => radios(element).length > 0, 'the choices');
    await element.updateComplete;
    return { root, menu: element, store: root.store! };
  }

  it('is accessible: a radio group in a fieldset with a legend; All is chosen at first', async () => {
    const { menu } = await setup();
    await expect(menu).to.be.accessible();
    expect(shadow(menu).querySelector('legend')!.textContent).to.equal('Filter by price');
    expect(new Set(radios(menu).map((radio) => radio.name)).size).to.equal(1);
    expect(labels(menu)).to.deep.equal(['All', 'Under 10', '10 to 100', '100 and above']);
    expect(checked(menu)).to.equal(0);
  });

  it('a choice refines the range (one request); the arrows move and choose; svc-range-change', async () => {
    const { menu, store } = await setup();
    const logged = store.requestLog.length;
    const event = oneEvent(menu, 'svc-range-change');
    radios(menu)[2]!.click();
    expect((await event).detail).to.deep.equal({ attribute: 'price', min: 10, max: 100 });
    await settled(store);
    expect(store.requestLog.length).to.equal(logged + 1);
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([
      { operator: '>=', value: 10 },
      { operator: '<=', value: 100 },
    ]);
    expect(store.getSnapshot().results!.nbHits).to.equal(countOf((p) => p.price >= 10 && p.price <= 100));
    await menu.updateComplete;
    expect(checked(menu)).to.equal(2);
    radios(menu)[2]!.focus();
    await sendKeys({ press: 'ArrowDown' });
    await settled(store);
    await menu.updateComplete;
    expect(store.getSnapshot().state.numericRefinements.price).to.deep.equal([{ operator: '>=', value: 100 }]);
    expect(checked(menu)).to.equal(3);
    radios(menu)[0]!.click();
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements).to.deep.equal({});
  });

  it('shares the range with <svc-range-input>: a range set there selects the matching choice, or none', async () => {
    const { root, menu, store } = await setup();
    const range = root.querySelector('svc-range-input')!;
    const [min, max] = [...shadow(range).querySelectorAll<HTMLInputElement>('input')];
    min!.value = '10';
    max!.value = '100';
    shadow(range).querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    await settled(store);
    await menu.updateComplete;
    expect(checked(menu)).to.equal(2);
    max!.value = '50';
    shadow(range).querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    await settled(store);
    await menu.updateComplete;
    expect(checked(menu), 'a range of no choice').to.equal(-1);
    radios(menu)[1]!.click();
    await settled(store);
    await range.updateComplete;
    expect([min!.value, max!.value]).to.deep.equal(['', '10']);
  });

  it('show-counts: the hits of each range under the other refinements, in the same request', async () => {
    const { menu, store } = await setup(
      html`<svc-numeric-menu attribute="price" show-counts>${OPTIONS}</svc-numeric-menu>`,
    );
    await waitUntil(() => labels(menu).every((label) => /\d+$/.test(label)), 'the counts');
    const expected = [
      countOf(() => true),
      countOf((p) => p.price <= 10),
      countOf((p) => p.price >= 10 && p.price <= 100),
      countOf((p) => p.price >= 100),
    ];
    expect(labels(menu).map((label) => Number(label.split(' ').at(-1)))).to.deep.equal(expected);
    radios(menu)[3]!.click();
    await settled(store);
    await menu.updateComplete;
    expect(
      labels(menu).map((label) => Number(label.split(' ').at(-1))),
      'the own range left out',
    ).to.deep.equal(expected);
    const requests = (store.requestLog.at(-1)!.body as { requests: unknown[] }).requests;
    // The results, the range input's price stats without the range, one count per range: one request.
    expect(requests).to.have.length(1 + 1 + 4);
  });

  it('options are read again when they change; unlabelled options are named; an invalid one is reported and left out', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const { menu } = await setup(
        html`<svc-numeric-menu attribute="price"><option value=""></option><option value="5:20"></option><option value="x:y">Bad</option></svc-numeric-menu>`,
      );
      expect(labels(menu)).to.deep.equal(['All', '5 to 20']);
      expect(errors.some((error) => error.includes('"x:y"'))).to.be.true;
      const option = document.createElement('option');
      option.value = ':3';
      menu.append(option);
      await waitUntil(() => labels(menu).length === 3);
      expect(labels(menu)[2]).to.equal('Up to 3');
      menu.items = [{ label: 'Cheap', end: 50 }];
      await menu.updateComplete;
      expect(labels(menu)).to.deep.equal(['Cheap']);
    } finally {
      console.error = original;
    }
  });

  it('translations, lang and rtl', async () => {
    const { menu } = await setup(
      html`<svc-numeric-menu attribute="price" lang="de" dir="rtl"><option value=""></option><option value="1000:"></option></svc-numeric-menu>`,
    );
    menu.translations = { legend: 'Preis', all: 'Alle', above: 'ab {start}' };
    await menu.updateComplete;
    expect(labels(menu)).to.deep.equal(['Alle', 'ab 1.000']);
    expect(shadow(menu).querySelector('legend')!.textContent).to.equal('Preis');
    const label = shadow(menu).querySelector('[part~="item"]')!;
    const [radio, text] = [label.querySelector('input')!, label.querySelector('[part~="label-text"]')!].map((el) =>
      el.getBoundingClientRect(),
    );
    expect(radio!.left).to.be.greaterThan(text!.left);
    await expect(menu).to.be.accessible();
  });
});
