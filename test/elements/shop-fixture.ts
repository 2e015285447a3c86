/**
 * A small shop for the facet elements' tests (hierarchical menu, breadcrumb, toggle, numeric and rating menus,
 * range slider, dynamic widgets, panel): 48 products with a two-level category path, a price, a rating from 1
 * to 5 and a same-day shipping flag, in a fresh index per test file (the real service mounted in the test
 * server). Expected counts are computed from these records, never copied from an answer.
 */
import { createIndex } from './search-fixture.js';

export type ShopProduct = {
  objectID: string;
  name: string;
  brand: string;
  category: string;
  hierarchicalCategories: { lvl0: string; lvl1: string };
  price: number;
  rating: number;
  sameDayShipping: boolean;
  rank: number;
};

const TREE: Record<string, string[]> = {
  Furniture: ['Chairs', 'Tables', 'Bookcases'],
  Technology: ['Phones', 'Copiers'],
  'Office Supplies': ['Paper', 'Binders', 'Art'],
};
const PATHS = Object.entries(TREE).flatMap(([top, subs]) => subs.map((sub) => [top, sub] as const));
const BRANDS = ['Hon', 'Global', 'Xerox', 'Avery'];

/** 48 products: every path six times, prices 4.5 to 216 (4.5 × (i + 1)), ratings 1 to 5, a third same-day. */
export const SHOP: ShopProduct[] = Array.from({ length: 48 }, (_, i) => {
  const [top, sub] = PATHS[i % PATHS.length]!;
  return {
    objectID: `s${i}`,
    name: `${BRANDS[i % 4]} ${sub.replace(/s$/, '')} ${i}`,
    brand: BRANDS[i % 4]!,
    category: top,
    hierarchicalCategories: { lvl0: top, lvl1: `${top} > ${sub}` },
    price: Math.round(4.5 * (i + 1) * 100) / 100,
    rating: (i % 5) + 1,
    sameDayShipping: i % 3 === 0,
    rank: i,
  };
});

export const LEVELS = ['hierarchicalCategories.lvl0', 'hierarchicalCategories.lvl1'];

/** The shop index with its facets (levels, brand, price, rating, sameDayShipping); returns its name. */
export function createShopIndex(prefix: string, records: Array<Record<string, unknown>> = SHOP): Promise<string> {
  return createIndex(prefix, records, {
    searchableAttributes: ['name', 'brand', 'category'],
    attributesForFaceting: ['searchable(brand)', 'category', ...LEVELS, 'price', 'rating', 'sameDayShipping'],
  });
}

/** Count of records matching `keep`. */
export const countOf = (keep: (product: ShopProduct) => boolean, records = SHOP) => records.filter(keep).length;
