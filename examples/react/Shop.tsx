/**
 * A search page in React 19 with the svc-search elements. Copy this file; `main.tsx` mounts it.
 *
 * - Register the tags once (`svc-search/elements/<name>/define`, or `svc-search/define` for all of them).
 * - `import type {} from 'svc-search/react'` types every `<svc-…>` tag in JSX (properties and events).
 * - Properties are set as DOM properties by React 19 (`store`, `renderHit`, `insightsEnabled`, …).
 * - Events are `on<event-name>` props: `onsvc-search-input`, `onsvc-refine`, `onsvc-page-change`.
 * - `renderHit` returns what Lit renders (text, a DOM node or a Lit `html` template), not React elements.
 */
import 'svc-search/elements/search/define';
import 'svc-search/elements/search-box/define';
import 'svc-search/elements/refinement-list/define';
import 'svc-search/elements/hits/define';
import 'svc-search/elements/pagination/define';
import type {} from 'svc-search/react';
import type { Hit } from 'svc-search/client';
import type { SearchStore } from 'svc-search/store';

export type Product = { name: string; brand: string; price: number };

export interface ShopProps {
  /** A store you created (`createSearchStore`) — or leave it out and give the credentials below. */
  store?: SearchStore;
  appId?: string;
  apiKey?: string;
  indexName?: string;
  /** Your service, e.g. `http://127.0.0.1:8787` for `npm run serve`. */
  hosts?: string;
  /** Click and view events (default on). */
  insights?: boolean;
  onQuery?: (query: string) => void;
  onRefine?: (refinement: { attribute: string; value: string; refined: boolean }) => void;
  onPage?: (page: number) => void;
}

export function Shop({
  store,
  appId,
  apiKey,
  indexName,
  hosts,
  insights = true,
  onQuery,
  onRefine,
  onPage,
}: ShopProps) {
  return (
    <svc-search
      store={store}
      appId={appId}
      apiKey={apiKey}
      indexName={indexName}
      hosts={hosts}
      insightsEnabled={insights}
    >
      <svc-search-box placeholder="Search products" onsvc-search-input={(event) => onQuery?.(event.detail.query)} />
      <svc-refinement-list attribute="brand" onsvc-refine={(event) => onRefine?.(event.detail)} />
      <svc-hits renderHit={(hit: Hit<Product>) => `${hit.name} · ${hit.price.toFixed(2)}`} />
      <svc-pagination onsvc-page-change={(event) => onPage?.(event.detail.page)} />
    </svc-search>
  );
}
