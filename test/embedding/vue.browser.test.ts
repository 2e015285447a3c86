/**
 * Vue 3 embedding (examples/vue): `isCustomElement` so Vue leaves the `svc-*` tags to the browser, `v-bind`
 * of properties (`.prop` / Vue's own `key in el` check), `@svc-…` listeners, and `v-if` mounting and
 * unmounting without leaks. A `template` string compiled at runtime by the full Vue build. Real local service.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createApp, nextTick, ref, shallowRef, type App } from 'vue';
import '../../src/elements/search/define.js';
import '../../src/elements/search-box/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/pagination/define.js';
import type {} from '../../src/types/vue.js';
import type { Hit } from '../../src/client/types.js';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import { countListeners, countedStore, hitTexts, indexProducts, until, type Product } from './fixture.js';

// Properties are bound in camelCase: `:store.prop`, `.renderHit` (shorthand of `:renderHit.prop`) or plain
// `:insightsEnabled` (Vue sets a property when the element has it). Vue does not camelize kebab-case keys for
// custom elements it did not define, so `:render-hit.prop` would set a property named "render-hit".
const template = `
  <svc-search v-if="shown" :store.prop="store" :insightsEnabled="insights">
    <svc-search-box placeholder="Search products" @svc-search-input="queries.push($event.detail.query)"></svc-search-box>
    <svc-refinement-list attribute="brand" @svc-refine="refinements.push($event.detail)"></svc-refinement-list>
    <svc-hits .renderHit="renderHit"></svc-hits>
    <svc-pagination :padding="1"></svc-pagination>
  </svc-search>`;

describe('Vue 3', () => {
  let indexName: string;
  let host: HTMLElement;
  let app: App | undefined;
  let warnings: string[];

  before(async () => {
    indexName = await indexProducts('embed_vue');
  });

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

  function mount(store: unknown, insights = false, isCustomElement = (tag: string) => tag.startsWith('svc-')) {
    const state = {
      shown: ref(true),
      store: shallowRef(store),
      insights: ref(insights),
      queries: ref<string[]>([]),
      refinements: ref<SvcRefineEventDetail[]>([]),
      renderHit: (hit: Hit<Product>) => `${hit.name} (${hit.brand})`,
    };
    app = createApp({ template, setup: () => state });
    app.config.compilerOptions.isCustomElement = isCustomElement;
    app.config.warnHandler = (message) => warnings.push(message);
    app.mount(host);
    return state;
  }

  it('needs isCustomElement: without it Vue tries to resolve svc-* as components', () => {
    mount(countedStore(indexName).store, false, () => false);
    expect(warnings.some((w) => w.includes('Failed to resolve component: svc-search'))).to.equal(true);
  });

  it('binds properties (store, renderHit, insightsEnabled) and the hits render through renderHit, with no Vue warning', async () => {
    const { store } = countedStore(indexName);
    mount(store);
    const search = host.querySelector('svc-search')!;
    const hits = host.querySelector('svc-hits')!;
    expect(search.store).to.equal(store);
    expect(search.insightsEnabled).to.equal(false);
    expect(search.insights).to.equal(undefined);
    expect(typeof hits.renderHit).to.equal('function');
    expect(host.querySelector('svc-pagination')!.padding).to.equal(1);
    await until(() => hitTexts(hits).length > 0, 'hits');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1 (Acme)');
    expect(warnings).to.deep.equal([]);
    store.dispose();
  });

  it('insights="false" as written in HTML turns insights off (Vue sets it as the property)', async () => {
    const { store } = countedStore(indexName);
    app = createApp({ template: '<svc-search :store.prop="store" insights="false"></svc-search>', setup: () => ({ store }) });
    app.config.compilerOptions.isCustomElement = (tag) => tag.startsWith('svc-');
    app.config.warnHandler = (message) => warnings.push(message);
    app.mount(host);
    const search = host.querySelector('svc-search')!;
    await search.updateComplete;
    expect(search.insightsEnabled).to.equal(false);
    expect(search.insights).to.equal(undefined);
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

  it('v-if mounts and unmounts the elements 10 times without leaking subscriptions, needs or listeners', async () => {
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
        expect(host.querySelector('svc-search')).to.equal(null);
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
