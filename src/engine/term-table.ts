/**
 * Term text → term id, an open-addressing hash table over the terms' characters kept back to back:
 * a token can be looked up by its place in a text (no substring made for a term already known), and
 * a lookup reads two typed arrays instead of following pointers to strings.
 */

/**
 * @example
 * const table = new TermTable();
 * table.insert('oak table', 0, 3, TermTable.hash('oak table', 0, 3)); // 0: "oak"
 * table.find('an oak', 3, 6, TermTable.hash('an oak', 3, 6)) // 0
 */
export class TermTable {
  /** Slot → term id + 1 (0: empty). */
  private slots = new Int32Array(1024);
  // The terms, read and restored by an index snapshot (`structures.ts`).
  /** Per term id: its hash, and where its characters start in `pool` (`starts[id + 1]`: where they end). */
  hashes = new Uint32Array(256);
  starts = new Uint32Array(257);
  pool = new Uint16Array(4096);
  count = 0;

  /**
   * The hash of `text.slice(start, end)` (FNV-1a over the UTF-16 code units, then mixed).
   * @example TermTable.hash('oak', 0, 3) === TermTable.hash('an oak', 3, 6) // true
   */
  static hash(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= h >>> 15;
    return Math.imul(h, 0x2c1b3c6d) >>> 0;
  }

  /** The id of `text.slice(start, end)`, or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const id = entry - 1;
      if (this.hashes[id] !== hash) continue;
      const from = this.starts[id]!;
      if (this.starts[id + 1]! - from !== length) continue;
      let same = true;
      for (let k = 0; k < length; k++) {
        if (this.pool[from + k] !== text.charCodeAt(start + k)) {
          same = false;
          break;
        }
      }
      if (same) return id;
    }
  }

  /** Adds `text.slice(start, end)` (not in the table) with the next id, which it returns. */
  insert(text: string, start: number, end: number, hash: number): number {
    const id = this.count++;
    if (id >= this.hashes.length) {
      // one hash per term, and one start more than terms
      this.hashes = grown32(this.hashes, this.hashes.length * 2);
      this.starts = grown32(this.starts, this.hashes.length + 1);
    }
    const from = this.starts[id]!;
    const length = end - start;
    if (from + length > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, from + length));
      pool.set(this.pool);
      this.pool = pool;
    }
    for (let k = 0; k < length; k++) this.pool[from + k] = text.charCodeAt(start + k);
    this.starts[id + 1] = from + length;
    this.hashes[id] = hash;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = id + 1;
  }

  /** Places every term again in `size` slots (a power of two). */
  rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}

function grown32(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}
