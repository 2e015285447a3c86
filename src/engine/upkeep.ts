/**
 * The upkeep of an index's sorted structures write by write, once they are built: the sort orders' tail (new
 * records sorted in beside the base, `orders.ts`), the facet values' alphabetical orders (`columns.ts`) and the
 * merges of postings segments (`postings.ts`). The service's indices take many writes between reads, so a write
 * costs about its own size instead of a rebuild.
 *
 * An optional feature of the engine (`features.ts`): `svc-search/engine` (the service) installs it; the browser
 * worker of `svc-search/local` does not load it, as it builds each index in one write before any of these
 * structures exists. Without it, a later write drops an order or an alphabetical order it would have to update
 * (built again from the records on first use) and leaves its postings in a segment of their own (read as one with
 * the others): a write after reads then costs a rebuild, and the answers are the same.
 */
import type { Column } from './columns.js';
import type { IndexRecord } from './index-state.js';
import type { SortOrder } from './orders.js';
import type { Postings, Segment } from './postings.js';

/**
 * An order's tail is merged into its base once it holds this fraction of the base: a write's flush costs about
 * the tail's size, a merge the whole order's, so both stay a small part of a large load.
 */
const TAIL_FRACTION = 16;
/** A new postings segment is merged into the one before it while it is at least a quarter of its size. */
const MERGE_RATIO = 4;

// ---------------------------------------------------------------- sort orders

/**
 * Adds a new record to a built order (ordered at the next {@link flushOrder}).
 * @example addToOrder(order, id, record); flushOrder(order);
 */
export function addToOrder(order: SortOrder, id: number, record: IndexRecord): void {
  if (id >= order.rank.length) growOrder(order, Math.max(id + 1, order.rank.length * 2));
  order.setSortKey(id, record);
  order.pending.push(id);
}

/**
 * Orders the records added since the last flush: sorted, then merged into the tail by their place in the base;
 * the tail joins the base once it is a sixteenth of it.
 * @example flushOrder(order); // order.pending is empty
 */
export function flushOrder(order: SortOrder): void {
  if (order.pending.length === 0) return;
  const added = order.sortIds(Uint32Array.from(order.pending));
  order.pending = [];
  const addedAt = new Uint32Array(added.length);
  for (let j = 0; j < added.length; j++) addedAt[j] = lowerBound(order, added[j]!);
  // merge the sorted new ids into the tail by their place in the base (ids placed at the same base
  // position are compared)
  const tail = new Uint32Array(order.tail.length + added.length);
  const tailAt = new Uint32Array(tail.length);
  const oldTail = order.tail;
  const oldAt = order.tailAt;
  let i = 0;
  let j = 0;
  for (let k = 0; k < tail.length; k++) {
    const takeOld =
      j >= added.length ||
      (i < oldTail.length &&
        (oldAt[i]! < addedAt[j]! || (oldAt[i] === addedAt[j] && order.compareIds(oldTail[i]!, added[j]!) < 0)));
    if (takeOld) {
      tail[k] = oldTail[i]!;
      tailAt[k] = oldAt[i]!;
      i++;
    } else {
      tail[k] = added[j]!;
      tailAt[k] = addedAt[j]!;
      j++;
    }
  }
  order.tail = tail;
  order.tailAt = tailAt;
  if (order.tail.length * TAIL_FRACTION >= order.baseLength) mergeTail(order);
}

