import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcCurrentRefinements } from '../../src/elements/current-refinements/svc-current-refinements.js';
import '../../src/elements/current-refinements/define.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

/** What the user sees: one line per attribute, "Label: chip, chip". */
const groups = (element: SvcCurrentRefinements) =>
  [...shadow(element).querySelectorAll('[part="item"]')].map((item) => ({
    label: item.querySelector('[part="label"]')!.textContent!.trim(),
    chips: [...item.querySelectorAll('[part="chip-label"]')].map((chip) => chip.textContent!.trim()),
  }));
const removeButtons = (element: SvcCurrentRefinements) => [
  ...shadow(element).querySelectorAll<HTMLButtonElement>('button[part="remove"]'),
];

describe('<svc-current-refinements>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_current_el', undefined, {
      attributesForFaceting: ['searchable(brand)', 'category', 'price'],
    });
  });

  async function setup(content = html`<svc-current-refinements></svc-current-refinements>`) {
    const root = await searchFixture(indexName, content);
    const element = root.querySelector('svc-current-refinements')!;
    await element.updateComplete;
    return { root, element, store: root.store! };
  }

  async function refineSome(store: Awaited<ReturnType<typeof setup>>['store'], element: SvcCurrentRefinements) {
    store.toggleRefinement('brand', 'Sony', 'or');
    store.toggleRefinement('brand', 'Apple', 'or');
    store.toggleRefinement('category', 'Phones', 'and');
    store.addNumericRefinement('price', '>=', 200);
    await settled(store);
    await element.updateComplete;
  }

  it('is accessible, with and without refinements', async () => {
    const { element, store } = await setup();
    await expect(element).to.be.accessible();
    await refineSome(store, element);
    await expect(element).to.be.accessible();
  });

  it('shows nothing while there is no refinement, and ignores the query by default', async () => {
    const { element, store } = await setup();
    const list = shadow(element).querySelector('[part="list"]') as HTMLElement;
    expect(list.hidden).to.be.true;
    store.setQuery('notebok');
    await settled(store);
    await element.updateComplete;
    expect(list.hidden).to.be.true;
    expect(element.items).to.deep.equal([]);
  });

  it('lists facet, disjunctive and numeric refinements by attribute, with labels', async () => {
    const { element, store } = await setup(
      html`<svc-current-refinements labels='{"brand":"Brand","price":"Price"}'></svc-current-refinements>`,
    );
    await refineSome(store, element);
    expect(groups(element)).to.deep.equal([
      { label: 'Brand:', chips: ['Sony', 'Apple'] },
      { label: 'category:', chips: ['Phones'] },
      { label: 'Price:', chips: ['≥ 200'] },
    ]);
    expect(removeButtons(element).map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Remove Brand: Sony',
      'Remove Brand: Apple',
      'Remove category: Phones',
      'Remove Price: ≥ 200',
    ]);
    expect(shadow(element).querySelector('[part="list"]')!.getAttribute('aria-label')).to.equal('Current refinements');
  });

  it('removes a refinement on click, fires svc-refinement-remove, and the results follow', async () => {
    const { element, store } = await setup();
    await refineSome(store, element);
    const before = store.getSnapshot().results!.nbHits;
    const removed = oneEvent(element, 'svc-refinement-remove');
    removeButtons(element)[0].click(); // Sony
    expect((await removed).detail).to.deep.equal({ attribute: 'brand', type: 'disjunctive', value: 'Sony' });
    await settled(store);
    await element.updateComplete;
    expect(store.isRefined('brand', 'Sony')).to.be.false;
    expect(store.getSnapshot().results!.nbHits).to.be.lessThan(before);
    expect(groups(element)[0]).to.deep.equal({ label: 'brand:', chips: ['Apple'] });

    const numeric = oneEvent(element, 'svc-refinement-remove');
    removeButtons(element)[2].click(); // price ≥ 200
    expect((await numeric).detail).to.deep.equal({ attribute: 'price', type: 'numeric', value: 200, operator: '>=' });
    await settled(store);
    expect(store.getSnapshot().state.numericRefinements.price ?? []).to.deep.equal([]);
  });

  it('works with the keyboard and keeps focus on the next chip', async () => {
    const { element, store } = await setup();
    await refineSome(store, element);
    removeButtons(element)[1].focus(); // Apple
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await element.updateComplete;
    expect(store.isRefined('brand', 'Apple')).to.be.false;
    // Focus moved to what is now the second button (category: Phones).
    expect(shadow(element).activeElement).to.equal(removeButtons(element)[1]);
    expect(shadow(element).activeElement!.getAttribute('aria-label')).to.equal('Remove category: Phones');
    await sendKeys({ press: 'Space' });
    await settled(store);
    await element.updateComplete;
    expect(store.isRefined('category', 'Phones')).to.be.false;
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect(shadow(element).activeElement!.getAttribute('aria-label')).to.equal('Remove brand: Sony');
  });

  it('fires no event for changes made elsewhere', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-refinement-remove', () => fired++);
    await refineSome(store, element);
    store.clearRefinements();
    await settled(store);
    expect(fired).to.equal(0);
  });

  it('honours included-attributes and excluded-attributes (and can list the query)', async () => {
    const { root, store } = await setup(html`
      <svc-current-refinements id="only-brand" included-attributes="brand"></svc-current-refinements>
      <svc-current-refinements id="no-brand" excluded-attributes="brand,query"></svc-current-refinements>
      <svc-current-refinements id="with-query" excluded-attributes=""></svc-current-refinements>
    `);
    const [onlyBrand, noBrand, withQuery] = ['only-brand', 'no-brand', 'with-query'].map(
      (id) => root.querySelector<SvcCurrentRefinements>(`#${id}`)!,
    );
    store.setQuery('phone');
    await refineSome(store, onlyBrand);
    await noBrand.updateComplete;
    await withQuery.updateComplete;
    expect(groups(onlyBrand).map((g) => g.label)).to.deep.equal(['brand:']);
    expect(groups(noBrand).map((g) => g.label)).to.deep.equal(['category:', 'price:']);
    expect(groups(withQuery).at(-1)).to.deep.equal({ label: 'Query:', chips: ['phone'] });
    removeButtons(withQuery).at(-1)!.click();
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('');
  });

  it('reports labels that are not a JSON object', async () => {
    const original = console.error;
    const messages: string[] = [];
    console.error = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
    try {
      const { element, store } = await setup(
        html`<svc-current-refinements labels="brand: Brand"></svc-current-refinements>`,
      );
      store.toggleRefinement('brand', 'Sony', 'or');
      await settled(store);
      await element.updateComplete;
      expect(groups(element)).to.deep.equal([{ label: 'brand:', chips: ['Sony'] }]);
    } finally {
      console.error = original;
    }
    expect(messages).to.deep.equal([
      '<svc-current-refinements>: labels must be a JSON object such as {"brand":"Brand"}, got brand: Brand',
    ]);
  });

  it('shows hostile refined values as text only', async () => {
    const hostile = await createIndex('svc_current_hostile', HOSTILE);
    const root = await searchFixture(
      hostile,
      html`<svc-current-refinements excluded-attributes=""></svc-current-refinements>`,
    );
    const element = root.querySelector('svc-current-refinements')!;
    const store = root.store!;
    store.toggleRefinement('brand', HOSTILE[0].brand, 'or');
    store.toggleRefinement('category', HOSTILE[1].category, 'and');
    store.setQuery('<svg onload="window.__svcPwned = 11">');
    await settled(store);
    await element.updateComplete;
    const chips = groups(element).flatMap((g) => g.chips);
    expect(chips).to.include(HOSTILE[0].brand);
    expect(chips).to.include(HOSTILE[1].category);
    expect(deepQueryAll(root, 'img, script, svg')).to.have.length(0);
    expect(removeButtons(element)[0].getAttribute('aria-label')).to.equal(`Remove brand: ${HOSTILE[0].brand}`);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
