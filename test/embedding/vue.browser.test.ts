/**
 * Vue 3 embedding, with the example users copy (examples/vue/shop-search.ts): `isCustomElement` so Vue leaves the `svc-*` tags to the browser, `v-bind`
 * of properties (`.prop` / Vue's own `key in el` check), `@svc-…` listeners, and `v-if` mounting and
 * unmounting without leaks. A `template` string compiled at runtime by the full Vue build. Real local service.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createApp, nextTick, ref, shallowRef, type App } from 'vue';
import type {} from '../../src/types/vue.js';
import type { SearchStore } from '../../src/store/types.js';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import { ShopSearch, isCustomElement } from '../../examples/vue/shop-search.js';
import { countListeners, countedStore, hitTexts, indexProducts, until, clearInsightsStorage } from './fixture.js';

/** The app around the example component: its props from refs, its emits collected. */
const appTemplate = `<shop-search :store="store" :insights="insights" :shown="shown" @query="queries.push($event)" @refine="refinements.push($event)"></shop-search>`;

describe('Vue 3', () => {
  let indexName: string;
  let host: HTMLElement;
  let app: App | undefined;
  let warnings: string[];

  before(async () => {
    indexName = await indexProducts('embed_vue');
  });

  after(() => clearInsightsStorage());

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    warnings = [];
  });

  afterEach(() => {
    app?.unmount();
    app = undefined;
    host.remove();
  });

  function mount(store: SearchStore, insights = false) {
    const state = {
      shown: ref(true),
      store: shallowRef(store),
      insights: ref(insights),
      queries: ref<string[]>([]),
      refinements: ref<SvcRefineEventDetail[]>([]),
    };
    app = createApp({ components: { ShopSearch }, template: appTemplate, setup: () => state });
    app.config.compilerOptions.isCustomElement = isCustomElement;
    app.config.warnHandler = (message) => warnings.push(message);
    app.mount(host);
    return state;
  }

  it('needs isCustomElement: without it Vue tries to resolve svc-* as components', () => {
    // A template of its own: Vue compiles a component's template once and keeps the result on the component.
    app = createApp({ template: '<svc-search index-name="x"><svc-hits></svc-hits></svc-search>' });
    app.config.compilerOptions.isCustomElement = () => false;
    app.config.warnHandler = (message) => warnings.push(message);
    app.mount(host);
    expect(warnings.some((w) => w.includes('Failed to resolve component: svc-search'))).to.equal(true);
  });

  it('binds properties (store, renderHit, insightsEnabled) and the hits render through renderHit, with no Vue warning', async () => {
    const { store } = countedStore(indexName);
    mount(store);
    const search = host.querySelector('svc-search')!;
    const hits = host.querySelector('svc-hits')!;
    expect(search.store === store, 'the store property is the object bound').to.equal(true);
    expect(search.insightsEnabled).to.equal(false);
    expect(search.insights === undefined, 'insights off').to.equal(true);
    expect(typeof hits.renderHit).to.equal('function');
    expect(host.querySelector('svc-pagination')!.padding).to.equal(1);
    await until(() => hitTexts(hits).length > 0, 'hits');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1 (Acme)');
    expect(warnings).to.deep.equal([]);
    store.dispose();
  });

  it('insights="false" as written in HTML turns insights off (Vue sets it as the property)', async () => {
    const { store } = countedStore(indexName);
    app = createApp({
      template: '<svc-search :store.prop="store" insights="false"></svc-search>',
      setup: () => ({ store }),
    });
    app.config.compilerOptions.isCustomElement = isCustomElement;
    app.config.warnHandler = (message) => warnings.push(message);
    app.mount(host);
    const search = host.querySelector('svc-search')!;
    await search.updateComplete;
    expect(search.insightsEnabled).to.equal(false);
    expect(search.insights === undefined, 'insights off').to.equal(true);
    expect(warnings).to.deep.equal([]);
    store.dispose();
  });

  it('delivers @svc-search-input and @svc-refine to the component on user action', async () => {
    const { store } = countedStore(indexName);
    const state = mount(store);
    const hits = host.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits');
    host.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'laptop' });
    await until(() => state.queries.value.at(-1) === 'laptop', '@svc-search-input');
    await until(() => hitTexts(hits).length === 4, 'the 4 laptops');
    const list = host.querySelector('svc-refinement-list')!;
    await until(() => list.shadowRoot?.querySelectorAll('input[type="checkbox"]').length === 1, 'one brand value');
    list.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await until(() => state.refinements.value.length === 1, '@svc-refine');
    expect(state.refinements.value[0]).to.deep.equal({ attribute: 'brand', value: 'Initech', refined: true });
    store.dispose();
  });

  it('v-if mounts and unmounts the elements 10 times without leaking subscriptions, needs or listeners', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(60_000); // many real searches in a row; generous for a loaded machine
    const counted = countedStore(indexName);
    const listeners = countListeners();
    try {
      const baseline = { subscribers: counted.subscribers(), needs: counted.needs(), listeners: listeners.active() };
      const state = mount(counted.store, true);
      for (let round = 0; round < 10; round++) {
        await until(() => hitTexts(host.querySelector('svc-hits')).length > 0, `hits (round ${round})`);
        expect(counted.subscribers()).to.be.greaterThan(baseline.subscribers);
        state.shown.value = false;
        await nextTick();
        expect(host.querySelector('svc-search') === null, 'unmounted').to.equal(true);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(counted.subscribers(), `subscribers, round ${round}`).to.equal(baseline.subscribers);
        expect(counted.needs(), `needs, round ${round}`).to.equal(baseline.needs);
        expect(listeners.active(), `listeners, round ${round}`).to.equal(baseline.listeners);
        state.shown.value = true;
        await nextTick();
      }
    } finally {
      listeners.restore();
      counted.store.dispose();
    }
  });
});
