/**
 * The `.svcidx` file: one exported index (with its replicas) for the browser engine of `svc-search/local`.
 *
 * Layout (format version 2): the 8 bytes `SVCIDX`, 0, 2, then a gzip stream (the web platform's
 * `CompressionStream`) of
 *
 * 1. the byte length of the JSON document, 4 bytes little-endian;
 * 2. one UTF-8 JSON document, {@link IndexBundle} without the typed arrays: records column by column (an
 *    attribute's values side by side compress better than record after record), replicas naming their primary,
 *    and per index with `structures` the snapshot's header (`version`, `basis`, `records`, `dynamicRanks`) with
 *    its sections as `[name, count]` pairs, in file order; the application's custom dictionary entries when it
 *    has any (`dictionaries`);
 * 3. the sections of every index with structures, in the order of the indices: each a list of `count` unsigned
 *    integers as LEB128 varints (7 bits a byte, low bits first, the high bit set on all bytes but the last).
 *
 * Version 1 files (no length, no sections) are still read. Written by `svc-search-service export`, read by the
 * worker — both with this module, which uses web-platform APIs only (Node 18+ and browsers have them).
 */
import type { CompoundEntry, PluralEntry, StopwordEntry } from './dictionaries.js';
import type { Rule } from './rules.js';
import type { IndexSnapshot, SnapshotSection } from './snapshot.js';
import type { Synonym } from './synonyms.js';
import { type Columns, pipe, readBundle, type StoredStructures, SVCIDX_MAGIC } from './bundle-read.js';

export { type ReadBundle, readBundle, SVCIDX_MAGIC } from './bundle-read.js';

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
  /** The engine's structures built from the records (`toSnapshot` of `snapshot.ts`), when the export wrote them. */
  structures?: IndexSnapshot;
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

/**
 * The application's custom dictionaries (document 1, Dictionaries) as the service holds them when it exports: every
 * custom entry (stop words, plurals, compounds) and the languages whose standard stop words are turned off. The
 * service's dictionaries serve every index, so the file carries them whole.
 */
export interface BundleDictionaries {
  stopwords: StopwordEntry[];
  plurals: PluralEntry[];
  compounds: CompoundEntry[];
  disabledStandardStopwords: string[];
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
  /** The custom dictionaries, when the application has any. */
  dictionaries?: BundleDictionaries;
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

/**
 * Recommend lists as stored: per record (in the primary's record order) the flat list `[position, score, …]`
 * of its recommendations, positions in the same record order (a number compresses far better than an objectID).
 */
export interface StoredRecommendations {
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

/**
 * A primary's stored Recommend lists as scored objectIDs (`ids`: its records' objectIDs, in order).
 *
 * @example
 * unpackRecommendations(stored, ['a', 'b']).relatedProducts.a // [{ objectID: 'b', score: 0.9 }]
 */
export function unpackRecommendations(stored: StoredRecommendations, ids: string[]): BundleRecommendations {
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

/** Bytes of `value` as a LEB128 varint. */
function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

/** The lists as LEB128 varints back to back. */
function writeVarints(lists: Uint32Array[]): Uint8Array {
  let size = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) size += varintSize(list[i]!);
  const out = new Uint8Array(size);
  let at = 0;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      let value = list[i]!;
      while (value >= 0x80) {
        out[at++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
      out[at++] = value;
    }
  }
  return out;
}

/**
 * Writes a bundle as the bytes of a `.svcidx` file.
 *
 * @example
 * const bytes = await encodeBundle({ name: 'products', exportedAt: Date.now(), indices: [...] });
 */
export async function encodeBundle(bundle: IndexBundle): Promise<Uint8Array> {
  const sections: Uint32Array[] = [];
  const storeStructures = ({ sections: lists, ...header }: IndexSnapshot): StoredStructures => {
    const names = Object.keys(lists) as SnapshotSection[];
    for (const name of names) sections.push(lists[name]);
    return { ...header, sections: names.map((name) => [name, lists[name].length]) };
  };
  const stored = {
    ...bundle,
    indices: bundle.indices.map(({ records, structures, ...index }) => ({
      ...index,
      ...(records ? { count: records.length, columns: toColumns(records) } : {}),
      ...(structures ? { structures: storeStructures(structures) } : {}),
    })),
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
  const binary = writeVarints(sections);
  const plain = new Uint8Array(4 + json.length + binary.length);
  new DataView(plain.buffer).setUint32(0, json.length, true);
  plain.set(json, 4);
  plain.set(binary, 4 + json.length);
  const body = await pipe(plain, new CompressionStream('gzip'));
  const out = new Uint8Array(SVCIDX_MAGIC.length + body.length);
  out.set(SVCIDX_MAGIC, 0);
  out.set(body, SVCIDX_MAGIC.length);
  return out;
}

/**
 * Reads the bytes of a `.svcidx` file whole, its Recommend lists as scored objectIDs; throws a `TypeError` naming what
 * is wrong with a file that is not one.
 *
 * @example
 * const bundle = await decodeBundle(new Uint8Array(await (await fetch('/indexes/products.svcidx')).arrayBuffer()));
 */
export async function decodeBundle(bytes: Uint8Array): Promise<IndexBundle> {
  const read = await readBundle(bytes);
  const stored = read.storedRecommendations;
  delete read.storedRecommendations;
  const bundle: IndexBundle = read;
  if (stored) {
    bundle.recommendations = Object.fromEntries(
      Object.entries(stored).map(([name, lists]) => [
        name,
        unpackRecommendations(lists, objectIDsOf(bundle.indices, name)),
      ]),
    );
  }
  return bundle;
}
