/**
 * An index snapshot: the structures the engine builds from an index's records (the term dictionary, its sorted
 * view, the postings and the records' tokens), as lists of small unsigned integers, so that an index can be
 * restored from them without tokenizing a record (`toSnapshot` / `fromSnapshot`). A module of its own: the
 * browser worker loads it only for a file that carries structures. The `.svcidx`
 * file stores each list as LEB128 varints (`bundle.ts`); the encodings below keep the numbers small:
 *
 * | section         | one number per                | value                                                   |
 * | --------------- | ----------------------------- | ------------------------------------------------------- |
 * | `termChars`     | UTF-16 code unit of the terms | the terms back to back, in term-id order                |
 * | `termLengths`   | term                          | its length in code units                                |
 * | `sortedTerms`   | term                          | the term ids in the vocabulary's sorted order           |
 * | `postingCounts` | term                          | its number of postings                                  |
 * | `postingIds`    | posting                       | record id, minus the previous one of the same term      |
 * | `postingKeys`   | posting                       | attribute key × 2, + 1 when the term repeats in it      |
 * | `tokenCounts`   | record                        | its number of tokens                                    |
 * | `tokenTerms`    | token                         | its term id                                             |
 * | `tokenPlaces`   | token                         | `field << 16 \| position`, minus the record's previous  |
 *
 * What is cheap to derive from the records at load stays out: facet and numeric columns, sort orders and the
 * per-query scratch are built by the restore as after any write (`IndexState.refresh`).
 *
 * `SNAPSHOT_VERSION` names this layout and the engine's meaning of it (tokenizing, attribute keys): a snapshot of
 * another version, or built under settings that shape the structures differently (`basis`: the searchable
 * attributes and languages), is refused with a `SnapshotError`, and its reader builds the index from the records
 * instead.
 */
import type { DictionaryReader } from './standard-dictionaries.js';
import { SnapshotError } from './errors.js';
import { ATTR_MASK, type PostingsContents, REPEATED } from './postings.js';
import { Index, type IndexRecord } from './search-index.js';
import type { IndexSettings } from './settings.js';
import type { VocabularyContents } from './structures.js';
import type { Synonym } from './synonyms.js';

/** The snapshot layout this engine writes and reads. */
export const SNAPSHOT_VERSION = 1;

/** The names of a snapshot's sections, in the order a file stores them. */
export const SNAPSHOT_SECTIONS = [
  'termChars',
  'termLengths',
  'sortedTerms',
  'postingCounts',
  'postingIds',
  'postingKeys',
  'tokenCounts',
  'tokenTerms',
  'tokenPlaces',
] as const;

export type SnapshotSection = (typeof SNAPSHOT_SECTIONS)[number];

/** An index's built structures (see the module comment). */
export interface IndexSnapshot {
  version: number;
  /** The settings the structures depend on (`basisOf`), as JSON. */
  basis: string;
  /** Number of records, in the order the snapshot's ids number them. */
  records: number;
  /** With no `searchableAttributes`: the attributes in the order they were given ranks. */
  dynamicRanks: string[];
  sections: Record<SnapshotSection, Uint32Array>;
}

/** The structures an index restores: the vocabulary's contents and the postings' (see `structures.ts`). */
export interface SnapshotContents {
  vocabulary: VocabularyContents;
  postings: PostingsContents;
}

/**
 * The snapshot of an index's built structures, numbered in the order of `index.objects()`: what
 * {@link fromSnapshot} restores without tokenizing a record. Merges the postings into one segment and drops
 * deleted records first (a read sees no difference).
 * @example const snapshot = toSnapshot(index); const records = [...index.objects()];
 */
export function toSnapshot(index: Index): IndexSnapshot {
  const { basis, records, dynamicRanks, contents } = index.structures();
  return { version: SNAPSHOT_VERSION, basis, records, dynamicRanks, sections: encodeSections(contents) };
}

/**
 * An index of `records` (in the order of the snapshot's) with `settings` and `synonyms`, restored from a snapshot
 * instead of built: it answers as the index the snapshot was taken of. Throws a `SnapshotError` for a snapshot of
 * another version, of other records, of settings that shape the structures differently, or damaged (the caller
 * then builds the index with `saveObjects`).
 * @example
 * const index = fromSnapshot('products', { settings, synonyms, records, snapshot });
 * index.search({ query: 'chiar' });
 */
export function fromSnapshot(
  name: string,
  input: {
    settings: Partial<IndexSettings> | Record<string, unknown>;
    synonyms?: readonly Synonym[];
    records: IndexRecord[];
    snapshot: IndexSnapshot;
  },
  options: { dictionaries?: DictionaryReader } = {},
): Index {
  const { snapshot, records } = input;
  if (snapshot.version !== SNAPSHOT_VERSION)
    throw new SnapshotError(
      `Index snapshot version ${snapshot.version}: this engine reads version ${SNAPSHOT_VERSION}`,
    );
  if (snapshot.records !== records.length)
    throw new SnapshotError(`Index snapshot of ${snapshot.records} records, given ${records.length}`);
  const contents = decodeSections(snapshot.sections, records.length);
  return Index.restore(
    name,
    { ...input, basis: snapshot.basis, dynamicRanks: snapshot.dynamicRanks, contents },
    options,
  );
}

/**
 * The sections of an index's structures.
 * @example const sections = encodeSections({ vocabulary: vocabularyContents(vocab), postings: postingsContents(postings, n) });
 */
