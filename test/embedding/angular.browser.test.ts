/**
 * Angular embedding (examples/angular): a standalone component with `CUSTOM_ELEMENTS_SCHEMA`, property
 * bindings (`[store]`, `[renderHit]`, `[insightsEnabled]`), event bindings (`(svc-search-input)`, `(svc-refine)`),
 * zoneless change detection, and `@if` mounting/unmounting without leaks. JIT (`@angular/compiler` in the
 * bundle) compiles the template at runtime. Real local service.
 */
import '@angular/compiler';
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  ApplicationRef,
  Component,
  CUSTOM_ELEMENTS_SCHEMA,
  enableProdMode,
  Input,
  provideZonelessChangeDetection,
  signal,
} from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import '../../src/elements/search/define.js';
import '../../src/elements/search-box/define.js';
import '../../src/elements/hits/define.js';
import '../../src/elements/refinement-list/define.js';
import '../../src/elements/pagination/define.js';
import type { Hit } from '../../src/client/types.js';
import type { SearchStore } from '../../src/store/types.js';
import type { SvcRefineEventDetail } from '../../src/elements/refinement-list/svc-refinement-list.js';
import type { SvcSearchBoxEventDetail } from '../../src/elements/search-box/svc-search-box.js';
import { countListeners, countedStore, hitTexts, indexProducts, until, type CountedStore, type Product } from './fixture.js';

enableProdMode(); // no "running in development mode" line in the test output

@Component({
  selector: 'shop-search',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    @if (shown()) {
      <svc-search [store]="store" [insightsEnabled]="insights">
        <svc-search-box placeholder="Search products" (svc-search-input)="onQuery($event)"></svc-search-box>
        <svc-refinement-list attribute="brand" (svc-refine)="onRefine($event)"></svc-refinement-list>
        <svc-hits [renderHit]="renderHit"></svc-hits>
        <svc-pagination [padding]="2"></svc-pagination>
      </svc-search>
    }
  `,
})
class ShopSearchComponent {
  /** The instance last created (the tests drive it). */
  static current: ShopSearchComponent | undefined;
  // Decorator inputs: signal `input()`s need the Angular CLI's JIT transform, which a plain bundle lacks.
  @Input({ required: true }) store!: SearchStore;
  @Input() insights = false;
  readonly shown = signal(true);
  readonly queries: string[] = [];
  readonly refinements: SvcRefineEventDetail[] = [];
  readonly renderHit = (hit: Hit<Product>) => `${hit.name} / ${hit.brand}`;

  constructor() {
    ShopSearchComponent.current = this;
  }

  onQuery(event: CustomEvent<SvcSearchBoxEventDetail>): void {
    this.queries.push(event.detail.query);
  }

  onRefine(event: CustomEvent<SvcRefineEventDetail>): void {
    this.refinements.push(event.detail);
  }
}

let currentStore: CountedStore;
let currentInsights = false;

@Component({
  selector: 'app-root',
  imports: [ShopSearchComponent],
  template: `<shop-search [store]="store" [insights]="insights"></shop-search>`,
})
class AppComponent {
  readonly store = currentStore.store;
  readonly insights = currentInsights;
}

describe('Angular (standalone, CUSTOM_ELEMENTS_SCHEMA, zoneless)', () => {
  let indexName: string;
  let appRef: ApplicationRef | undefined;

  before(async () => {
    indexName = await indexProducts('embed_angular');
  });

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
    return ShopSearchComponent.current!;
  }

  it('sets properties (store, renderHit, insightsEnabled, padding) and the hits render through renderHit', async () => {
    const counted = countedStore(indexName);
    await bootstrap(counted);
    const search = document.querySelector('svc-search')!;
    const hits = document.querySelector('svc-hits')!;
    expect(search.store).to.equal(counted.store);
    expect(search.insightsEnabled).to.equal(false);
    expect(typeof hits.renderHit).to.equal('function');
    expect(document.querySelector('svc-pagination')!.padding).to.equal(2);
    await until(() => hitTexts(hits).length > 0, 'hits');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1 / Acme');
    counted.store.dispose();
  });

  it('calls (svc-search-input) and (svc-refine) handlers on user action', async () => {
    const counted = countedStore(indexName);
    const shop = await bootstrap(counted);
    const hits = document.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length > 0, 'hits');
    document.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'acme' });
    await until(() => shop.queries.at(-1) === 'acme', '(svc-search-input)');
    const list = document.querySelector('svc-refinement-list')!;
    await until(() => list.shadowRoot?.querySelectorAll('input[type="checkbox"]').length === 1, 'the Acme value only');
    list.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await until(() => shop.refinements.length === 1, '(svc-refine)');
    expect(shop.refinements[0]).to.deep.equal({ attribute: 'brand', value: 'Acme', refined: true });
    await until(() => hitTexts(hits).length === 12, 'the 12 Acme phones');
    counted.store.dispose();
  });

  it('@if mounts and unmounts the elements 10 times without leaking subscriptions, needs or listeners', async () => {
    const counted = countedStore(indexName);
    const listeners = countListeners();
    try {
      const baseline = { subscribers: counted.subscribers(), needs: counted.needs(), listeners: listeners.active() };
      const shop = await bootstrap(counted, true);
      for (let round = 0; round < 10; round++) {
        await until(() => hitTexts(document.querySelector('svc-hits')).length > 0, `hits (round ${round})`);
        expect(counted.subscribers()).to.be.greaterThan(baseline.subscribers);
        shop.shown.set(false);
        await appRef!.whenStable();
        expect(document.querySelector('svc-search')).to.equal(null);
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(counted.subscribers(), `subscribers, round ${round}`).to.equal(baseline.subscribers);
        expect(counted.needs(), `needs, round ${round}`).to.equal(baseline.needs);
        expect(listeners.active(), `listeners, round ${round}`).to.equal(baseline.listeners);
        shop.shown.set(true);
        await appRef!.whenStable();
      }
    } finally {
      listeners.restore();
      counted.store.dispose();
    }
  });
});
