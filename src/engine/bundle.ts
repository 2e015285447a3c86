/**
 * The `.svcidx` file: one exported index (with its replicas) for the browser engine of `svc-search/local`.
 *
 * Layout: the 8 magic bytes `SVCIDX\0` + format version (1), then a gzip stream (the web platform's
 * `CompressionStream`) of one UTF-8 JSON document, {@link IndexBundle}. Records are stored once, column by
 * column (an attribute's values side by side compress better than record after record); replicas name their
 * primary and carry only their settings. Written by `svc-search-service export`, read by the worker — both
 * with this module, which uses web-platform APIs only (Node 18+ and browsers have them).
 */
import type { Rule } from './rules.js';
import type { Synonym } from './synonyms.js';

/** The file's first bytes: `SVCIDX`, a zero, the format version. */
export const SVCIDX_MAGIC = [0x53, 0x56, 0x43, 0x49, 0x44, 0x58, 0x00, 0x01] as const;

/** A record as exported: `objectID` and any JSON values. */
export type BundleRecord = Record<string, unknown> & { objectID: string };

/** One index of a bundle: its settings, rules and synonyms, and its records (a replica shares its primary's). */
export interface BundleIndex {
  name: string;
  settings: Record<string, unknown>;
  rules: Rule[];
  synonyms: Synonym[];
  /** The primary whose records a replica shares; absent on a primary. */
  replicaOf?: string;
  /** A primary's records. */
  records?: BundleRecord[];
}

/** One scored recommendation: an objectID (or a facet value) and the model's score. */
export interface ScoredItem {
  objectID: string;
  score: number;
}

/** Recommend answers computed by the service from its stored events when the file was written. */
export interface BundleRecommendations {
  /** related-products per objectID, best first. */
  relatedProducts: Record<string, ScoredItem[]>;
  /** bought-together per objectID, best first. */
  boughtTogether: Record<string, ScoredItem[]>;
  /** trending-items over the whole index, best first. */
  trendingItems: ScoredItem[];
  /** trending-facets per facet name: `{ facetValue, score }`, best first. */
  trendingFacets: Record<string, Array<{ facetValue: string; score: number }>>;
}

/** What a `.svcidx` file holds. */
export interface IndexBundle {
  /** The primary index's name. */
  name: string;
  /** When the file was written (ms since the epoch). */
  exportedAt: number;
  indices: BundleIndex[];
  /** Recommend answers per primary index name, when the export computed them. */
  recommendations?: Record<string, BundleRecommendations>;
}

/**
 * Records stored column by column: the attribute names, per attribute its values in record order, and the
 * positions of the records that lack it (their value is written as `null`, as is a record's own `null`).
 */
interface Columns {
  attributes: string[];
  values: unknown[][];
  absent: number[][];
}

function toColumns(records: BundleRecord[]): Columns {
  const attributes: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const name of Object.keys(record)) {
      if (seen.has(name)) continue;
      seen.add(name);
      attributes.push(name);
    }
  }
  const values: unknown[][] = [];
  const absent: number[][] = [];
  for (const name of attributes) {
    const column: unknown[] = [];
    const missing: number[] = [];
    records.forEach((record, i) => {
      const has = Object.hasOwn(record, name);
      column.push(has ? record[name] : null);
      if (!has) missing.push(i);
    });
    values.push(column);
    absent.push(missing);
  }
  return { attributes, values, absent };
}

function fromColumns(columns: Columns, count: number): BundleRecord[] {
  const records: BundleRecord[] = [];
  for (let i = 0; i < count; i++) records.push({} as BundleRecord);
  columns.attributes.forEach((name, a) => {
    const column = columns.values[a] ?? [];
    const missing = new Set(columns.absent[a] ?? []);
    // A record may name an attribute `__proto__`: an own property then (defineProperty), never the prototype.
    const own = name === '__proto__';
    for (let i = 0; i < count; i++) {
      if (missing.has(i)) continue;
      const record = records[i]!;
      if (own) {
        Object.defineProperty(record, name, { value: column[i], enumerable: true, writable: true, configurable: true });
      } else {
        record[name] = column[i];
      }
    }
  });
  return records;
}

/**
 * Recommend lists as stored: per record (in the primary's record order) the flat list `[position, score, …]`
 * of its recommendations, positions in the same record order (a number compresses far better than an objectID).
 */
interface StoredRecommendations {
  relatedProducts: number[][];
  boughtTogether: number[][];
  trendingItems: number[];
  trendingFacets: BundleRecommendations['trendingFacets'];
}

function packList(list: ScoredItem[] | undefined, position: Map<string, number>): number[] {
  const out: number[] = [];
  for (const item of list ?? []) {
    const at = position.get(item.objectID);
    if (at === undefined) continue;
    out.push(at, item.score);
  }
  return out;
}

