/**
 * Sort orders over the records: the custom ranking and each `asc(x)` / `desc(x)` criterion is a total
 * order (by the sort values, then by insertion) that ranking walks instead of sorting.
 *
 * An order is a sorted `base` with a rank and a tie group per record, built from the records on first use, plus a
 * sorted `tail` of the records added since the base was last rebuilt, each with its place in the base (`tailAt`),
 * so that walking both in order takes no comparison. Keeping an order up to date write by write is the upkeep of
 * `upkeep.ts` (a write adds its records to `pending`, the end of the write sorts them into the tail, and the tail
 * joins the base once it is a sixteenth of it — a write costs about its own size, not the size of the index); an
 * index built in one write, as the browser worker's are, never has a tail. Deleted ids stay in the order until
 * the index is rebuilt; readers only ever look at live candidates.
 */
import { optionalFeature } from './features.js';
import type { IndexRecord } from './index-state.js';
import { getPath } from './record-paths.js';
import type { SortSpec } from './settings.js';

interface SortKey {
  spec: SortSpec;
  /** Per id: the number, oriented (negated for `desc`), or NaN. */
  numeric: Float64Array;
  /** Per id: a value that is not a number (compared as a string), when there are any. */
  other: string[] | null;
}

/**
 * One sort order.
 * @example
 * const order = new SortOrder([parseSort('desc(popularity)')!], records, alive, 1024);
 * order.sortIds(ids); // the ids by popularity, most popular first
 */
export class SortOrder {
  // The fields below are read by the search (and the hits' ranking info, `ranking-info.ts`) and kept up to date on
  // later writes by the upkeep (`upkeep.ts`).
  readonly keys: SortKey[];
  /** The base order (`baseBuffer` up to `baseLength`). */
  baseBuffer: Uint32Array;
  baseLength: number;
  /** Per id of the base: its position there, and its tie group (equal sort values share one). */
  rank: Uint32Array;
  group: Uint32Array;
  /** Ids added since the base was built, sorted, and for each the number of base ids before it. */
  tail = new Uint32Array(0);
  tailAt = new Uint32Array(0);
  /** Ids added since the last end of a write, not in the tail yet. */
  pending: number[] = [];

  constructor(specs: SortSpec[], records: ReadonlyArray<IndexRecord | undefined>, alive: Uint8Array, capacity: number) {
    this.keys = specs.map((spec) => ({ spec, numeric: new Float64Array(capacity), other: null }));
    this.rank = new Uint32Array(capacity).fill(0xffffffff);
    this.group = new Uint32Array(capacity);
    let count = 0;
    for (let id = 0; id < records.length; id++) if (alive[id]) count++;
    const ids = new Uint32Array(count);
    let k = 0;
    for (let id = 0; id < records.length; id++) {
      if (!alive[id]) continue;
      ids[k++] = id;
      this.setSortKey(id, records[id]);
    }
    this.baseBuffer = this.sortIds(ids);
    this.baseLength = count;
    this.rebuildRanks();
  }

  /** Number of ids in the order (deleted ones included). */
  get size(): number {
    return this.baseLength + this.tail.length;
  }

  /** The ids in order (a new array). */
  sortIds(ids: Uint32Array): Uint32Array {
    if (this.tail.length === 0 && this.pending.length === 0 && this.baseLength > 0 && this.allInBase(ids))
      return this.sortByRank(ids);
    // many ids of one numeric key: a radix sort, with the speed-ups of large indices (`large-index.ts`)
    const byNumber = optionalFeature('largeIndex')?.sortByNumber(this, ids);
    if (byNumber) return byNumber;
    return Uint32Array.from(Array.from(ids).sort((a, b) => this.compareIds(a, b)));
  }

  /** The two ids have equal sort values (later criteria break the tie). */
  sameGroup(a: number, b: number): boolean {
    if (this.rank[a] !== 0xffffffff && this.rank[b] !== 0xffffffff) return this.group[a] === this.group[b];
    return this.compareKeys(a, b) === 0;
  }

