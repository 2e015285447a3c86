// Type test (compiled by types.node.test.ts, never run): Vue `GlobalComponents` from `svc-search/vue` — the
// types vue-tsc reads to check `<svc-…>` props and `@svc-…` listeners in templates.
import 'svc-search/define';
import type {} from 'svc-search/vue';
import type { GlobalComponents } from 'vue';
import type { SearchStore } from 'svc-search/store';

type Props<K extends keyof GlobalComponents> = InstanceType<GlobalComponents[K]>['$props'];
type Emit<K extends keyof GlobalComponents> = InstanceType<GlobalComponents[K]>['$emit'];
declare const store: SearchStore;

export const searchProps: Props<'svc-search'> = {
  store,
  indexName: 'products',
  insightsEnabled: false,
  class: 'shop',
  id: 'main',
};
export const hitsProps: Props<'svc-hits'> = { attribute: 'name', renderHit: (hit) => String(hit.name) };
export const listProps: Props<'svc-refinement-list'> = { attribute: 'brand', operator: 'or', showMore: true };
// @ts-expect-error padding is a number
export const badPagination: Props<'svc-pagination'> = { padding: 'two' };
// @ts-expect-error svc-hits has no such property
export const badHits: Props<'svc-hits'> = { notAProperty: 1 };

declare const emitBox: Emit<'svc-search-box'>;
declare const input: HTMLElementEventMap['svc-search-input'];
declare const refine: HTMLElementEventMap['svc-refine'];
emitBox('svc-search-input', input);
// @ts-expect-error the payload of svc-search-input is its CustomEvent, not a refine event
emitBox('svc-search-input', refine);
