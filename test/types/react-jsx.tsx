// Type test (compiled by types.node.test.ts, never run): React 19 JSX with `svc-search/react`.
import 'svc-search/define';
import type {} from 'svc-search/react';
import { useRef } from 'react';
import type { Hit } from 'svc-search/client';
import { createClient } from 'svc-search/client';
import { createSearchStore } from 'svc-search/store';
import type { SvcHits, SvcSearchBox } from 'svc-search';

type Product = { name: string; price: number };
const store = createSearchStore({ client: createClient({ appId: 'A', apiKey: 'k' }), indexName: 'products' });

export function Shop() {
  const box = useRef<SvcSearchBox>(null);
  const hits = useRef<SvcHits>(null);
  return (
    <svc-search
      store={store}
      indexName="products"
      insightsEnabled={false}
      routing
      className="shop"
      onsvc-insights={(e) => e.detail.event}
    >
      <svc-search-box
        ref={box}
        placeholder="Search"
        onsvc-search-input={(event) => event.detail.query.trim()}
        onsvc-search-submit={(e) => e.currentTarget.placeholder}
      />
      <svc-refinement-list attribute="brand" operator="or" showMore onsvc-refine={(event) => event.detail.refined} />
      <svc-hits
        ref={hits}
        renderHit={(hit: Hit<Product>) => hit.price.toFixed(2)}
        translations={{ noResults: 'Rien pour « {query} »' }}
      />
      <svc-hits renderHit={(hit, info) => `${String(hit.name)} ${info.position}`} />
      <svc-pagination padding={2} onsvc-page-change={(event) => event.detail.page} />
      <svc-recommendations
        model="related-products"
        objectId="42"
        onsvc-recommendations-select={(event) => event.detail}
      />
      <svc-trending model="trending-items" />
      <svc-stats slot="stats" id="stats" style={{ color: 'red' }} aria-label="Stats" />
      {/* @ts-expect-error not a property of svc-hits */}
      <svc-hits notAProperty="x" />
      {/* @ts-expect-error padding is a number */}
      <svc-pagination padding="two" />
      {/* @ts-expect-error the refine event has no query */}
      <svc-refinement-list attribute="brand" onsvc-refine={(event) => event.detail.query} />
      {/* @ts-expect-error `hits` is a read-only getter, not a settable property */}
      <svc-hits hits={[]} />
      {/* @ts-expect-error methods are not props */}
      <svc-hits requestUpdate={() => undefined} />
    </svc-search>
  );
}
