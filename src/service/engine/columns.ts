/**
 * Facet and numeric columns: per attribute, the value id of each record (several values: a list), its
 * numeric value, and the values' alphabetical order. Built on first use, then kept up to date on
 * writes; filters, facet counts, geo search, distinct and personalisation read them.
 */
import { tokenize } from './normalize.js';
import { getValues } from './record-paths.js';

/** A facet/numeric column of one attribute. */
export interface Column {
  values: string[];
  ids: Map<string, number>;
  /** lower-cased value → value ids (filters are case-insensitive). */
  lower: Map<string, number[]>;
  /** Per record: value id, -1 none, -2 several (in `multi`). */
  single: Int32Array;
  multi: Map<number, number[]>;
  /** Per record: numeric value or NaN; several in `numMulti`. */
  num: Float64Array;
  numMulti: Map<number, number[]>;
  hasNum: boolean;
  /** Normalised tokens per value id, for search for facet values (filled lazily). */
  tokens?: string[][];
  /** Value ids in alphabetical order and each value's place in it (built on first facet count, then maintained). */
  alpha?: { sorted: Uint32Array; length: number; rank: Uint32Array };
}

/**
 * The columns of one index, by attribute.
 * @example
 * const columns = new Columns();
 * const brand = columns.get('brand', records, 1024);
 * brand.values[brand.single[0]!] // the brand of record 0
 */
export class Columns {
  private readonly byAttribute = new Map<string, Column>();

  /** The column of `attr` (a path such as `meta.color`), built from the records on first use. */
  get(attr: string, records: ReadonlyArray<Record<string, unknown> | undefined>, capacity: number): Column {
    let col = this.byAttribute.get(attr);
    if (col) return col;
    col = {
      values: [],
      ids: new Map(),
      lower: new Map(),
      single: new Int32Array(capacity).fill(-1),
      multi: new Map(),
      num: new Float64Array(capacity).fill(NaN),
      numMulti: new Map(),
      hasNum: false,
    };
    for (let id = 0; id < records.length; id++) {
      const r = records[id];
      if (r) fillColumn(col, attr, id, r, false);
    }
    this.byAttribute.set(attr, col);
    return col;
  }

  /**
   * Writes record `id` into every built column. `dropAlpha`: forget the alphabetical orders that a new
   * value would have to be inserted into (rebuilt on the next facet count) instead of maintaining them.
   */
  fill(id: number, record: Record<string, unknown>, dropAlpha: boolean): void {
    for (const [attr, col] of this.byAttribute) fillColumn(col, attr, id, record, dropAlpha);
  }

  /** Grows the per-record arrays to `capacity` records. */
  grow(capacity: number): void {
    for (const col of this.byAttribute.values()) {
      const s = new Int32Array(capacity).fill(-1);
      s.set(col.single);
      col.single = s;
      const n = new Float64Array(capacity).fill(NaN);
      n.set(col.num);
      col.num = n;
    }
  }

  clear(): void {
    this.byAttribute.clear();
  }
}

function fillColumn(col: Column, attr: string, id: number, record: Record<string, unknown>, dropAlpha: boolean): void {
  const raw: unknown[] = [];
  getValues(record, attr.split('.'), 0, raw);
  col.single[id] = -1;
  col.num[id] = NaN;
  col.multi.delete(id);
  col.numMulti.delete(id);
  if (raw.length === 0) return;
  const vids: number[] = [];
  const nums: number[] = [];
  for (const v of raw) {
    let text: string;
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number' && Number.isFinite(v)) {
      text = String(v);
      nums.push(v);
    } else if (typeof v === 'boolean') {
      text = String(v);
      nums.push(v ? 1 : 0);
    } else continue;
    let vid = col.ids.get(text);
    if (vid === undefined) {
      vid = col.values.length;
      col.values.push(text);
      col.ids.set(text, vid);
      const low = text.toLowerCase();
      const list = col.lower.get(low);
      if (list) list.push(vid);
      else col.lower.set(low, [vid]);
      if (col.tokens) col.tokens.push(tokenize(text));
      if (col.alpha) {
        if (dropAlpha) col.alpha = undefined;
        else insertAlpha(col, vid);
      }
    }
    if (!vids.includes(vid)) vids.push(vid);
  }
  if (vids.length === 1) col.single[id] = vids[0]!;
  else if (vids.length > 1) {
    col.single[id] = -2;
    col.multi.set(id, vids);
  }
  if (nums.length) {
    col.hasNum = true;
    col.num[id] = nums[0]!;
    if (nums.length > 1) col.numMulti.set(id, nums);
  }
}

/**
 * Alphabetical order of a column's values (built once, then kept up to date by insertion).
 * @example const { sorted, length } = alphaOf(column); // column.values[sorted[0]] is the first value
 */
export function alphaOf(col: Column): NonNullable<Column['alpha']> {
  if (col.alpha) return col.alpha;
  const ids = col.values.map((_, i) => i);
  const values = col.values;
  ids.sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
  const size = Math.max(16, ids.length * 2);
  const sorted = new Uint32Array(size);
  sorted.set(ids);
  const rank = new Uint32Array(size);
  for (let i = 0; i < ids.length; i++) rank[ids[i]!] = i;
  col.alpha = { sorted, length: ids.length, rank };
  return col.alpha;
}

function insertAlpha(col: Column, vid: number): void {
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
