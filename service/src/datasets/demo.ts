/**
 * `--demo`: the superstore products in the index `products`, with settings for a shop search, two
 * sort-by replicas (`products_price_asc`, `products_price_desc`) and one rule (the "chairs" banner).
 * Loaded only when `products` is empty.
 */
import type { Catalog } from '../indices/catalog.js';
import { setSettings } from '../indices/settings.js';
import type { Rule, StoredRecord } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import { loadSuperstore } from './superstore.js';

export const DEMO_INDEX = 'products';

export const DEMO_SETTINGS = {
  searchableAttributes: ['name', 'brand', 'subCategory', 'category'],
  attributesForFaceting: [
    'searchable(brand)',
    'category',
    'subCategory',
    'price',
    'hierarchicalCategories.lvl0',
    'hierarchicalCategories.lvl1',
    'rating',
    'sameDayShipping',
  ],
  customRanking: ['desc(popularity)'],
  attributesToSnippet: ['name:10'],
  // The facets a shop shows, in order (`<svc-dynamic-widgets>`), and brands by count.
  renderingContent: {
    facetOrdering: {
      facets: { order: ['hierarchicalCategories.lvl0', 'brand', 'price', 'rating', 'sameDayShipping'] },
      values: { brand: { sortRemainingBy: 'count' } },
    },
  },
};

/**
 * The demo's rule: the query "chairs" shows a banner (`userData`, rendered by `<svc-query-rule-custom-data>`)
 * and puts the brand facet first (`renderingContent`, followed by `<svc-dynamic-widgets>`).
 */
export const DEMO_RULES: Rule[] = [
  {
    objectID: 'chairs-banner',
    description: 'A banner and brands first for "chairs"',
    conditions: [{ pattern: 'chairs', anchoring: 'is' }],
    consequence: {
      userData: {
        title: 'Sit well, work well',
        text: 'Every chair of the catalogue, from stacking chairs to executive leather.',
        link: '?q=chairs',
      },
      params: {
        renderingContent: {
          facetOrdering: {
            facets: { order: ['brand', 'hierarchicalCategories.lvl0', 'price', 'rating', 'sameDayShipping'] },
            values: { brand: { sortRemainingBy: 'count' } },
          },
        },
      },
    },
  },
];

const RELEVANCE = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

/** The sort-by replicas and their ranking: the sort first, then relevance. */
export const DEMO_REPLICAS: Record<string, { ranking: string[] }> = {
  products_price_asc: { ranking: ['asc(price)', ...RELEVANCE] },
  products_price_desc: { ranking: ['desc(price)', ...RELEVANCE] },
};

/**
 * Installs the demo catalogue unless `products` already holds records. Returns the number of records
 * written (0 when it was already there).
 *
 * @example
 * installDemo(catalog) // 1862
 */
export async function installDemo({ catalog, tasks }: { catalog: Catalog; tasks: TaskQueue }): Promise<number> {
  if ((catalog.get(DEMO_INDEX)?.size ?? 0) > 0) return 0;
  const { products } = loadSuperstore();
  await tasks.run({ indexName: DEMO_INDEX, kind: 'demo' }, (write) => {
    setSettings(catalog, write, DEMO_INDEX, { ...DEMO_SETTINGS, replicas: Object.keys(DEMO_REPLICAS) });
    for (const [replica, settings] of Object.entries(DEMO_REPLICAS)) setSettings(catalog, write, replica, settings);
    catalog.saveRules(write, DEMO_INDEX, DEMO_RULES, true, true);
    catalog.saveObjects(write, DEMO_INDEX, products as unknown as StoredRecord[]);
  });
  return products.length;
}

/** The Query Suggestions index of the demo (`<source>_query_suggestions`, the autocomplete's default). */
export const DEMO_SUGGESTIONS_INDEX = `${DEMO_INDEX}_query_suggestions`;
/** The `external` index of the demo suggestions: each generated query with the orders it stands for. */
export const DEMO_SUGGESTIONS_ORDERS_INDEX = `${DEMO_INDEX}_suggestion_orders`;

/**
 * The attribute combinations suggested. A shop with no recorded searches yet has nothing popular to
 * suggest, so the queries are the ways its products are named: a sub-category ("chairs"), a brand
 * ("hon"), a brand in a sub-category ("hon chairs", found together on a record — never a brand it does
 * not sell there), and the three top categories.
 */
export const DEMO_SUGGESTIONS_GENERATE = [['subCategory'], ['category'], ['brand'], ['brand', 'subCategory']];

/**
 * The Query Suggestions configuration of the demo. Why each field:
 * - `generate` (above) makes the candidates; generated queries all have popularity 0, so the `external`
 *   index gives each the number of orders of its products (from the real order history, `popularity` of
 *   the records), which ranks "xerox paper" (sold in 1,000+ orders) before a brand sold once;
 * - `minHits: 2`: the brand is the first word of the product name, so about 330 "brands" are one product's
 *   first word ("Wirebound", "Executive"); a suggestion that finds a single product is dropped;
 * - `facets`: the top category of each suggestion's hits (the autocomplete shows it, "in Furniture") and
 *   the top two sub-categories;
 * - `languages: ['en']`: "staple" and "staples" (two spellings of one maker) become one suggestion;
 * - `exclude`: names that start with a size ("#10- Envelopes…", "14-7/8 x 11 Paper…") give "brands" such
 *   as `#10-` or `14-7/8`, which nobody types: patterns drop what starts with `#` or holds a `/`.
 *
 * @example
 * services.querySuggestions.create(parseConfig(demoSuggestionsConfig()))
 */
export function demoSuggestionsConfig(): Record<string, unknown> {
  return {
    indexName: DEMO_SUGGESTIONS_INDEX,
    sourceIndices: [
      {
        indexName: DEMO_INDEX,
        generate: DEMO_SUGGESTIONS_GENERATE,
        external: [DEMO_SUGGESTIONS_ORDERS_INDEX],
        minHits: 2,
        facets: [
          { attribute: 'category', amount: 1 },
          { attribute: 'subCategory', amount: 2 },
        ],
      },
    ],
    languages: ['en'],
    exclude: ['#*', '*/*'],
  };
}

/**
 * The `{ objectID, query, count }` records of the external index: for each combination of
 * `DEMO_SUGGESTIONS_GENERATE` found on a record, the sum of the `popularity` (orders containing the
 * product) of the records that have it.
 *
 * @example
 * demoSuggestionOrders(catalog.get('products')!.objects()).find((r) => r.query == 'Xerox Paper')?.count
 */
export function demoSuggestionOrders(
  records: Iterable<Record<string, unknown>>,
): Array<{ objectID: string; query: string; count: number }> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const orders = typeof record.popularity === 'number' ? record.popularity : 0;
    for (const attributes of DEMO_SUGGESTIONS_GENERATE) {
      const values = attributes.map((attribute) => record[attribute]);
      if (!values.every((value) => typeof value === 'string' && value)) continue;
      const query = values.join(' ');
      counts.set(query, (counts.get(query) ?? 0) + orders);
    }
  }
  return [...counts].map(([query, count], i) => ({ objectID: String(i + 1), query, count }));
}
