/**
 * The state of one index and its upkeep on writes: records under dense internal ids, the inverted
 * index (`postings.ts`), facet columns (`columns.ts`), sort orders (`orders.ts`), the caches of
 * derived data, and the per-record scratch of one query.
 *
 * Internal ids are dense integers in insertion order; a replaced or deleted record leaves a dead id
 * behind (skipped through `alive`) until a lazy compaction re-indexes the live records. The reading
 * modules (`matching.ts`, `ranking.ts`, `facets.ts`, `hits.ts`, …) are functions of this state.
 */
import { Columns, type Column } from './columns.js';
import type { Derived } from './derive.js';
import type { DictionaryReader } from './standard-dictionaries.js';
import type { FilterNode } from './filters.js';
import { Orders, type SortOrder } from './orders.js';
import { Postings } from './postings.js';
import { languageList } from './query.js';
import { defaultSettings, type FacetSpec, type IndexSettings, type SearchableSpec, type SortSpec } from './settings.js';
import { NO_SYNONYMS } from './features.js';
import type { Expansion, Synonym } from './synonyms.js';

export type IndexRecord = Record<string, unknown> & { objectID: string };

/** Writes between two reads after which sorted structures are rebuilt lazily instead of maintained. */
export const BURST = 1000;

/**
 * @example
 * const state = new IndexState(new Dictionaries());
 * state.addRecord({ objectID: '1', name: 'Oak table' });
 * state.refresh(); // ready for a read
 */
export class IndexState {
  settings: IndexSettings = defaultSettings();
  searchable: SearchableSpec[] | null = null;
  dynamicRanks = new Map<string, number>();
  facetSpecs = new Map<string, FacetSpec>();
  customSpecs: SortSpec[] = [];

  records: Array<IndexRecord | undefined> = [];
  byObjectID = new Map<string, number>();
  alive = new Uint8Array(1024);
  liveCount = 0;
  deadCount = 0;
  capacity = 1024;

  postings = new Postings(1024);
  columns = new Columns();
  orders = new Orders();
  aliveBits: Uint32Array | null = null;
  needsReindex = false;
  version = 0;
  filterCache = new Map<string, { version: number; bits: Uint32Array | null; tree: FilterNode | null }>();
  deriveCache = new Map<string, { version: number; plurals: number; derived: Derived }>();
  /** Synonyms of the index as given, and the expansion map built from them once per change. */
  synonymList: Synonym[] = [];
  expansion: Expansion = NO_SYNONYMS;
  /** Placeholder name → records containing the token `<name>` in a searchable attribute (per `version`). */
  placeholderCache = new Map<string, { version: number; docs: Set<number> }>();
  /** Phrase or placeholder alternative → its postings (per records/settings `version`). */
  alternativeCache = new Map<string, { version: number; postings: Uint32Array }>();
  /** Term id → bits of the query words a span alternative's one word stands for (proximity; 0 outside a query). */
  spanBits = new Uint32Array(0);
  /** The current query has span alternatives (`spanBits` is set). */
  spansActive = false;

  // scratch of one query (search is synchronous, so one set per index is enough)
  /**
   * Per record, two words side by side (one cache line per record in the hot loop):
   * `generation << 16 | matched query words mask`, then `attributeKey | typos << 20 | exactWords << 26`.
   * A record's entry is only valid when its generation is the current query's, so nothing needs
   * resetting after a query.
   */
  match = new Uint32Array(2048);
  generation = 0;
  /** Records added since the last read (see {@link BURST}). */
  writesSinceRead = 0;
  touched = new Uint32Array(1024);
  touchedCount = 0;
  /** The current query touched every record holding any query word (else only those holding the required ones). */
  matchedAll = true;
  /** Per term: 1 + the derived range of a query word holding it, while matching on tokens (else 0). */
  termRange = new Uint16Array(1024);
  /** One bit per record: the matches of a one-word query counted on bits (`one-word.ts`). */
  oneWordBits = new Uint32Array(0);
  /** The candidates of the current query (a prefix of it; see `matching.ts`), `collected` of them for one word. */
  collected = 0;
  /** The candidates of the current query (a prefix of it; see `matching.ts`). */
  candidates = new Uint32Array(1024);
  /**
   * Per record, the posting keys of the two words of a two-word query (field and position), while
   * `wordKeysActive` (see `matching.ts` and `proximity`).
   */
  wordKeys = new Uint32Array(0);
  wordKeysActive = false;
  /** One record's tokens of query words while its proximity is measured (see `ranking.ts`). */
  proximityBits = new Uint32Array(64);
  proximityPos = new Uint32Array(64);
  proximitySpans = new Uint32Array(64);
  /** Ranking keys of one bucket-sort level (see `ranking.ts`). */
  keys = new Uint32Array(1024);
  termBits = new Uint32Array(1024);
  stamp = new Uint32Array(1024);
  geoDist = new Float64Array(1024);
  stampGen = 0;

  /** The language dictionaries (shared by every index of a service). */
  readonly dictionaries: DictionaryReader;
  /** The compound map the tokens were indexed with (re-indexed when the dictionaries give another). */
  indexCompounds: ReadonlyMap<string, readonly string[]>;

  constructor(dictionaries: DictionaryReader) {
    this.dictionaries = dictionaries;
    this.indexCompounds = this.dictionaries.compounds(this.indexLanguages());
  }

  /** Languages of the records: `indexLanguages`, else `queryLanguages`, else English. */
  indexLanguages(): string[] {
    const own = languageList(this.settings.indexLanguages);
    if (own.length) return own;
    const query = languageList(this.settings.queryLanguages);
    return query.length ? query : ['en'];
  }