  private allInBase(ids: Uint32Array): boolean {
    for (let i = 0; i < ids.length; i++) if (this.rank[ids[i]!] === 0xffffffff) return false;
    return true;
  }

  private sortByRank(ids: Uint32Array): Uint32Array {
    const rank = this.rank;
    const keyed = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keyed[i] = rank[ids[i]!]!;
    keyed.sort();
    const out = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) out[i] = this.baseBuffer[keyed[i]!]!;
    return out;
  }

  /** Rank and tie group of every base id (groups compared on neighbours only). */
  rebuildRanks(): void {
    const base = this.baseBuffer;
    const rank = this.rank;
    const group = this.group;
    let g = 0;
    // one numeric key (the usual custom ranking): ties are equal numbers, or two non-numbers compared
    const numeric = this.keys.length === 1 ? this.keys[0]!.numeric : null;
    for (let i = 0; i < this.baseLength; i++) {
      const id = base[i]!;
      rank[id] = i;
      if (i > 0) {
        const prev = base[i - 1]!;
        const a = numeric ? numeric[prev]! : Number.NaN;
        const b = numeric ? numeric[id]! : Number.NaN;
        const tie = numeric && !Number.isNaN(a) && !Number.isNaN(b) ? a === b : this.compareKeys(prev, id) === 0;
        if (!tie) g++;
      }
      group[id] = g;
    }
  }

  /** The sort key of one record under each spec: oriented number, other value, or missing. */
  setSortKey(id: number, record: IndexRecord | undefined): void {
    for (const k of this.keys) {
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

  compareIds(a: number, b: number): number {
    return this.compareKeys(a, b) || a - b;
  }

  /** Compares two records by the sort values only (0 when they tie). */
  private compareKeys(a: number, b: number): number {
    for (const k of this.keys) {
      const na = k.numeric[a]!;
      const nb = k.numeric[b]!;
      const aNum = !Number.isNaN(na);
      const bNum = !Number.isNaN(nb);
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
}

/**
 * The orders of one index, by key (`custom`, or the ranking criterion such as `desc(price)`), built
 * on first use and then kept up to date by `add` and `flush` when the engine's upkeep is installed (`upkeep.ts`).
 * @example
 * const orders = new Orders();
 * const byPrice = orders.get('asc(price)', [parseSort('asc(price)')!], records, alive, 1024);
 */
export class Orders {
  private readonly byKey = new Map<string, SortOrder>();

  get size(): number {
    return this.byKey.size;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  clear(): void {
    this.byKey.clear();
  }

  get(
    key: string,
    specs: SortSpec[],
    records: ReadonlyArray<IndexRecord | undefined>,
    alive: Uint8Array,
    capacity: number,
  ): SortOrder {
    let order = this.byKey.get(key);
    if (!order) {
      order = new SortOrder(specs, records, alive, capacity);
      this.byKey.set(key, order);
    }
    return order;
  }

  /**
   * Adds a new record to every built order. Without the engine's upkeep (the browser worker: its indices are built
   * in one write, before any order), the built orders are dropped instead, and built again from the records on
   * first use: a later write costs a sort, not a wrong order.
   */
  add(id: number, record: IndexRecord): void {
    if (this.byKey.size === 0) return;
    const upkeep = optionalFeature('upkeep');
    if (!upkeep) {
      this.byKey.clear();
      return;
    }
    for (const order of this.byKey.values()) upkeep.addToOrder(order, id, record);
  }

  /** Orders the records added since the last flush, in every built order. */
  flush(): void {
    const upkeep = optionalFeature('upkeep');
    if (upkeep) for (const order of this.byKey.values()) upkeep.flushOrder(order);
  }
}

function sortKeyOf(record: IndexRecord | undefined, spec: SortSpec): unknown {
  if (!record) return undefined;
  const v = getPath(record, spec.path);
  if (Array.isArray(v)) return v.length ? v[0] : undefined;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return v;
}
