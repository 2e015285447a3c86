/**
 * Facet and numeric columns: per attribute, the value id of each record (several values: a list), its
 * numeric value, and the values' alphabetical order. Built on first use, then kept up to date on
 * writes; filters, facet counts, geo search, distinct and personalisation read them.
 */
import { optionalFeature } from './features.js';
import { tokenize } from './normalize.js';
import { getPath, getValues } from './record-paths.js';

/** A facet/numeric column of one attribute. */
export interface Column {
  /** The attribute's path (`meta.color` → `['meta', 'color']`). */
  path: string[];
  /**
   * Value texts by value id. A number's text is made when a reader needs texts (`textsOf`): a
   * numeric attribute such as a price has a value per distinct number, and most searches only read
   * its numbers.
   */
  values: string[];
  /** Value id → the number whose text is not made yet (undefined otherwise); `pending` of them. */
  numbers: Array<number | undefined>;
  pending: number;
  ids: Map<string, number>;
  /** Numeric value → value id (a shortcut past the value's text). */
  numIds: NumberIds;
  /** lower-cased value → value ids (filters are case-insensitive). */
  lower: Map<string, number[]>;
  /** Per record: value id, -1 none, -2 several (in `multi`). */
  single: Int32Array;
  multi: Map<number, number[]>;
  /** Per record: numeric value or NaN; several in `numMulti` (empty until the column sees a number). */
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
      path: attr.split('.'),
      values: [],
      numbers: [],
      pending: 0,
      ids: new Map(),
      numIds: new NumberIds(),
      lower: new Map(),
      single: new Int32Array(capacity).fill(-1),
      multi: new Map(),
      num: new Float64Array(0),
      numMulti: new Map(),
      hasNum: false,
      // set later; declared now so every column keeps one shape (the JIT's code stays valid)
      tokens: undefined,
      alpha: undefined,
    };
    for (let id = 0; id < records.length; id++) {
      const r = records[id];
      if (r) fillColumn(col, id, r, false);
    }
    this.byAttribute.set(attr, col);
    return col;
  }

  /**
   * Writes record `id` into every built column. `dropAlpha`: forget the alphabetical orders that a new
   * value would have to be inserted into (rebuilt on the next facet count) instead of maintaining them.
   */
  fill(id: number, record: Record<string, unknown>, dropAlpha: boolean): void {
    for (const col of this.byAttribute.values()) fillColumn(col, id, record, dropAlpha);
  }

  /** Grows the per-record arrays to `capacity` records. */
  grow(capacity: number): void {
    for (const col of this.byAttribute.values()) {
      const s = new Int32Array(capacity).fill(-1);
      s.set(col.single);
      col.single = s;
      if (col.num.length) {
        const n = new Float64Array(capacity).fill(NaN);
        n.set(col.num);
        col.num = n;
      }
    }
  }

  clear(): void {
    this.byAttribute.clear();
  }
}

function fillColumn(col: Column, id: number, record: Record<string, unknown>, dropAlpha: boolean): void {
  col.single[id] = -1;
  if (col.num.length) col.num[id] = NaN;
  if (col.multi.size) col.multi.delete(id);
  if (col.numMulti.size) col.numMulti.delete(id);
  // the common case: the path leads to one string or one number
  const one = getPath(record, col.path);
  if (typeof one === 'string') {
    col.single[id] = valueId(col, one, dropAlpha);
    return;
  }
  if (typeof one === 'number') {
    if (!Number.isFinite(one)) return;
    col.single[id] = numberId(col, one);
    setNumber(col, id, one);
    return;
  }
  const raw: unknown[] = [];
  getValues(record, col.path, 0, raw);
  if (raw.length === 0) return;
  const vids: number[] = [];
  const nums: number[] = [];
  for (const v of raw) {
    let vid: number;
    if (typeof v === 'string') vid = valueId(col, v, dropAlpha);
    else if (typeof v === 'number' && Number.isFinite(v)) {
      vid = numberId(col, v);
      nums.push(v);
    } else if (typeof v === 'boolean') {
      vid = valueId(col, String(v), dropAlpha);
      nums.push(v ? 1 : 0);
    } else continue;
    if (!vids.includes(vid)) vids.push(vid);
  }
  if (vids.length === 1) col.single[id] = vids[0]!;
  else if (vids.length > 1) {
    col.single[id] = -2;
    col.multi.set(id, vids);
  }
  if (nums.length) {
    setNumber(col, id, nums[0]!);
    if (nums.length > 1) col.numMulti.set(id, nums);
  }
}

function setNumber(col: Column, id: number, value: number): void {
  if (!col.hasNum) {
    col.hasNum = true;
    col.num = new Float64Array(col.single.length).fill(Number.NaN);
  }
  col.num[id] = value;
}