function unpackList(flat: number[] | undefined, ids: string[]): ScoredItem[] {
  const out: ScoredItem[] = [];
  for (let i = 0; i + 1 < (flat?.length ?? 0); i += 2) {
    const objectID = ids[flat![i]!];
    if (objectID !== undefined) out.push({ objectID, score: flat![i + 1]! });
  }
  return out;
}

function packRecommendations(lists: BundleRecommendations, ids: string[]): StoredRecommendations {
  const position = new Map(ids.map((id, i) => [id, i]));
  const perRecord = (byObject: Record<string, ScoredItem[]>) => ids.map((id) => packList(byObject[id], position));
  return {
    relatedProducts: perRecord(lists.relatedProducts),
    boughtTogether: perRecord(lists.boughtTogether),
    trendingItems: packList(lists.trendingItems, position),
    trendingFacets: lists.trendingFacets,
  };
}

function unpackRecommendations(stored: StoredRecommendations, ids: string[]): BundleRecommendations {
  const perRecord = (lists: number[][]) => {
    const out: Record<string, ScoredItem[]> = {};
    lists.forEach((flat, i) => {
      if (flat.length > 0) out[ids[i]!] = unpackList(flat, ids);
    });
    return out;
  };
  return {
    relatedProducts: perRecord(stored.relatedProducts),
    boughtTogether: perRecord(stored.boughtTogether),
    trendingItems: unpackList(stored.trendingItems, ids),
    trendingFacets: stored.trendingFacets,
  };
}

/** The objectIDs of a primary's records, in their order (the positions of the stored Recommend lists). */
function objectIDsOf(indices: Array<{ name: string; records?: BundleRecord[] }>, name: string): string[] {
  return (indices.find((entry) => entry.name === name)?.records ?? []).map((record) => record.objectID);
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const output = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

/**
 * Writes a bundle as the bytes of a `.svcidx` file.
 *
 * @example
 * const bytes = await encodeBundle({ name: 'products', exportedAt: Date.now(), indices: [...] });
 */
export async function encodeBundle(bundle: IndexBundle): Promise<Uint8Array> {
  const stored = {
    ...bundle,
    indices: bundle.indices.map(({ records, ...index }) =>
      records ? { ...index, count: records.length, columns: toColumns(records) } : index,
    ),
    recommendations: bundle.recommendations
      ? Object.fromEntries(
          Object.entries(bundle.recommendations).map(([name, lists]) => [
            name,
            packRecommendations(lists, objectIDsOf(bundle.indices, name)),
          ]),
        )
      : undefined,
  };
  const json = new TextEncoder().encode(JSON.stringify(stored));
  const body = await pipe(json, new CompressionStream('gzip'));
  const out = new Uint8Array(SVCIDX_MAGIC.length + body.length);
  out.set(SVCIDX_MAGIC, 0);
  out.set(body, SVCIDX_MAGIC.length);
  return out;
}

/**
 * Reads the bytes of a `.svcidx` file; throws a `TypeError` naming what is wrong with a file that is not one.
 *
 * @example
 * const bundle = await decodeBundle(new Uint8Array(await (await fetch('/indexes/products.svcidx')).arrayBuffer()));
 */
export async function decodeBundle(bytes: Uint8Array): Promise<IndexBundle> {
  const magic = SVCIDX_MAGIC.every((byte, i) => bytes[i] === byte);
  if (!magic) {
    const known = SVCIDX_MAGIC.slice(0, 6).every((byte, i) => bytes[i] === byte);
    throw new TypeError(
      known
        ? `Unsupported .svcidx version ${bytes[7]} (this reader knows 1)`
        : 'Not a .svcidx file (wrong magic bytes)',
    );
  }
  const json = await pipe(bytes.subarray(SVCIDX_MAGIC.length), new DecompressionStream('gzip'));
  const stored = JSON.parse(new TextDecoder().decode(json)) as Omit<IndexBundle, 'indices' | 'recommendations'> & {
    indices: Array<Omit<BundleIndex, 'records'> & { count?: number; columns?: Columns }>;
    recommendations?: Record<string, StoredRecommendations>;
  };
  if (typeof stored.name !== 'string' || !Array.isArray(stored.indices))
    throw new TypeError('A .svcidx without indices');
  const indices: BundleIndex[] = stored.indices.map(({ count, columns, ...index }) =>
    columns ? { ...index, records: fromColumns(columns, count ?? 0) } : index,
  );
  const bundle: IndexBundle = { name: stored.name, exportedAt: stored.exportedAt, indices };
  if (stored.recommendations) {
    bundle.recommendations = Object.fromEntries(
      Object.entries(stored.recommendations).map(([name, lists]) => [
        name,
        unpackRecommendations(lists, objectIDsOf(indices, name)),
      ]),
    );
  }
  return bundle;
}
