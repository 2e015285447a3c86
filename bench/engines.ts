/**
 * The engines the benchmarks compare, behind one interface: ours, MiniSearch and Orama, configured
 * alike — name, brand and category searchable, prefix and typo tolerance on, every query word required
 * (MiniSearch `combineWith: 'AND'`, `fuzzy: 0.2`; Orama `tolerance: 1`, `threshold: 0`), top 20.
 * MiniSearch has no facets: its counts are computed over its full result list, which is what a caller
 * would have to do. Our engine returns complete responses (highlighting of the 20 hits included).
 */
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { Index } from '../service/src/engine/index.js';
import type { SyntheticProduct } from '../service/src/datasets/synthetic.js';

export interface Engine {
  name: string;
  build(products: SyntheticProduct[]): Promise<void> | void;
  /** The first `limit` objectIDs (default 20). */
  query(q: string, limit?: number): Promise<string[]> | string[];
  faceted(q: string): Promise<unknown> | unknown;
  dispose(): void;
}

/** The settings our engine runs the benchmarks with (the service's bench index gets the same). */
export const BENCH_SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category', 'price'],
  customRanking: ['desc(popularity)'],
};

/**
 * Our engine. `build` is `saveObjects` plus a first search: the lazy parts (if any are left) belong
 * to the build.
 * @example const e = ours(); e.build(products); e.query('chai');
 */
export function ours(): Engine & { index(): Index; firstSearchMs: number } {
  let index: Index | null = null;
  return {
    name: 'svc-search engine',
    index: () => index!,
    firstSearchMs: NaN,
    build(products) {
      index = new Index('bench');
      index.setSettings(BENCH_SETTINGS);
      index.saveObjects(products);
      const t0 = performance.now();
      index.search({ query: 'a' });
      this.firstSearchMs = performance.now() - t0;
    },
    query: (q, limit = 20) => index!.search({ query: q, hitsPerPage: limit }).hits.map((h) => h.objectID),
    faceted: (q) => index!.search({ query: q, hitsPerPage: 20, facets: ['brand', 'category'] }).facets,
    dispose: () => {
      index = null;
    },
  };
}

/**
 * MiniSearch 7 (prefix, fuzzy 0.2, AND).
 * @example const e = minisearch(); e.build(products); e.query('chai');
 */
export function minisearch(): Engine {
  let ms: MiniSearch<SyntheticProduct> | null = null;
  return {
    name: 'MiniSearch 7',
    build(products) {
      ms = new MiniSearch<SyntheticProduct>({
        idField: 'objectID',
        fields: ['name', 'brand', 'category'],
        storeFields: ['brand', 'category'],
        searchOptions: { prefix: true, fuzzy: 0.2, combineWith: 'AND' },
      });
      ms.addAll(products);
    },
    query: (q, limit = 20) =>
      ms!
        .search(q)
        .slice(0, limit)
        .map((r) => String(r.id)),
    faceted: (q) => {
      const results = ms!.search(q);
      const brand = new Map<string, number>();
      const category = new Map<string, number>();
      for (const r of results) {
        brand.set(r.brand as string, (brand.get(r.brand as string) ?? 0) + 1);
        category.set(r.category as string, (category.get(r.category as string) ?? 0) + 1);
      }
      const top = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, 100);
      return { top20: results.slice(0, 20), brand: top(brand), category: top(category) };
    },
    dispose: () => {
      ms = null;
    },
  };
}

/**
 * Orama 3 (tolerance 1, threshold 0, facets on brand and category).
 * @example const e = orama(); await e.build(products); await e.query('chai');
 */
export function orama(): Engine {
  const schema = {
    name: 'string',
    brand: 'string',
    category: 'string',
    price: 'number',
    popularity: 'number',
  } as const;
  let db: ReturnType<typeof create<typeof schema>> | null = null;
  return {
    name: 'Orama 3',
    async build(products) {
      db = create({ schema });
      await insertMultiple(
        db,
        products.map((p) => ({
          id: p.objectID,
          name: p.name,
          brand: p.brand,
          category: p.category,
          price: p.price,
          popularity: p.popularity,
        })),
        2000,
      );
    },
    async query(q, limit = 20) {
      const r = await oramaSearch(db!, {
        term: q,
        properties: ['name', 'brand', 'category'],
        tolerance: 1,
        threshold: 0,
        limit,
      });
      return r.hits.map((h) => String(h.id));
    },
    async faceted(q) {
      const r = await oramaSearch(db!, {
        term: q,
        properties: ['name', 'brand', 'category'],
        tolerance: 1,
        threshold: 0,
        limit: 20,
        facets: { brand: { limit: 100 }, category: { limit: 100 } },
      });
      return r.facets;
    },
    dispose: () => {
      db = null;
    },
  };
}

/** The engines by the names `BENCH_ENGINES` takes. */
export const ENGINES: Record<string, () => Engine> = { ours, minisearch, orama };