  /** The searchable attributes of a record (all its attributes when none are set). */
  specsFor(record: IndexRecord): SearchableSpec[] {
    if (this.searchable) return this.searchable;
    const specs: SearchableSpec[] = [];
    for (const key of Object.keys(record)) {
      if (key === 'objectID' || key.startsWith('_')) continue;
      let rank = this.dynamicRanks.get(key);
      if (rank === undefined) {
        rank = this.dynamicRanks.size;
        this.dynamicRanks.set(key, rank);
      }
      specs.push({ path: [key], name: key, rank, unordered: false });
    }
    return specs;
  }

  /** The facet/numeric column of an attribute (built on first use). */
  column(attr: string): Column {
    return this.columns.get(attr, this.records, this.capacity);
  }

  /** The order of a sort criterion (`custom`, `asc(x)`, `desc(x)`), built on first use. */
  orderFor(key: string, specs: SortSpec[]): SortOrder {
    return this.orders.get(key, specs, this.records, this.alive, this.capacity);
  }

  /** The custom ranking's order. */
  customOrder(): SortOrder {
    return this.orderFor('custom', this.customSpecs);
  }

  resetData(): void {
    this.records = [];
    this.byObjectID.clear();
    this.capacity = 1024;
    this.alive = new Uint8Array(this.capacity);
    this.liveCount = 0;
    this.deadCount = 0;
    this.postings = new Postings(this.capacity);
    this.dynamicRanks.clear();
    this.columns.clear();
    this.orders.clear();
    this.aliveBits = null;
    this.filterCache.clear();
    this.deriveCache.clear();
    this.needsReindex = false;
    this.allocScratch();
  }

  private allocScratch(): void {
    const c = this.capacity;
    this.match = new Uint32Array(c * 2);
    this.generation = 0;
    this.touched = new Uint32Array(c);
    this.candidates = new Uint32Array(c);
    this.keys = new Uint32Array(c);
    this.stamp = new Uint32Array(c);
    this.stampGen = 0;
  }

  grow(min: number): void {
    let cap = this.capacity;
    while (cap < min) cap *= 2;
    if (cap === this.capacity) return;
    const a8 = new Uint8Array(cap);
    a8.set(this.alive);
    this.alive = a8;
    this.postings.grow(cap);
    this.columns.grow(cap);
    this.capacity = cap;
    this.allocScratch();
  }

  addRecord(record: IndexRecord): void {
    const id = this.records.length;
    if (id >= this.capacity) this.grow(id + 1);
    this.records.push(record);
    this.byObjectID.set(record.objectID, id);
    this.alive[id] = 1;
    this.liveCount++;
    if (!this.needsReindex) this.postings.indexRecord(id, record, this.specsFor(record), this.indexCompounds);
    // past a burst of writes between two reads, the facet values' alphabetical orders are dropped
    // (rebuilt on the next facet count) rather than maintained value by value
    this.columns.fill(id, record, this.writesSinceRead > BURST);
    this.writesSinceRead++;
    this.orders.add(id, record);
    if (this.aliveBits) {
      if (this.aliveBits.length <= id >>> 5) {
        const bits = new Uint32Array(Math.max(this.aliveBits.length * 2, (id >>> 5) + 1));
        bits.set(this.aliveBits);
        this.aliveBits = bits;
      }
      this.aliveBits[id >>> 5]! |= 1 << (id & 31);
    }
  }

  removeId(id: number): void {
    const r = this.records[id];
    if (!r) return;
    this.records[id] = undefined;
    this.byObjectID.delete(r.objectID);
    this.alive[id] = 0;
    this.liveCount--;
    this.deadCount++;
    if (this.aliveBits) this.aliveBits[id >>> 5]! &= ~(1 << (id & 31));
  }

  /** Re-indexes the live records from scratch (settings change, or too many dead ids). */
  private rebuild(): void {
    const live = this.records.filter((r): r is IndexRecord => r !== undefined);
    this.resetData();
    if (live.length > this.capacity) this.grow(live.length);
    for (const r of live) this.addRecord(r);
    this.version++;
  }

  /**
   * Brings every structure up to date with the writes: re-indexes when settings, dictionaries or
   * dead ids call for it, freezes the new postings into a segment, sorts the new terms into the
   * vocabulary, orders the new records, builds the columns of the declared facets and the custom
   * ranking's order. Run at the end of every write (so the next read finds nothing to do) and before
   * every read.
   */
  refresh(): void {
    this.writesSinceRead = 0;
    const compounds = this.dictionaries.compounds(this.indexLanguages());
    if (compounds !== this.indexCompounds) {
      // the compound dictionary (or the index languages) changed: the records' parts must be re-derived
      if (this.records.length > 0 && (compounds.size > 0 || this.indexCompounds.size > 0)) this.needsReindex = true;
      this.indexCompounds = compounds;
    }
    if (this.needsReindex || (this.deadCount > 5000 && this.deadCount > this.liveCount / 4)) this.rebuild();
    this.postings.freeze();
    this.postings.vocab.sortIfMany();
    for (const name of this.facetSpecs.keys()) this.column(name);
    if (this.customSpecs.length) this.customOrder();
    this.orders.flush();
    const vocabSize = this.postings.vocab.size;
    if (this.termBits.length < vocabSize) this.termBits = new Uint32Array(Math.max(vocabSize * 2, 1024));
  }

  bitWords(): number {
    return (this.records.length + 31) >>> 5;
  }

  /** The live records as a bit set (built on first use, then kept up to date on writes). */
  alivebits(): Uint32Array {
    if (this.aliveBits) return this.aliveBits;
    const bits = new Uint32Array(this.bitWords());
    for (let id = 0; id < this.records.length; id++) if (this.alive[id]) bits[id >>> 5]! |= 1 << (id & 31);
    this.aliveBits = bits;
    return bits;
  }
}
