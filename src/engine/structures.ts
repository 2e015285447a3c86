/**
 * The engine's built structures as the plain arrays an index snapshot stores (`snapshot.ts`), and back: the term
 * table, the vocabulary with its sorted view, and the postings with the records' tokens. Only the service's `Index`
 * (`structures`, `restore`) uses them, so the search path the browser worker starts with does not carry them; the
 * fields they read and fill are the classes' own, documented there as the snapshot's.
 */
import { type PostingsContents, Postings } from './postings.js';
import { TermTable } from './term-table.js';
import { compactPostings } from './upkeep.js';
import { Vocabulary } from './vocabulary.js';

/** What an index snapshot holds of the vocabulary (see {@link vocabularyContents}). */
export interface VocabularyContents {
  pool: Uint16Array;
  starts: Uint32Array;
  sorted: Uint32Array;
}

/** The string of UTF-16 code units, lone surrogates kept (made in chunks: a call takes so many arguments). */
function codesToString(codes: Uint16Array): string {
  const chunks: string[] = [];
  for (let at = 0; at < codes.length; at += 8192) chunks.push(String.fromCharCode(...codes.subarray(at, at + 8192)));
  return chunks.join('');
}

/** {@link TermTable.hash} of characters kept as UTF-16 code units. */
function hashCodes(codes: Uint16Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= codes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}

/**
 * A table's terms as it keeps them: their characters back to back in id order, and where each starts
 * (`starts[id + 1]`: where it ends).
 * @example const { pool, starts } = termTableContents(table); String.fromCharCode(...pool.subarray(starts[0], starts[1]))
 */
function termTableContents(table: TermTable): { pool: Uint16Array; starts: Uint32Array } {
  return {
    pool: table.pool.subarray(0, table.starts[table.count]!),
    starts: table.starts.subarray(0, table.count + 1),
  };
}

/**
 * A table holding the terms of {@link termTableContents} under the same ids; the hashes and slots are computed
 * again (one pass over the characters, no string made).
 * @example const copy = restoreTermTable(termTableContents(table));
 */
function restoreTermTable({ pool, starts }: { pool: Uint16Array; starts: Uint32Array }): TermTable {
  const table = new TermTable();
  const count = starts.length - 1;
  table.count = count;
  // room as the constructor's, or more: `insert` grows these by doubling
  const room = Math.max(256, count);
  table.pool = new Uint16Array(Math.max(4096, pool.length));
  table.pool.set(pool);
  table.starts = new Uint32Array(room + 1);
  table.starts.set(starts);
  table.hashes = new Uint32Array(room);
  for (let id = 0; id < count; id++) table.hashes[id] = hashCodes(pool, starts[id]!, starts[id + 1]!);
  let size = 1024;
  while (count * 2 > size) size *= 2;
  table.rehash(size);
  return table;
}

/**
 * The vocabulary as an index snapshot stores it: the terms' characters in id order with where each starts, and
 * the term ids in sorted order. The rest (the sorted characters, the common prefixes, the hash slots) is one pass
 * over these at restore.
 * @example const { pool, starts, sorted } = vocabularyContents(vocab);
 */
export function vocabularyContents(vocab: Vocabulary): VocabularyContents {
  vocab.ensureSorted();
  return { ...termTableContents(vocab.ids), sorted: vocab.sortedIds };
}

/**
 * The vocabulary of {@link vocabularyContents}, sorted view included (no term is compared or sorted again).
 * @example const copy = restoreVocabulary(vocabularyContents(vocab));
 */
export function restoreVocabulary(contents: VocabularyContents): Vocabulary {
  const { pool, starts, sorted: sortedIds } = contents;
  const vocab = new Vocabulary();
  const count = starts.length - 1;
  if (sortedIds.length !== count) throw new TypeError('Index snapshot: the sorted terms are not the terms');
  vocab.ids = restoreTermTable({ pool, starts });
  // one string of every term's characters, sliced per term (a slice shares the characters, no copy)
  const text = codesToString(pool);
  for (let id = 0; id < count; id++) vocab.terms.push(text.slice(starts[id]!, starts[id + 1]!));
  const chars = new Uint16Array(pool.length);
  const offs = new Uint32Array(count + 1);
  const lcp = new Uint8Array(count);
  const sorted: string[] = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    const id = sortedIds[k]!;
    const from = starts[id]!;
    const to = starts[id + 1]!;
    offs[k] = at;
    chars.set(pool.subarray(from, to), at);
    if (k > 0) {
      const before = offs[k - 1]!;
      const limit = Math.min(at - before, to - from, 255);
      let common = 0;
      while (common < limit && chars[before + common] === chars[at + common]) common++;
      lcp[k] = common;
    }
    at += to - from;
    sorted.push(vocab.terms[id]!);
  }
  offs[count] = at;
  vocab.sorted = sorted;
  vocab.sortedIds = sortedIds.slice();
  vocab.lcp = lcp;
  vocab.chars = chars;
  vocab.offs = offs;
  vocab.posOfReady = false;
  vocab.jumpReady = false;
  return vocab;
}

/**
 * The inverted index as an index snapshot stores it, all postings in one segment: the segment (`off`, `data`),
 * the tokens of records `0` to `records - 1` and where each record's start.
 * @example const { off, data, tokens, tokenStart } = postingsContents(postings, index.records.length);
 */
export function postingsContents(postings: Postings, records: number): PostingsContents {
  compactPostings(postings);
  const segment = postings.segments[0] ?? { data: new Uint32Array(0), off: new Uint32Array(1) };
  return {
    off: segment.off,
    data: segment.data,
    tokens: postings.tokens.subarray(0, postings.tokUsed * 2),
    tokenStart: postings.tokenStart.subarray(0, records + 1),
  };
}

/**
 * The inverted index of {@link postingsContents} over `vocab`, with room for `capacity` records: the arrays are
 * used as they are (only the per-record starts are copied into an array of the index's capacity).
 * @example const copy = restorePostings(vocab, 1024, postingsContents(postings, records));
 */
export function restorePostings(vocab: Vocabulary, capacity: number, contents: PostingsContents): Postings {
  const { off, data, tokens, tokenStart } = contents;
  if (off.length > vocab.size + 1 || off[off.length - 1] !== data.length || data.length % 2 !== 0)
    throw new TypeError('Index snapshot: postings do not match the terms');
  if (tokens.length % 2 !== 0 || tokenStart[tokenStart.length - 1]! * 2 !== tokens.length)
    throw new TypeError('Index snapshot: tokens do not match the records');
  const postings = new Postings(capacity);
  postings.vocab = vocab;
  postings.segments = data.length > 0 ? [{ off, data }] : [];
  if (tokens.length > 0) postings.tokens = tokens;
  postings.tokUsed = tokens.length / 2;
  postings.tokenStart.set(tokenStart);
  postings.growTermScratch(vocab.size);
  return postings;
}