/** The id of a value's text, a new one for a new value. */
function valueId(col: Column, text: string, dropAlpha: boolean): number {
  let vid = col.ids.get(text);
  if (vid !== undefined) return vid;
  if (col.pending > 0) {
    // the text of a number whose own text is not made yet: that number's value
    const number = Number(text);
    vid = text !== '' && String(number) === text ? col.numIds.get(number) : -1;
    if (vid >= 0) {
      makeText(col, vid, dropAlpha);
      return vid;
    }
  }
  vid = col.values.length;
  col.values.push(text);
  col.numbers.push(undefined);
  registerText(col, vid, dropAlpha);
  return vid;
}

/** Lower-cased text, facet-search tokens and alphabetical place of a value's text. */
function registerText(col: Column, vid: number, dropAlpha: boolean): void {
  const text = col.values[vid]!;
  col.ids.set(text, vid);
  const low = text.toLowerCase();
  const list = col.lower.get(low);
  if (list) list.push(vid);
  else col.lower.set(low, [vid]);
  if (col.tokens) col.tokens[vid] = tokenize(text);
  if (col.alpha) {
    // without the engine's upkeep (the browser worker builds an index in one write), the order is built again
    const upkeep = optionalFeature('upkeep');
    if (dropAlpha || col.pending > 0 || !upkeep) col.alpha = undefined;
    else upkeep.insertAlpha(col, vid);
  }
}

function makeText(col: Column, vid: number, dropAlpha: boolean): void {
  col.values[vid] = String(col.numbers[vid]!);
  col.numbers[vid] = undefined;
  col.pending--;
  registerText(col, vid, dropAlpha);
}

/**
 * The column with the text of every value made (for facet counts, facet filters, facet search,
 * personalisation).
 * @example const col = textsOf(state.column('price')); col.values[col.single[id]!] // '12.5'
 */
export function textsOf(col: Column): Column {
  if (col.pending === 0) return col;
  for (let vid = 0; vid < col.values.length && col.pending > 0; vid++)
    if (col.numbers[vid] !== undefined) makeText(col, vid, true);
  return col;
}

/** The id of a number's value (its text, as `String` writes it, is made when a reader needs it). */
function numberId(col: Column, value: number): number {
  let vid = col.numIds.get(value);
  if (vid >= 0) return vid;
  if (col.ids.size > 0) {
    // a string value may already have this number's text
    const known = col.ids.get(String(value));
    if (known !== undefined) {
      col.numIds.set(value, known);
      return known;
    }
  }
  vid = col.values.length;
  col.values.push('');
  col.numbers.push(value);
  col.pending++;
  col.numIds.set(value, vid);
  return vid;
}

/**
 * Number → value id, an open-addressing hash table on the number's bits (a `Map` keyed by numbers
 * that are not small integers boxes every key).
 * @example const ids = new NumberIds(); ids.set(12.5, 3); ids.get(12.5) // 3; ids.get(1) // -1
 */
export class NumberIds {
  private keys = new Float64Array(64);
  private values = new Int32Array(64).fill(-1);
  private count = 0;
  private readonly bits = new Uint32Array(2);
  private readonly float = new Float64Array(this.bits.buffer);

  /** The id of `value` (-0 is 0), or -1. */
  get(value: number): number {
    const mask = this.keys.length - 1;
    for (let slot = this.hash(value) & mask; ; slot = (slot + 1) & mask) {
      const id = this.values[slot]!;
      if (id < 0 || this.keys[slot] === value) return id;
    }
  }

  set(value: number, id: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.rehash(this.keys.length * 2);
    const mask = this.keys.length - 1;
    let slot = this.hash(value) & mask;
    while (this.values[slot]! >= 0 && this.keys[slot] !== value) slot = (slot + 1) & mask;
    if (this.values[slot]! < 0) this.count++;
    this.keys[slot] = value;
    this.values[slot] = id;
  }

  private hash(value: number): number {
    this.float[0] = value + 0; // -0 and 0 are one value
    const h = Math.imul(this.bits[0]! ^ Math.imul(this.bits[1]!, 0x9e3779b1), 0x85ebca6b);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private rehash(size: number): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(size);
    this.values = new Int32Array(size).fill(-1);
    this.count = 0;
    for (let slot = 0; slot < keys.length; slot++) if (values[slot]! >= 0) this.set(keys[slot]!, values[slot]!);
  }
}

/**
 * Alphabetical order of a column's values (built once, then kept up to date by insertion: `insertAlpha` of
 * `upkeep.ts`).
 * @example const { sorted, length } = alphaOf(column); // column.values[sorted[0]] is the first value
 */
export function alphaOf(col: Column): NonNullable<Column['alpha']> {
  textsOf(col);
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
