/**
 * `--demo`: the superstore products in the index `products`, with settings for a shop search and two
 * sort-by replicas (`products_price_asc`, `products_price_desc`). Loaded only when `products` is empty.
 */
import type { Catalog, Record_ } from '../storage/catalog.js';
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
  ],
  customRanking: ['desc(popularity)'],
  attributesToSnippet: ['name:10'],
};

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
export function installDemo(catalog: Catalog): number {
  if ((catalog.get(DEMO_INDEX)?.size ?? 0) > 0) return 0;
  const { products } = loadSuperstore();
  catalog.write(DEMO_INDEX, 'demo', () => {
    catalog.setSettings(DEMO_INDEX, { ...DEMO_SETTINGS, replicas: Object.keys(DEMO_REPLICAS) });
    for (const [replica, settings] of Object.entries(DEMO_REPLICAS)) catalog.setSettings(replica, settings);
    catalog.saveObjects(DEMO_INDEX, products as unknown as Record_[]);
  });
  return products.length;
}
