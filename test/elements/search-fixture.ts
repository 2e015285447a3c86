/**
 * Shared setup of the core element tests: a fresh index per test file, filled through the admin API of the
 * real service mounted in the test server, and a `<svc-search>` root pointing at it.
 */
import { fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { createClient } from '../../src/client/index.js';
import type { SearchStore } from '../../src/store/types.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import '../../src/elements/search/define.js';

export const APP_ID = 'SVCLOCAL';
export const SEARCH_KEY = 'local-search-key';
export const admin = createClient({ appId: APP_ID, apiKey: 'local-admin-key', hosts: [location.origin], cache: false });

const BRANDS = ['Apple', 'Samsung', 'Google', 'Sony', 'Lenovo', 'Dell'];
const CATEGORIES = ['Phones', 'Laptops', 'Headphones'];

/** 36 products: `p0`…`p35`, six brands, three categories; ranked by `rank` (p0 first). */
export const PRODUCTS = Array.from({ length: 36 }, (_, i) => {
  const brand = BRANDS[i % BRANDS.length];
  const category = CATEGORIES[i % CATEGORIES.length];
  return {
    objectID: `p${i}`,
    name: `${brand} ${category === 'Phones' ? 'smartphone' : category === 'Laptops' ? 'notebook' : 'headset'} model ${i}`,
    brand,
    category,
    description: `A dependable ${category.toLowerCase()} device from ${brand} with a long battery life and a bright display, number ${i}.`,
    url: `/products/p${i}`,
    image: `/images/p${i}.png`,
    price: 100 + i * 10,
    rank: i,
  };
});

async function waitTask(indexName: string, taskID: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const task = await admin.request<{ status: string }>(
      'GET',
      `/1/indexes/${encodeURIComponent(indexName)}/task/${taskID}`,
    );
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskID} of ${indexName} not published`);
}

/**
 * Creates a uniquely named index with the records and settings (searchable name/brand/description, facets
 * `searchable(brand)` and `category`, ranked by `rank`); returns its name.
 */
export async function createIndex(
  prefix: string,
  records: Array<Record<string, unknown>> = PRODUCTS,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const indexName = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const set = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/settings`, {
    searchableAttributes: ['name', 'brand', 'description'],
    attributesForFaceting: ['searchable(brand)', 'category'],
    customRanking: ['asc(rank)'],
    ...settings,
  });
  await waitTask(indexName, set.taskID);
  const batch = await admin.request<{ taskID: number }>('POST', `/1/indexes/${indexName}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(indexName, batch.taskID);
  return indexName;
}

/** Renders `<svc-search>` (insights off unless asked) around `content` and waits for the first results. */
export async function searchFixture(
  indexName: string,
  content: TemplateResult,
  options: { insights?: boolean; id?: string } = {},
): Promise<SvcSearch> {
  const root = await fixture<SvcSearch>(html`<svc-search
    id=${options.id ?? 'search'}
    app-id=${APP_ID}
    api-key=${SEARCH_KEY}
    index-name=${indexName}
    hosts=${location.origin}
    insights=${options.insights ? 'true' : 'false'}
    >${content}</svc-search
  >`);
  await settled(root.store!);
  return root;
}

/** Waits until the store has answered and is idle (and lets elements render). */
export async function settled(store: SearchStore): Promise<void> {
  await new Promise((r) => setTimeout(r));
  await waitUntil(
    () => {
      const { status, results } = store.getSnapshot();
      return (results !== null && status === 'idle') || status === 'error';
    },
    'the store did not settle',
    { timeout: 8000 },
  );
  await new Promise((r) => requestAnimationFrame(r));
}

/** The element's shadow root, typed. */
export function shadow(element: Element): ShadowRoot {
  return element.shadowRoot!;
}

/** Records with hostile values: script tags, event-handler attributes and `javascript:` URLs. */
export const HOSTILE = [
  {
    objectID: 'evil1',
    name: 'Evil <script>window.__svcPwned = 1</script> phone',
    brand: '<img src=x onerror="window.__svcPwned = 2">',
    category: 'Phones',
    description: 'phone <b onmouseover="window.__svcPwned = 3">bold</b> &amp; <em>fake highlight</em>',
    url: 'javascript:window.__svcPwned = 4',
    image: 'javascript:window.__svcPwned = 5',
    rank: 0,
  },
  {
    objectID: 'evil2',
    name: 'Evil phone "quoted" \' <svg onload="window.__svcPwned = 6">',
    brand: 'Acme',
    category: '<script>window.__svcPwned = 7</script>',
    description: 'JaVaScRiPt:alert(1) phone',
    url: ' \tjava\nscript:window.__svcPwned = 8',
    image: 'data:text/html,<script>window.__svcPwned=9</script>',
    rank: 1,
  },
];

/** Every element (through shadow roots) below `root` matching `selector`. */
export function deepQueryAll(root: ParentNode, selector: string): Element[] {
  const found: Element[] = [...root.querySelectorAll(selector)];
  for (const element of root.querySelectorAll('*')) {
    if (element.shadowRoot) found.push(...deepQueryAll(element.shadowRoot, selector));
  }
  return found;
}
