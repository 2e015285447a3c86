/**
 * A search component in Angular (standalone, zoneless-ready) with the svc-search elements. `main.ts`
 * bootstraps it.
 *
 * - `schemas: [CUSTOM_ELEMENTS_SCHEMA]` lets the template use the `svc-*` tags.
 * - `[store]`, `[renderHit]`, `[insightsEnabled]`, `[padding]` are property bindings (Angular sets DOM
 *   properties); plain attributes (`attribute="brand"`) stay attributes.
 * - `(svc-search-input)`, `(svc-refine)` listen to the elements' events; `$event` is the `CustomEvent`.
 */
import 'svc-search/elements/search/define';
import 'svc-search/elements/search-box/define';
import 'svc-search/elements/refinement-list/define';
import 'svc-search/elements/hits/define';
import 'svc-search/elements/pagination/define';
import { Component, CUSTOM_ELEMENTS_SCHEMA, EventEmitter, Input, Output } from '@angular/core';
import type { Hit } from 'svc-search/client';
import type { SearchStore } from 'svc-search/store';
import type { SvcRefineEventDetail, SvcSearchBoxEventDetail } from 'svc-search';

export type Product = { name: string; brand: string; price: number };

@Component({
  selector: 'shop-search',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    @if (shown) {
      <svc-search [store]="store" [insightsEnabled]="insights">
        <svc-search-box placeholder="Search products" (svc-search-input)="onQuery($event)"></svc-search-box>
        <svc-refinement-list attribute="brand" (svc-refine)="onRefine($event)"></svc-refinement-list>
        <svc-hits [renderHit]="renderHit"></svc-hits>
        <svc-pagination [padding]="2"></svc-pagination>
      </svc-search>
    }
  `,
})
export class ShopSearchComponent {
  @Input({ required: true }) store!: SearchStore;
  @Input() insights = true;
  @Input() shown = true;
  @Output() readonly query = new EventEmitter<string>();
  @Output() readonly refine = new EventEmitter<SvcRefineEventDetail>();

  readonly renderHit = (hit: Hit<Product>) => `${hit.name} / ${hit.brand}`;

  onQuery(event: CustomEvent<SvcSearchBoxEventDetail>): void {
    this.query.emit(event.detail.query);
  }

  onRefine(event: CustomEvent<SvcRefineEventDetail>): void {
    this.refine.emit(event.detail);
  }
}