/** The number of base ids ordered before `id`. */
function lowerBound(order: SortOrder, id: number): number {
  let lo = 0;
  let hi = order.baseLength;
  const base = order.baseBuffer;
  const numeric = order.keys.length === 1 ? order.keys[0]!.numeric : null;
  const value = numeric ? numeric[id]! : Number.NaN;
  if (!Number.isNaN(value)) {
    // one numeric key (the usual custom ranking): numbers compared in place; a record without a
    // number (a string or nothing) comes after every number
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = base[mid]!;
      const v = numeric![other]!;
      if (v < value || (v === value && other < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order.compareIds(base[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tail joins the base: a copy guided by `tailAt`, then ranks and groups. */
function mergeTail(order: SortOrder): void {
  const length = order.baseLength + order.tail.length;
  const merged = new Uint32Array(Math.max(16, length + (length >>> 1)));
  let at = 0;
  let from = 0;
  for (let k = 0; k < order.tail.length; k++) {
    const to = order.tailAt[k]!;
    merged.set(order.baseBuffer.subarray(from, to), at);
    at += to - from;
    from = to;
    merged[at++] = order.tail[k]!;
  }
  merged.set(order.baseBuffer.subarray(from, order.baseLength), at);
  order.baseBuffer = merged;
  order.baseLength = length;
  order.tail = new Uint32Array(0);
  order.tailAt = new Uint32Array(0);
  order.rebuildRanks();
}

/** Grows an order's per-record arrays to `capacity` records. */
function growOrder(order: SortOrder, capacity: number): void {
  for (const k of order.keys) {
    const numeric = new Float64Array(capacity);
    numeric.set(k.numeric);
    k.numeric = numeric;
  }
  const rank = new Uint32Array(capacity).fill(0xffffffff);
  rank.set(order.rank);
  order.rank = rank;
  const group = new Uint32Array(capacity);
  group.set(order.group);
  order.group = group;
}

// ---------------------------------------------------------------- alphabetical orders of facet values

/**
 * Inserts a new value of a column into its alphabetical order (built by `alphaOf`).
 * @example insertAlpha(column, column.values.length - 1);
 */
export function insertAlpha(col: Column, vid: number): void {
  const a = col.alpha!;
  const values = col.values;
  const text = values[vid]!;
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[a.sorted[mid]!]! < text) lo = mid + 1;
    else hi = mid;
  }
  if (a.length === a.sorted.length || vid >= a.rank.length) {
    const size = Math.max(a.sorted.length, vid + 1) * 2;
    const sorted = new Uint32Array(size);
    sorted.set(a.sorted.subarray(0, a.length));
    const rank = new Uint32Array(size);
    rank.set(a.rank);
    a.sorted = sorted;
    a.rank = rank;
  }
  a.sorted.copyWithin(lo + 1, lo, a.length);
  a.sorted[lo] = vid;
  a.length++;
  for (let i = lo; i < a.length; i++) a.rank[a.sorted[i]!] = i;
}

// ---------------------------------------------------------------- postings segments

/**
 * After a new segment was added (the last of `segments`, oldest and largest first): merges the last two while the
 * newer is at least a quarter of the older. Sizes grow geometrically, so there are few segments (about log4 of the
 * writes) and a posting is copied a handful of times over the life of the index, whatever the size of the writes.
 * @example postings.segments.push(segment); mergeNewSegment(postings.segments);
 */
export function mergeNewSegment(segments: Segment[]): void {
  while (
    segments.length > 1 &&
    segments[segments.length - 1]!.data.length * MERGE_RATIO >= segments[segments.length - 2]!.data.length
  ) {
    const newer = segments.pop()!;
    const older = segments.pop()!;
    segments.push(mergeSegments(older, newer));
  }
}

/**
 * Merges every segment of the postings into one (the pending postings frozen first): what an index snapshot
 * stores (`structures.ts`).
 * @example compactPostings(postings); postings.segments.length // 1 (0 without postings)
 */
export function compactPostings(postings: Postings): void {
  postings.freeze();
  const segments = postings.segments;
  while (segments.length > 1) {
    const newer = segments.pop()!;
    const older = segments.pop()!;
    segments.push(mergeSegments(older, newer));
  }
}

/** One segment holding the postings of both, term by term: the older's block, then the newer's. */
function mergeSegments(older: Segment, newer: Segment): Segment {
  const terms = Math.max(older.off.length, newer.off.length) - 1;
  const off = new Uint32Array(terms + 1);
  const data = new Uint32Array(older.data.length + newer.data.length);
  const oTerms = older.off.length - 1;
  const nTerms = newer.off.length - 1;
  let at = 0;
  for (let t = 0; t < terms; t++) {
    off[t] = at;
    if (t < oTerms) {
      const from = older.off[t]!;
      const to = older.off[t + 1]!;
      if (to > from) {
        data.set(older.data.subarray(from, to), at);
        at += to - from;
      }
    }
    if (t < nTerms) {
      const from = newer.off[t]!;
      const to = newer.off[t + 1]!;
      if (to > from) {
        data.set(newer.data.subarray(from, to), at);
        at += to - from;
      }
    }
  }
  off[terms] = at;
  return { data, off };
}
