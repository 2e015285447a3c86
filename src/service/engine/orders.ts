/**
 * Sort orders over the records: the custom ranking and each `asc(x)` / `desc(x)` criterion is a total
 * order (then by insertion) kept as a rank per record, the ordered ids and a group per run of equal
 * values (later criteria break those ties). Built once, then kept up to date by binary insertion on
 * writes.
 */
import type { IndexRecord } from './index-state.js';
import { getPath } from './record-paths.js';
import type { SortSpec } from './settings.js';

export interface OrderEntry {
  keys: Array<{ spec: SortSpec; numeric: Float64Array; other: string[] | null }>;
  rank: Uint32Array;
  /** Per id: the index of its distinct sort value (equal values share it, so later criteria break those ties). */
  group: Uint32Array;
  buffer: Uint32Array;
  length: number;
  /** `buffer` up to `length`. */
  order: Uint32Array;
}

function sortKeyOf(record: IndexRecord | undefined, spec: SortSpec): unknown {
  if (!record) return undefined;
  const v = getPath(record, spec.path);
  if (Array.isArray(v)) return v.length ? v[0] : undefined;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return v;
}

/**
 * The orders of one index, by key (`custom`, or the ranking criterion such as `desc(price)`).
 * @example
 * const orders = new Orders();
 * const byPrice = orders.get('asc(price)', [parseSort('asc(price)')!], records, alive, 1024);
 * byPrice.order[0] // the id of the cheapest record
 */
export class Orders {
  private readonly byKey = new Map<string, OrderEntry>();

  get size(): number {
    return this.byKey.size;
  }

  clear(): void {
    this.byKey.clear();
  }

  /**
   * A total order over the records by sort specs (then by insertion): rank per id and the ordered
   * ids. Built once, then kept up to date by binary insertion on writes (deleted ids stay in it and
   * are skipped by the readers, which only ever look at live candidates).
   */
  get(
    key: string,
    specs: SortSpec[],
    records: ReadonlyArray<IndexRecord | undefined>,
    alive: Uint8Array,
    capacity: number,
  ): OrderEntry {
    const cached = this.byKey.get(key);
    if (cached) return cached;
    const ids: number[] = [];
    for (let id = 0; id < records.length; id++) if (alive[id]) ids.push(id);
    const entry: OrderEntry = {
      keys: specs.map((spec) => ({ spec, numeric: new Float64Array(capacity), other: null })),
      rank: new Uint32Array(capacity).fill(0xffffffff),
      group: new Uint32Array(capacity),
      buffer: new Uint32Array(Math.max(16, ids.length * 2)),
      length: ids.length,
      order: new Uint32Array(0),
    };
    if (specs.length) {
      for (const id of ids) setSortKey(entry, id, records[id]);
      ids.sort((a, b) => compareIds(entry, a, b));
    }
    entry.buffer.set(ids);
    entry.order = entry.buffer.subarray(0, entry.length);
    for (let i = 0; i < ids.length; i++) {
      entry.rank[ids[i]!] = i;
      if (i > 0)
        entry.group[ids[i]!] = entry.group[ids[i - 1]!]! + (compareKeys(entry, ids[i - 1]!, ids[i]!) === 0 ? 0 : 1);
    }
    this.byKey.set(key, entry);
    return entry;
  }

  /** Inserts a new record into every built order (binary search, then a typed-array shift). */
  insert(id: number, records: ReadonlyArray<IndexRecord | undefined>): void {
    for (const [key, entry] of this.byKey) {
      if (id >= entry.rank.length) {
        this.byKey.delete(key);
        continue;
      }
      let pos = entry.length;
      if (entry.keys.length) {
        setSortKey(entry, id, records[id]);
        let lo = 0;
        let hi = entry.length;
        const order = entry.buffer;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (compareIds(entry, order[mid]!, id) < 0) lo = mid + 1;
          else hi = mid;
        }
        pos = lo;
      }
      if (entry.length === entry.buffer.length) {
        const bigger = new Uint32Array(entry.buffer.length * 2);
        bigger.set(entry.buffer);
        entry.buffer = bigger;
      }
      const buf = entry.buffer;
      // its group: the previous record's when they tie, else the next one's when they tie, else a new
      // group that shifts every later group by one
      const group = entry.group;
      let shift = 0;
      let own: number;
      if (pos > 0 && compareKeys(entry, buf[pos - 1]!, id) === 0) own = group[buf[pos - 1]!]!;
      else if (pos < entry.length && compareKeys(entry, id, buf[pos]!) === 0) own = group[buf[pos]!]!;
      else {
        own = pos > 0 ? group[buf[pos - 1]!]! + 1 : 0;
        shift = 1;
      }
      buf.copyWithin(pos + 1, pos, entry.length);
      buf[pos] = id;
      entry.length++;
      group[id] = own;
      for (let i = pos; i < entry.length; i++) {
        entry.rank[buf[i]!] = i;
        if (shift && i > pos) group[buf[i]!]! += 1;
      }
      entry.order = buf.subarray(0, entry.length);
    }
  }
}

/** The sort key of one record under one spec: oriented number, other value, or missing. */
function setSortKey(entry: OrderEntry, id: number, record: IndexRecord | undefined): void {
  for (const k of entry.keys) {
    const v = sortKeyOf(record, k.spec);
    k.numeric[id] = NaN;
    if (typeof v === 'number' && Number.isFinite(v)) k.numeric[id] = k.spec.desc ? -v : v;
    else if (typeof v === 'boolean') k.numeric[id] = k.spec.desc ? -Number(v) : Number(v);
    else if (v !== undefined && v !== null && typeof v !== 'object') {
      k.other ??= [];
      k.other[id] = String(v);
    }
  }
}

function compareIds(entry: OrderEntry, a: number, b: number): number {
  return compareKeys(entry, a, b) || a - b;
}

/** Compares two records by the sort values only (0 when they tie). */
function compareKeys(entry: OrderEntry, a: number, b: number): number {
  for (const k of entry.keys) {
    const na = k.numeric[a]!;
    const nb = k.numeric[b]!;
    const aNum = na === na;
    const bNum = nb === nb;
    if (aNum && bNum) {
      if (na !== nb) return na - nb;
      continue;
    }
    const sa = aNum ? undefined : k.other?.[a];
    const sb = bNum ? undefined : k.other?.[b];
    const aHas = aNum || sa !== undefined;
    const bHas = bNum || sb !== undefined;
    if (!aHas || !bHas) {
      if (aHas !== bHas) return aHas ? -1 : 1; // missing values last
      continue;
    }
    if (aNum !== bNum) return aNum ? -1 : 1; // numbers before strings
    if (sa !== sb) return (sa! < sb! ? -1 : 1) * (k.spec.desc ? -1 : 1);
  }
  return 0;
}
