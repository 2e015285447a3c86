/**
 * Reading a `.svcidx` file (the layout is described in `bundle.ts`): its magic bytes, format version and gzip stream
 * checked, its records rebuilt from their columns, its structures' sections read back from varints — and its Recommend
 * lists left as the file stores them. What the worker of `svc-search/local` starts with: it reads those lists with its
 * first Recommend request (`unpackRecommendations`, in its Recommend chunk), so a page that never recommends neither
 * loads nor runs that. `decodeBundle` (`bundle.ts`) reads a file whole.
 */
import type { BundleIndex, BundleRecord, IndexBundle, StoredRecommendations } from './bundle.js';
import type { IndexSnapshot, SnapshotSection } from './snapshot.js';

/** The file's first bytes: `SVCIDX`, a zero, the format version this module writes. */
export const SVCIDX_MAGIC = [0x53, 0x56, 0x43, 0x49, 0x44, 0x58, 0x00, 0x02] as const;

/** The format versions this module reads. */
const READABLE_VERSIONS = [1, 2];

/**
 * Records stored column by column: the attribute names, per attribute its values in record order, and the
 * positions of the records that lack it (their value is written as `null`, as is a record's own `null`).
 */
export interface Columns {
  attributes: string[];
  values: unknown[][];
  absent: number[][];
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
 * `bytes` through a compression or decompression stream.
 *
 * @example
 * const plain = await pipe(bytes, new DecompressionStream('gzip'));
 */
export async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const output = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

/** A snapshot's header as the JSON document stores it: its sections named, with their number of values. */
export interface StoredStructures extends Omit<IndexSnapshot, 'sections'> {
  sections: Array<[SnapshotSection, number]>;
}

/** Reads `count` varints of `bytes` from `cursor.at` (moved past them); a `TypeError` past the end. */
function readVarints(bytes: Uint8Array, cursor: { at: number }, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let at = cursor.at;
  for (let i = 0; i < count; i++) {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= bytes.length || shift > 28) throw new TypeError('A .svcidx whose sections are cut short or damaged');
      byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    out[i] = value;
  }
  cursor.at = at;
  return out;
}

type StoredIndex = Omit<BundleIndex, 'records' | 'structures'> & {
  count?: number;
  columns?: Columns;
  structures?: StoredStructures;
};

/**
 * A `.svcidx` file as {@link readBundle} reads it: its Recommend lists as the file stores them (per primary index
 * name), which `unpackRecommendations` (`bundle.ts`) turns into scored objectIDs.
 */
export interface ReadBundle extends Omit<IndexBundle, 'recommendations'> {
  storedRecommendations?: Record<string, StoredRecommendations>;
}

/** Bundles read from a file: their format version was known and gzip's checksum held. */
const FROM_FILES = new WeakSet<object>();

/**
 * Whether `bundle` was read from a `.svcidx` file (by {@link readBundle} or `decodeBundle`, which checked its magic bytes, its format
 * version and — gzip's CRC-32 and length, checked by `DecompressionStream` — its integrity), rather than built in
 * code. Its settings are the ones the service validated when it exported them.
 *
 * @example
 * isFromFile(await decodeBundle(bytes)) // true
 */
export function isFromFile(bundle: IndexBundle | ReadBundle): boolean {
  return FROM_FILES.has(bundle);
}

/**
 * Reads the bytes of a `.svcidx` file, its Recommend lists left as stored; throws a `TypeError` naming what is wrong
 * with a file that is not one.
 *
 * @example
 * const bundle = await readBundle(new Uint8Array(await (await fetch('/indexes/products.svcidx')).arrayBuffer()));
 */
export async function readBundle(bytes: Uint8Array): Promise<ReadBundle> {
  const known = SVCIDX_MAGIC.slice(0, 7).every((byte, i) => bytes[i] === byte);
  if (!known) throw new TypeError('Not a .svcidx file (wrong magic bytes)');
  const version = bytes[7]!;
  if (!READABLE_VERSIONS.includes(version))
    throw new TypeError(`Unsupported .svcidx version ${version} (this reader knows ${READABLE_VERSIONS.join(', ')})`);
  const plain = await pipe(bytes.subarray(SVCIDX_MAGIC.length), new DecompressionStream('gzip'));
  let json = plain;
  let binary: Uint8Array = new Uint8Array(0);
  if (version >= 2) {
    if (plain.length < 4) throw new TypeError('A .svcidx cut short');
    const length = new DataView(plain.buffer, plain.byteOffset).getUint32(0, true);
    if (4 + length > plain.length) throw new TypeError('A .svcidx cut short');
    json = plain.subarray(4, 4 + length);
    binary = plain.subarray(4 + length);
  }
  const stored = JSON.parse(new TextDecoder().decode(json)) as Omit<IndexBundle, 'indices' | 'recommendations'> & {
    indices: StoredIndex[];
    recommendations?: Record<string, StoredRecommendations>;
  };
  if (typeof stored.name !== 'string' || !Array.isArray(stored.indices))
    throw new TypeError('A .svcidx without indices');
  const cursor = { at: 0 };
  const indices: BundleIndex[] = stored.indices.map(({ count, columns, structures, ...index }) => {
    const entry: BundleIndex = columns ? { ...index, records: fromColumns(columns, count ?? 0) } : index;
    if (structures) {
      const lists = new Map<string, Uint32Array>();
      for (const [name, size] of structures.sections) {
        // each value takes a byte at least: a count beyond the bytes left is a damaged file, not an allocation
        if (!Number.isInteger(size) || size < 0 || size > binary.length - cursor.at)
          throw new TypeError('A .svcidx whose sections are cut short or damaged');
        lists.set(name, readVarints(binary, cursor, size));
      }
      // own properties whatever the names (`fromEntries` defines them); the restore checks the names
      const sections = Object.fromEntries(lists) as IndexSnapshot['sections'];
      entry.structures = { ...structures, sections };
    }
    return entry;
  });
  const bundle: ReadBundle = { name: stored.name, exportedAt: stored.exportedAt, indices };
  if (stored.dictionaries) bundle.dictionaries = stored.dictionaries;
  if (stored.recommendations) bundle.storedRecommendations = stored.recommendations;
  FROM_FILES.add(bundle);
  return bundle;
}
