/**
 * React 19 embedding, with the example users copy (examples/react/Shop.tsx): the elements in JSX with
 * properties (a `renderHit` function, a store object), typed `on<event>` listeners, and a component that mounts and unmounts them repeatedly without
 * leaving store subscriptions, store needs or document/window listeners behind. Real local service.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type {} from '../../src/types/react.js';
import type { SearchStore } from '../../src/store/types.js';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import { Shop } from '../../examples/react/Shop.js';
import { countListeners, countedStore, hitTexts, indexProducts, until, clearInsightsStorage } from './fixture.js';

/** Mounts and unmounts the shop from React state, as a route or a tab would. */
function Toggle({ store }: { store: SearchStore }) {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown((value) => !value)}>
        toggle
      </button>
      {shown ? <Shop store={store} /> : null}
    </>
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('React 19', () => {
  let indexName: string;
  let host: HTMLElement;
  let root: Root;

  before(async () => {
    indexName = await indexProducts('embed_react');
  });

  after(() => clearInsightsStorage());

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });

  afterEach(() => {
    root.unmount();
    host.remove();
  });

  it('passes a store object and a renderHit function as properties, and the hits render through it', async () => {
    const { store } = countedStore(indexName);
    flushSync(() => root.render(<Shop store={store} insights={false} />));
    const search = host.querySelector('svc-search')!;
    const hits = host.querySelector('svc-hits')!;
    expect(search.store === store, 'the store property is the object bound').to.equal(true);
    expect(typeof hits.renderHit).to.equal('function');
    expect(hits.hasAttribute('renderhit')).to.equal(false);
    await until(() => hitTexts(hits).length > 0, 'hits rendered');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1 · 101.00');
    expect(store.requestLog.some((entry) => entry.kind === 'search')).to.equal(true);
    store.dispose();
  });

  it('insights="false" as written in HTML turns insights off (React sets it as the property)', async () => {
    const { store } = countedStore(indexName);
    flushSync(() => root.render(<svc-search store={store} insights="false" />));
    const search = host.querySelector('svc-search')!;
    expect(search.insightsEnabled).to.equal(false);
    expect(search.insights === undefined, 'insights off').to.equal(true);
    flushSync(() => root.render(<svc-search store={store} insights={true} />));
    expect(search.insightsEnabled).to.equal(true);
    await search.updateComplete;
    expect(search.insights !== undefined, 'insights on').to.equal(true);
    store.dispose();
  });

  it('delivers typed svc-* events to on<event> props on user action', async () => {
    const { store } = countedStore(indexName);
    const queries: string[] = [];
    const refinements: SvcRefineEventDetail[] = [];
    const pages: number[] = [];
    flushSync(() =>
      root.render(
        <Shop
          store={store}
          insights={false}
          onQuery={(q) => queries.push(q)}
          onRefine={(d) => refinements.push(d)}
          onPage={(p) => pages.push(p)}
        />,
      ),
    );
    const hits = host.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'first hits');

    const input = host.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!;
    input.focus();
    await sendKeys({ type: 'globex' });
    await until(() => queries.at(-1) === 'globex', 'svc-search-input with the query');
    await until(
      () => hitTexts(hits).length === 6 && hitTexts(hits).every((text) => text.startsWith('Globex')),
      'Globex hits',
    );

    const list = host.querySelector('svc-refinement-list')!;
    await until(() => Boolean(list.shadowRoot?.querySelector('input[type="checkbox"]')), 'brand values');
    const checkbox = list.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    checkbox.click();
    await until(() => refinements.length === 1, 'svc-refine');
    expect(refinements[0]).to.deep.equal({ attribute: 'brand', value: 'Globex', refined: true });
    expect(store.isRefined('brand', 'Globex')).to.equal(true);

    // Back to all products: two pages at the default hits per page (20) → a page change event.
    input.select();
    await sendKeys({ press: 'Backspace' });
    checkbox.click();
    await until(() => store.getSnapshot().results?.nbPages === 2 && !store.isRefined('brand', 'Globex'), 'two pages');
    const pager = host.querySelector('svc-pagination')!;
    await until(() => Boolean(pager.shadowRoot?.querySelector('a[part~="page"]:not([part~="current"])')), 'page links');
    pager.shadowRoot!.querySelector<HTMLAnchorElement>('a[part~="page"]:not([part~="current"])')!.click();
    await until(() => pages.length === 1, 'svc-page-change');
    expect(pages).to.deep.equal([1]);
    store.dispose();
  });

  it('mounts and unmounts the elements 15 times without leaking subscriptions, needs or listeners', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(60_000); // many real searches in a row; generous for a loaded machine
    const counted = countedStore(indexName);
    const listeners = countListeners();
    try {
      const baseline = { subscribers: counted.subscribers(), needs: counted.needs(), listeners: listeners.active() };
      flushSync(() => root.render(<Toggle store={counted.store} />));
      const button = host.querySelector('button')!;
      let mountedSubscribers = 0;
      for (let round = 0; round < 15; round++) {
        await until(() => hitTexts(host.querySelector('svc-hits')).length > 0, `hits shown (round ${round})`);
        if (round === 0) mountedSubscribers = counted.subscribers();
        // Each mount takes the same number of subscriptions as the first: nothing accumulates.
        expect(counted.subscribers(), `subscribers while mounted, round ${round}`).to.equal(mountedSubscribers);
        flushSync(() => button.click()); // unmount
        expect(host.querySelector('svc-search') === null, 'unmounted').to.equal(true);
        await settle(); // <svc-search> tears down after the task in which it was removed
        await settle();
        expect(counted.subscribers(), `subscribers after unmount, round ${round}`).to.equal(baseline.subscribers);
        expect(counted.needs(), `needs after unmount, round ${round}`).to.equal(baseline.needs);
        expect(listeners.active(), `document/window listeners after unmount, round ${round}`).to.equal(
          baseline.listeners,
        );
        flushSync(() => button.click()); // mount again
      }
      expect(mountedSubscribers).to.be.greaterThan(3);
      // Once everything is gone, nobody listens: an action changes the state but sends nothing (issue 3,
      // "unsubscribing stops work") and throws nothing …
      flushSync(() => button.click());
      await settle();
      await settle();
      expect(counted.subscribers()).to.equal(baseline.subscribers);
      const before = counted.store.requestLog.length;
      counted.store.setQuery('acme');
      await settle();
      await settle();
      expect(counted.store.requestLog.length, 'no search without a listener').to.equal(before);
      expect(counted.store.getSnapshot().state.query).to.equal('acme');
      // … until a listener comes back: one search of the new state.
      const unsubscribe = counted.store.subscribe(() => {});
      await until(() => counted.store.requestLog.length > before, 'a new listener makes the store search');
      expect(counted.store.requestLog.length).to.equal(before + 1);
      unsubscribe();
    } finally {
      listeners.restore();
      counted.store.dispose();
    }
  });
});
