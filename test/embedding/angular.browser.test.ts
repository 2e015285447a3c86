/**
 * Angular embedding, with the example users copy (examples/angular/shop-search.component.ts): a standalone
 * component with `CUSTOM_ELEMENTS_SCHEMA`, property bindings (`[store]`, `[renderHit]`, `[insightsEnabled]`,
 * `[padding]`), event bindings (`(svc-search-input)`, `(svc-refine)`) re-emitted as the component's outputs,
 * zoneless change detection, and `@if` mounting/unmounting without leaks. JIT (`@angular/compiler` in the
 * bundle) compiles the templates at runtime. Real local service.
 */
import '@angular/compiler';
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  type ApplicationRef,
  Component,
  enableProdMode,
  provideZonelessChangeDetection,
  signal,
  ViewChild,
} from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import { ShopSearchComponent } from '../../examples/angular/shop-search.component.js';
import {
  countListeners,
  countedStore,
  hitTexts,
  indexProducts,
  until,
  type CountedStore,
  clearInsightsStorage,
} from './fixture.js';

enableProdMode(); // no "running in development mode" line in the test output

let currentStore: CountedStore;
let currentInsights = false;

/** The app around the example component: its inputs from fields, its outputs collected. */
@Component({
  selector: 'app-root',
  imports: [ShopSearchComponent],
  template: `<shop-search [store]="store" [insights]="insights" [shown]="shown()" (query)="queries.push($event)" (refine)="refinements.push($event)"></shop-search>`,
})
class AppComponent {
  @ViewChild(ShopSearchComponent) shop!: ShopSearchComponent;
  readonly store = currentStore.store;
  readonly insights = currentInsights;
  readonly shown = signal(true);
  readonly queries: string[] = [];
  readonly refinements: SvcRefineEventDetail[] = [];
}

describe('Angular (standalone, CUSTOM_ELEMENTS_SCHEMA, zoneless)', () => {
  let indexName: string;
  let appRef: ApplicationRef | undefined;

  before(async () => {
    indexName = await indexProducts('embed_angular');
  });

  after(() => clearInsightsStorage());

  afterEach(() => {
    appRef?.destroy();
    appRef = undefined;
    document.querySelector('app-root')?.remove();
  });

  async function bootstrap(counted: CountedStore, insights = false) {
    currentStore = counted;
    currentInsights = insights;
    document.body.append(document.createElement('app-root'));
    appRef = await bootstrapApplication(AppComponent, { providers: [provideZonelessChangeDetection()] });
    await appRef.whenStable();
    return appRef.components[0]!.instance as AppComponent;
  }

  it('sets properties (store, renderHit, insightsEnabled, padding) and the hits render through renderHit', async () => {
    const counted = countedStore(indexName);
    await bootstrap(counted);
    const search = document.querySelector('svc-search')!;
    const hits = document.querySelector('svc-hits')!;
    expect(search.store === counted.store, 'the store property is the object bound').to.equal(true);
    expect(search.insightsEnabled).to.equal(false);
    expect(typeof hits.renderHit).to.equal('function');
    expect(document.querySelector('svc-pagination')!.padding).to.equal(2);
    await until(() => hitTexts(hits).length > 0, 'hits');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1 / Acme');
    counted.store.dispose();
  });

  it('calls (svc-search-input) and (svc-refine) handlers on user action', async () => {
    const counted = countedStore(indexName);
    const app = await bootstrap(counted);
    expect(app.shop).to.be.instanceOf(ShopSearchComponent);
    const hits = document.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits');
    document.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'acme' });
    await until(() => app.queries.at(-1) === 'acme', '(svc-search-input)');
    const list = document.querySelector('svc-refinement-list')!;
    await until(() => list.shadowRoot?.querySelectorAll('input[type="checkbox"]').length === 1, 'the Acme value only');
    list.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await until(() => app.refinements.length === 1, '(svc-refine)');
    expect(app.refinements[0]).to.deep.equal({ attribute: 'brand', value: 'Acme', refined: true });
    await until(() => hitTexts(hits).length === 12, 'the 12 Acme phones');
    counted.store.dispose();
  });

  it('@if mounts and unmounts the elements 10 times without leaking subscriptions, needs or listeners', async function (this: {
    timeout(ms: number): void;
  }) {
    this.timeout(60_000); // many real searches in a row; generous for a loaded machine
    const counted = countedStore(indexName);
    const listeners = countListeners();
    try {
      const baseline = { subscribers: counted.subscribers(), needs: counted.needs(), listeners: listeners.active() };
      const app = await bootstrap(counted, true);
      for (let round = 0; round < 10; round++) {
        await until(() => hitTexts(document.querySelector('svc-hits')).length > 0, `hits (round ${round})`);
        expect(counted.subscribers()).to.be.greaterThan(baseline.subscribers);
        app.shown.set(false);
        await appRef!.whenStable();
        expect(document.querySelector('svc-search') === null, 'unmounted').to.equal(true);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(counted.subscribers(), `subscribers, round ${round}`).to.equal(baseline.subscribers);
        expect(counted.needs(), `needs, round ${round}`).to.equal(baseline.needs);
        expect(listeners.active(), `listeners, round ${round}`).to.equal(baseline.listeners);
        app.shown.set(true);
        await appRef!.whenStable();
      }
    } finally {
      listeners.restore();
      counted.store.dispose();
    }
  });
});