export function encodeSections({ vocabulary, postings }: SnapshotContents): IndexSnapshot['sections'] {
  const { pool, starts, sorted } = vocabulary;
  const terms = starts.length - 1;
  const termLengths = new Uint32Array(terms);
  for (let t = 0; t < terms; t++) termLengths[t] = starts[t + 1]! - starts[t]!;
  const { off, data, tokens, tokenStart } = postings;
  const postingCounts = new Uint32Array(terms);
  const postingIds = new Uint32Array(data.length / 2);
  const postingKeys = new Uint32Array(data.length / 2);
  for (let t = 0; t < terms && t < off.length - 1; t++) {
    postingCounts[t] = (off[t + 1]! - off[t]!) / 2;
    let previous = 0;
    for (let at = off[t]!; at < off[t + 1]!; at += 2) {
      const id = data[at]!;
      const key = data[at + 1]!;
      postingIds[at / 2] = id - previous;
      previous = id;
      postingKeys[at / 2] = (key & ATTR_MASK) * 2 + (key & REPEATED ? 1 : 0);
    }
  }
  const records = tokenStart.length - 1;
  const tokenCounts = new Uint32Array(records);
  const tokenTerms = new Uint32Array(tokens.length / 2);
  const tokenPlaces = new Uint32Array(tokens.length / 2);
  for (let id = 0; id < records; id++) {
    tokenCounts[id] = tokenStart[id + 1]! - tokenStart[id]!;
    let previous = 0;
    for (let k = tokenStart[id]!; k < tokenStart[id + 1]!; k++) {
      tokenTerms[k] = tokens[k * 2]!;
      const place = tokens[k * 2 + 1]!;
      // positions only grow within a record (fields in order, positions within a field)
      tokenPlaces[k] = place - previous;
      previous = place;
    }
  }
  return {
    termChars: Uint32Array.from(pool),
    termLengths,
    sortedTerms: sorted.slice(),
    postingCounts,
    postingIds,
    postingKeys,
    tokenCounts,
    tokenTerms,
    tokenPlaces,
  };
}

/**
 * The structures of a snapshot's sections; throws a `SnapshotError` when they do not fit together.
 * @example const { vocabulary, postings } = decodeSections(snapshot.sections, snapshot.records);
 */
export function decodeSections(sections: IndexSnapshot['sections'], records: number): SnapshotContents {
  for (const name of SNAPSHOT_SECTIONS)
    if (!Object.hasOwn(sections, name) || !(sections[name] instanceof Uint32Array))
      throw new SnapshotError(`Index snapshot: no ${name} section`);
  const { termChars, termLengths, sortedTerms, postingCounts, postingIds, postingKeys } = sections;
  const { tokenCounts, tokenTerms, tokenPlaces } = sections;
  const terms = termLengths.length;
  if (sortedTerms.length !== terms || postingCounts.length !== terms)
    throw new SnapshotError('Index snapshot: the term sections differ in length');
  if (postingIds.length !== postingKeys.length || tokenTerms.length !== tokenPlaces.length)
    throw new SnapshotError('Index snapshot: the posting or token sections differ in length');
  if (tokenCounts.length !== records) throw new SnapshotError('Index snapshot: token counts are not one per record');
  const starts = new Uint32Array(terms + 1);
  for (let t = 0; t < terms; t++) starts[t + 1] = starts[t]! + termLengths[t]!;
  if (starts[terms] !== termChars.length) throw new SnapshotError('Index snapshot: term lengths do not add up');
  for (let k = 0; k < terms; k++)
    if (sortedTerms[k]! >= terms) throw new SnapshotError('Index snapshot: a sorted term names no term');
  const pool = Uint16Array.from(termChars);
  const off = new Uint32Array(terms + 1);
  const data = new Uint32Array(postingIds.length * 2);
  let at = 0;
  for (let t = 0; t < terms; t++) {
    off[t] = at * 2;
    let id = 0;
    const end = at + postingCounts[t]!;
    if (end > postingIds.length) throw new SnapshotError('Index snapshot: posting counts exceed the postings');
    for (; at < end; at++) {
      id += postingIds[at]!;
      if (id >= records) throw new SnapshotError('Index snapshot: a posting names no record');
      const key = postingKeys[at]!;
      data[at * 2] = id;
      data[at * 2 + 1] = (key >>> 1) | (key & 1 ? REPEATED : 0);
    }
  }
  off[terms] = at * 2;
  if (at !== postingIds.length) throw new SnapshotError('Index snapshot: posting counts fall short of the postings');
  const tokenStart = new Uint32Array(records + 1);
  const tokens = new Uint32Array(tokenTerms.length * 2);
  let k = 0;
  for (let id = 0; id < records; id++) {
    tokenStart[id] = k;
    const end = k + tokenCounts[id]!;
    if (end > tokenTerms.length) throw new SnapshotError('Index snapshot: token counts exceed the tokens');
    let place = 0;
    for (; k < end; k++) {
      place += tokenPlaces[k]!;
      tokens[k * 2] = tokenTerms[k]!;
      tokens[k * 2 + 1] = place;
    }
  }
  tokenStart[records] = k;
  if (k !== tokenTerms.length) throw new SnapshotError('Index snapshot: token counts fall short of the tokens');
  for (let t = 0; t < tokenTerms.length; t++)
    if (tokenTerms[t]! >= terms) throw new SnapshotError('Index snapshot: a token names no term');
  return { vocabulary: { pool, starts, sorted: sortedTerms }, postings: { off, data, tokens, tokenStart } };
}
