/**
 * The service's index: the search path of `index-core.ts` and what only a server does with an index — settings
 * validated on write (400 naming the setting), deletes, delete by query (`matchingObjectIDs`), the synonyms read
 * back, and the snapshots of `snapshot.ts` (`structures`, `restore`). The public face of the engine
 * (`docs/CONTRACTS.md`, "Engine"); the browser worker of `svc-search/local` builds `IndexCore`s instead and
 * restores an `Index` only from a file that carries structures (the snapshot chunk).
 */
import type { DictionaryReader } from './standard-dictionaries.js';
import { EngineError, SnapshotError } from './errors.js';
import { asksForFilters, asksForGeo, feature } from './features.js';
import { IndexCore } from './index-core.js';
import type { IndexRecord, IndexState } from './index-state.js';
import { parseSearchParams, type SearchParams } from './params.js';
import type { IndexSettings } from './settings.js';
import type { SnapshotContents } from './snapshot.js';
import { postingsContents, restorePostings, restoreVocabulary, vocabularyContents } from './structures.js';
import type { Synonym } from './synonyms.js';

export type { IndexRecord } from './index-state.js';

/**
 * The settings that shape the built structures: which attributes are searchable and in which languages the
 * records are tokenized (everything else is read at query time). Structures built under another basis are refused.
 */
function basisOf(settings: IndexSettings): string {
  return JSON.stringify({
    searchableAttributes: settings.searchableAttributes ?? [],
    indexLanguages: settings.indexLanguages ?? [],
    queryLanguages: settings.queryLanguages ?? [],
  });
}

/**
 * Replaces an index's records and inverted index with `records` and the structures built from them elsewhere
 * (an index snapshot, `snapshot.ts`): no record is tokenized. The columns and orders are built by the next
 * `refresh`, as after a write.
 */
function restoreStructures(
  state: IndexState,
  records: IndexRecord[],
  contents: SnapshotContents,
  dynamicRanks: string[],
): void {
  state.resetData();
  if (records.length > state.capacity) state.grow(records.length);
  for (let id = 0; id < records.length; id++) {
    const record = records[id]!;
    if (state.byObjectID.has(record.objectID)) throw new SnapshotError('Index snapshot: an objectID twice');
    state.records.push(record);
    state.byObjectID.set(record.objectID, id);
    state.alive[id] = 1;
  }
  state.liveCount = records.length;
  state.postings = restorePostings(restoreVocabulary(contents.vocabulary), state.capacity, contents.postings);
  for (const [rank, name] of dynamicRanks.entries()) state.dynamicRanks.set(name, rank);
  state.version++;
}

/**
 * A search index of the service: holds records and answers searches like the hosted API does.
 * @example
 * const index = new Index('products');
 * index.setSettings({ searchableAttributes: ['name', 'brand'], customRanking: ['desc(popularity)'] });
 * index.saveObjects([{ objectID: '1', name: 'Wooden chair', brand: 'Acme', popularity: 3 }]);
 * index.search({ query: 'chai' }).hits[0]._highlightResult.name.value // '<em>Chai</em>r' inside 'Wooden …'
 */
export class Index extends IndexCore {
  /** Validates (400 naming the setting) and applies a partial settings object; `null` resets a setting. */
  setSettings(partial: Partial<IndexSettings> | Record<string, unknown>): void {
    this.applyValidSettings(feature('settingsValidation').validateSettings(partial));
  }

  /** The synonyms of the index (a copy). */
  getSynonyms(): Synonym[] {
    return structuredClone(this.state.synonymList);
  }

  deleteObjects(objectIDs: string[]): void {
    for (const id of objectIDs) {
      const internal = this.state.byObjectID.get(String(id));
      if (internal !== undefined) this.state.removeId(internal);
    }
    this.state.version++;
    this.settle();
  }

  /** Removes every record; settings stay. */
  clear(): void {
    this.state.resetData();
    this.state.version++;
  }

  *objects(): IterableIterator<IndexRecord> {
    for (const r of this.state.records) if (r) yield r;
  }

  // ---------------------------------------------------------------- snapshots

