import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcClearRefinements } from '../../src/elements/clear-refinements/svc-clear-refinements.js';
import '../../src/elements/clear-refinements/define.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const button = (element: SvcClearRefinements) =>
  shadow(element).querySelector<HTMLButtonElement>('button[part="button"]')!;

describe('<svc-clear-refinements>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_clear_el', undefined, {
      attributesForFaceting: ['searchable(brand)', 'category', 'price'],
    });
  });

  async function setup(content = html`<svc-clear-refinements></svc-clear-refinements>`) {
    const root = await searchFixture(indexName, content);
    const element = root.querySelector('svc-clear-refinements')!;
    await element.updateComplete;
    return { root, element, store: root.store! };
  }

  async function refine(store: Awaited<ReturnType<typeof setup>>['store'], element: SvcClearRefinements) {
    store.setQuery('notebok');
    store.toggleRefinement('brand', 'Lenovo', 'or');
    store.toggleRefinement('category', 'Laptops', 'and');
    store.addNumericRefinement('price', '<', 300);
    await settled(store);
    await element.updateComplete;
  }

  it('is accessible, enabled and disabled', async () => {
    const { element, store } = await setup();
    await expect(element).to.be.accessible();
    await refine(store, element);
    await expect(element).to.be.accessible();
  });

  it('is disabled while there is nothing to clear (a query alone is not a refinement)', async () => {
    const { element, store } = await setup();
    expect(button(element).getAttribute('aria-disabled')).to.equal('true');
    expect(button(element).textContent!.trim()).to.equal('Clear refinements');
    expect(element.canClear).to.be.false;
    store.setQuery('notebok');
    await settled(store);
    await element.updateComplete;
    expect(button(element).getAttribute('aria-disabled')).to.equal('true');
    store.toggleRefinement('brand', 'Lenovo', 'or');
    await settled(store);
    await element.updateComplete;
    expect(button(element).getAttribute('aria-disabled')).to.equal('false');
  });

  it('clears every refinement but the query on click, fires svc-refinements-clear, and one search follows', async () => {
    const { element, store } = await setup();
    await refine(store, element);
    expect(store.getSnapshot().results!.nbHits).to.equal(3); // Lenovo notebooks p4, p10, p16 (140, 200, 260)
    const sent = store.requestLog.length;
    const cleared = oneEvent(element, 'svc-refinements-clear');
    button(element).click();
    expect((await cleared).detail).to.deep.equal({ attributes: ['brand', 'category', 'price'] });
    await settled(store);
    await element.updateComplete;
    const { state, results } = store.getSnapshot();
    expect(state.query).to.equal('notebok');
    expect(state.disjunctiveFacetRefinements.brand ?? []).to.deep.equal([]);
    expect(state.facetRefinements.category ?? []).to.deep.equal([]);
    expect(state.numericRefinements.price ?? []).to.deep.equal([]);
    expect(results!.nbHits).to.equal(12);
    // Three attributes cleared in one click: one request.
    expect(store.requestLog.slice(sent).filter((entry) => entry.kind === 'search' && !entry.cached)).to.have.length(1);
    expect(button(element).getAttribute('aria-disabled')).to.equal('true');
  });

  it('is used with the keyboard and keeps focus after clearing; a disabled click does nothing', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-refinements-clear', () => fired++);
    await refine(store, element);
    button(element).focus();
    await sendKeys({ press: 'Enter' });
    await settled(store);
    await element.updateComplete;
    expect(fired).to.equal(1);
    expect(element.canClear).to.be.false;
    expect(shadow(element).activeElement).to.equal(button(element));
    await sendKeys({ press: 'Space' });
    button(element).click();
    expect(fired).to.equal(1);
  });

  it('fires no event for changes made elsewhere', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-refinements-clear', () => fired++);
    await refine(store, element);
    element.clear(); // programmatic: no event
    await settled(store);
    expect(fired).to.equal(0);
    expect(element.canClear).to.be.false;
  });

  it('honours included-attributes and excluded-attributes (query included when not excluded)', async () => {
    const { root, store } = await setup(html`
      <svc-clear-refinements id="category-only" included-attributes="category"></svc-clear-refinements>
      <svc-clear-refinements id="everything" excluded-attributes="">Start over</svc-clear-refinements>
    `);
    const categoryOnly = root.querySelector<SvcClearRefinements>('#category-only')!;
    const everything = root.querySelector<SvcClearRefinements>('#everything')!;
    await refine(store, categoryOnly);
    button(categoryOnly).click();
    await settled(store);
    expect(store.getSnapshot().state.facetRefinements.category ?? []).to.deep.equal([]);
    expect(store.isRefined('brand', 'Lenovo')).to.be.true;
    await everything.updateComplete;
    // The slot replaces the label; the button's accessible name follows it.
    expect(everything.textContent!.trim()).to.equal('Start over');
    button(everything).click();
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('');
    expect(store.isRefined('brand', 'Lenovo')).to.be.false;
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
  });

  it('takes its label from translations', async () => {
    const { element } = await setup();
    element.translations = { clear: 'Alles löschen' };
    await element.updateComplete;
    expect(button(element).textContent!.trim()).to.equal('Alles löschen');
  });

  it('clears hostile refinements without injecting anything', async () => {
    const hostile = await createIndex('svc_clear_hostile', HOSTILE);
    const root = await searchFixture(hostile, html`<svc-clear-refinements></svc-clear-refinements>`);
    const element = root.querySelector('svc-clear-refinements')!;
    root.store!.toggleRefinement('brand', HOSTILE[0].brand, 'or');
    await settled(root.store!);
    await element.updateComplete;
    button(element).click();
    await settled(root.store!);
    expect(root.store!.isRefined('brand', HOSTILE[0].brand)).to.be.false;
    expect(deepQueryAll(root, 'img, script, svg')).to.have.length(0);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