  /**
   * The index's built structures, numbered in the order of {@link objects} (what `toSnapshot` of `snapshot.ts`
   * writes): the settings they depend on, the record count, the ranks given to attributes, the vocabulary and the
   * postings. Merges the postings into one segment and drops deleted records first (a read sees no difference).
   * @example const { records, contents } = index.structures();
   */
  structures(): { basis: string; records: number; dynamicRanks: string[]; contents: SnapshotContents } {
    const state = this.state;
    if (state.deadCount > 0) state.needsReindex = true;
    state.refresh();
    const records = state.records.length;
    return {
      basis: basisOf(state.settings),
      records,
      dynamicRanks: [...state.dynamicRanks.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name),
      contents: {
        vocabulary: vocabularyContents(state.postings.vocab),
        postings: postingsContents(state.postings, records),
      },
    };
  }

  /**
   * An index of `records` with `settings` and `synonyms` over {@link structures} built elsewhere (`fromSnapshot`
   * of `snapshot.ts` decodes them from a file): no record is tokenized. Throws a `SnapshotError` when the settings
   * shape the structures differently from the `basis` they were built under. The settings are taken as valid
   * (`applyValidSettings`): the service's own, or a verified `.svcidx`'s.
   * @example const index = Index.restore('products', { settings, records, basis, dynamicRanks, contents });
   */
  static restore(
    name: string,
    input: {
      settings: Partial<IndexSettings>;
      synonyms?: readonly Synonym[];
      records: IndexRecord[];
      basis: string;
      dynamicRanks: string[];
      contents: SnapshotContents;
    },
    options: { dictionaries?: DictionaryReader } = {},
  ): Index {
    const index = new Index(name, options);
    index.beginBatch();
    try {
      index.applyValidSettings(input.settings);
      if (input.synonyms?.length) index.setSynonyms(input.synonyms);
      const state = index.state;
      if (basisOf(state.settings) !== input.basis)
        throw new SnapshotError('Index snapshot taken under other searchable attributes or languages');
      if (state.indexCompounds.size > 0)
        throw new SnapshotError('Index snapshot: the dictionaries split compound words, the snapshot did not');
      restoreStructures(state, input.records, input.contents, input.dynamicRanks);
    } finally {
      index.endBatch();
    }
    return index;
  }

  /**
   * The objectIDs of the records matching the filter and geo parameters, as a search with an empty query
   * would match them (for delete by query and secured-key restrictions). Throws 400 when neither a filter
   * nor a geo parameter is given.
   * @example index.matchingObjectIDs({ filters: 'category:Books', aroundLatLng: '48.85, 2.35', aroundRadius: 1000 })
   */
  matchingObjectIDs(input: SearchParams): string[] {
    const params = parseSearchParams(input as Record<string, unknown>);
    const state = this.state;
    state.refresh();
    const bits = asksForFilters(params) ? feature('filters').filterBits(state, params) : null;
    const geo = asksForGeo(params) ? feature('geo').parseGeo(params) : null;
    if (!bits && !geo)
      throw new EngineError(
        'No filter given: filters, facetFilters, numericFilters, tagFilters or a geo area is required',
      );
    let ids: Uint32Array;
    if (bits) {
      const found: number[] = [];
      for (let w = 0; w < bits.length; w++) {
        let b = bits[w]!;
        while (b) {
          const low = b & -b;
          found.push((w << 5) + 31 - Math.clz32(low));
          b ^= low;
        }
      }
      ids = Uint32Array.from(found);
    } else {
      const live: number[] = [];
      for (let id = 0; id < state.records.length; id++) if (state.alive[id]) live.push(id);
      ids = Uint32Array.from(live);
    }
    if (geo) {
      if (state.geoDist.length < state.capacity) state.geoDist = new Float64Array(state.capacity);
      ids = feature('geo').geoFilter(ids, geo, state.column('_geoloc.lat'), state.column('_geoloc.lng'), state.geoDist);
    }
    const out: string[] = [];
    for (const id of ids) {
      const r = state.records[id];
      if (r) out.push(r.objectID);
    }
    return out;
  }
}
