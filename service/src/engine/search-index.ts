/**
 * One index: records, the inverted index, facet columns, and search with tie-breaking ranking.
 *
 * Layout (see `docs/engine-background.md` and `docs/notes/engine.md` at the repository root):
 * - internal record ids are dense integers in insertion order; a replaced or deleted record leaves a
 *   dead id behind (skipped through `alive`) until a lazy compaction re-indexes the live records;
 * - postings are pairs `(id, attributeKey)` — the key is `rank × 1000 + position` of the term's best
 *   occurrence — frozen into one `Uint32Array` in sorted-vocabulary order, so a prefix's postings are
 *   one block; writes go to a small delta that the next read merges in by block copies;
 * - the tokens of every record (term id and field/position) sit in two shared typed arrays, read only
 *   for proximity, phrases and restricted attributes of candidate records;
 * - facet/numeric columns per attribute are built on first use and then kept up to date on writes;
 * - the custom ranking is one precomputed rank per record, kept up to date by binary insertion.
 */
import type { FacetStats, Hit, RankingInfo, SearchForFacetValuesResponse, SearchResponse } from 'svc-search/protocol';
import { EngineError } from './errors.js';
import { Dictionaries } from './dictionaries.js';
import { buildFilterTree, buildOptionalFilters, type FilterNode } from './filters.js';
import {
  highlightFacetValue,
  highlightValue,
  snippetValue,
  type HighlightOptions,
  type TokenMatch,
} from './highlight.js';
import { isNumericToken, normalizeText, tokenize } from './normalize.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { encodeSearchParams, parseSearchParams, type SearchParams } from './params.js';
import { personalizationFigures, type PersonalizationInput, type SearchOptions } from './personalization.js';
import {
  defaultSettings,
  parseFacets,
  parseSearchable,
  parseSort,
  validateSettings,
  validateSettingValue,
  type FacetSpec,
  type IndexSettings,
  type SearchableSpec,
  type SortSpec,
  type TypoTolerance,
} from './settings.js';
import { Vocabulary } from './vocabulary.js';
import { buildExpansion, type Alternative, type Expansion, type Synonym } from './synonyms.js';

export type IndexRecord = Record<string, unknown> & { objectID: string };

/** A facet/numeric column of one attribute. */
interface Column {
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

/** How a query word matched a term. */
enum Kind {
  Exact = 0,
  Prefix = 1,
  Plural = 2,
  Fuzzy = 3,
  FuzzyPrefix = 4,
}

interface Derived {
  word: string;
  prefix: boolean;
  /**
   * Ranges `[lo, hi)` of sorted-vocabulary positions to union (a prefix is one range, so its postings
   * are one contiguous block), sorted by typos then exactness.
   */
  lo: Uint32Array;
  hi: Uint32Array;
  typos: Uint8Array;
  exact: Uint8Array;
  plurals: Set<string>;
  fuzzy: Map<number, Kind>;
  /** One-word synonyms this word matches (highlighted like the word). */
  synonyms?: Set<string>;
}

/**
 * A synonym alternative that stands for one or more consecutive query words (one word with a phrase or
 * placeholder alternative, or an input of several words): a record holding it matches all of them.
 */
interface SpanMatch {
  /** Bits of the query words it stands for. */
  mask: number;
  alternative: Alternative;
  /** Postings `[id, attributeKey, …]` of the records holding the alternative (a phrase: where it starts). */
  postings: Uint32Array;
  /** Term ids of the alternative's words (marked with `mask` for proximity and restricted attributes). */
  terms: number[];
}

interface Effective {
  query: string;
  hitsPerPage: number;
  typoTolerance: TypoTolerance;
  min1: number;
  min2: number;
  /** Languages of `ignorePlurals` (null: off). */
  plurals: string[] | null;
  distinct: number;
  queryType: IndexSettings['queryType'];
  removeWords: IndexSettings['removeWordsIfNoResults'];
  optionalWords: Set<string>;
  preTag: string;
  postTag: string;
  ellipsis: string;
  attributesToRetrieve: string[];
  attributesToHighlight: string[] | null;
  attributesToSnippet: string[];
  getRankingInfo: boolean;
  advancedSyntax: boolean;
  /** Languages of `removeStopWords` (null: off). */
  removeStopWords: string[] | null;
  noTypoWords: Set<string>;
  /** Languages of the query (`queryLanguages`, else English). */
  queryLanguages: string[];
  /** Split compound words of the query (`decompoundQuery`). */
  decompoundQuery: boolean;
  /** Expand query words with the index's synonyms (`synonyms`, default true). */
  synonyms: boolean;
}

interface Execution {
  eff: Effective;
  words: string[];
  derived: Derived[];
  /** Synonym alternatives of several words or for several query words (empty without such synonyms). */
  spans: SpanMatch[];
  candidates: Uint32Array;
  /** Mask of words a record must match. */
  required: number;
  /** One bit set per `optionalFilters` entry (the `filters` criterion counts matches). */
  optional?: Uint32Array[];
  /** Geo search of the query (distances of the candidates are in `geoDist`). */
  geo?: GeoQuery;
  /** Personalised query: the record's profile score and the impact (`personalization.ts`). */
  personal?: { filtersScore: (doc: number) => number; impact: number };
}

interface GeoQuery {
  around: [number, number] | null;
  /** Metres, or null for no limit. */
  radius: number | null;
  /** Metres per step of the `geo` criterion. */
  precision: number;
  /** [latMin, lngMin, latMax, lngMax] */
  boxes: Array<[number, number, number, number]>;
  /** Flat [lat, lng, lat, lng, …] rings. */
  polygons: number[][];
}

const EARTH_RADIUS_M = 6371008.8;

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

function inBox(b: [number, number, number, number], lat: number, lng: number): boolean {
  return lat >= b[0] && lat <= b[2] && lng >= b[1] && lng <= b[3];
}

/** Ray casting on a flat [lat, lng, …] ring. */
function inPolygon(ring: number[], lat: number, lng: number): boolean {
  let inside = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = ring[2 * i]!;
    const xi = ring[2 * i + 1]!;
    const yj = ring[2 * j]!;
    const xj = ring[2 * j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** A list of number lists from a parameter: "a,b,c" / [a, b, c] / [[a, b, c], …] / its JSON text. */
function numberLists(name: string, value: unknown, size: (n: number) => boolean, expected: string): number[][] {
  let list: unknown = value;
  if (typeof list === 'string') {
    const t = list.trim();
    try {
      list = t.startsWith('[') ? JSON.parse(t) : [t.split(',').map((x) => Number(x.trim()))];
    } catch {
      geoError(name, expected);
    }
  }
  if (Array.isArray(list) && list.every((x) => typeof x === 'number')) list = [list];
  if (
    !Array.isArray(list) ||
    !list.every(
      (b) => Array.isArray(b) && size(b.length) && b.every((x) => typeof x === 'number' && Number.isFinite(x)),
    )
  ) {
    geoError(name, expected);
  }
  return list as number[][];
}

function geoError(name: string, expected: string): never {
  throw new EngineError(`Invalid value for parameter "${name}": expected ${expected}`);
}

/**
 * The geo parameters of a search: `aroundLatLng` ("lat, lng"), `aroundRadius` (metres or 'all'),
 * `aroundPrecision` (metres, default 10), `insideBoundingBox` ("lat1,lng1,lat2,lng2" or arrays of
 * four numbers), `insidePolygon` (lat, lng pairs, at least three). Records are located by `_geoloc` ({lat, lng} or an array of them).
 */
function parseGeo(params: SearchParams): GeoQuery | null {
  const around = params.aroundLatLng;
  const box = params.insideBoundingBox;
  const polygon = params.insidePolygon;
  const none = (v: unknown) => v === undefined || v === null || v === '';
  if (none(around) && none(box) && none(polygon)) return null;
  const geo: GeoQuery = { around: null, radius: null, precision: 10, boxes: [], polygons: [] };
  if (around !== undefined && around !== null && around !== '') {
    const parts = typeof around === 'string' ? around.split(',').map((x) => Number(x.trim())) : [];
    if (parts.length !== 2 || !parts.every(Number.isFinite) || Math.abs(parts[0]!) > 90 || Math.abs(parts[1]!) > 180)
      geoError('aroundLatLng', '"latitude, longitude"');
    geo.around = [parts[0]!, parts[1]!];
    const radius = params.aroundRadius;
    if (radius !== undefined && radius !== null && radius !== 'all') {
      const r = typeof radius === 'string' ? Number(radius) : radius;
      if (typeof r !== 'number' || !Number.isFinite(r) || r < 1)
        geoError('aroundRadius', "a number of metres (≥ 1) or 'all'");
      geo.radius = r;
    }
    const precision = params.aroundPrecision;
    if (precision !== undefined && precision !== null) {
      const p = typeof precision === 'string' ? Number(precision) : precision;
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 1)
        geoError('aroundPrecision', 'a number of metres (≥ 1)');
      geo.precision = p;
    }
  }
  if (box !== undefined && box !== null && box !== '') {
    for (const b of numberLists(
      'insideBoundingBox',
      box,
      (n) => n === 4,
      'boxes of four numbers (lat1, lng1, lat2, lng2)',
    )) {
      geo.boxes.push([Math.min(b[0]!, b[2]!), Math.min(b[1]!, b[3]!), Math.max(b[0]!, b[2]!), Math.max(b[1]!, b[3]!)]);
    }
  }
  if (polygon !== undefined && polygon !== null && polygon !== '') {
    geo.polygons = numberLists(
      'insidePolygon',
      polygon,
      (n) => n >= 6 && n % 2 === 0,
      'polygons of at least three lat, lng points',
    );
  }
  return geo;
}

interface OrderEntry {
  keys: Array<{ spec: SortSpec; numeric: Float64Array; other: string[] | null }>;
  rank: Uint32Array;
  /** Per id: the index of its distinct sort value (equal values share it, so later criteria break those ties). */
  group: Uint32Array;
  buffer: Uint32Array;
  length: number;
  /** `buffer` up to `length`. */
  order: Uint32Array;
}

interface Criterion {
  /** Smaller is better. */
  key?: (doc: number) => number;
  /** A total order over all records (custom ranking, asc/desc): rank array and the ordered live ids. */
  order?: { rank: Uint32Array; order: Uint32Array; group: Uint32Array };
}

/** At most 16 query words (one bit each, under a 16-bit query generation); 32 typos and 16 exact words fit the packed word. */
const MAX_WORDS = 16;
const ATTR_MASK = 0xfffff;
/** Writes between two reads after which sorted structures are rebuilt lazily instead of maintained. */
const BURST = 1000;
const GROUP_SORT_SHIFT = 2 ** 23;
/** Keys of the personalisation criterion: `PERSONAL_KEY_MAX − rankingScore` (smaller is better). */
const PERSONAL_KEY_MAX = 1_000_000;

function getValues(value: unknown, path: string[], i: number, out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (i === path.length) {
    if (Array.isArray(value)) for (const v of value) getValues(v, path, i, out);
    else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) getValues(v, path, i, out);
    return;
  }
  if (typeof value === 'object') getValues((value as Record<string, unknown>)[path[i]!], path, i + 1, out);
}

/** Deep copy of a JSON value (records come from JSON): much cheaper than structuredClone for small records. */
function cloneJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out;
}

function getPath(record: Record<string, unknown>, path: string[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let t = target;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    if (t[k] === undefined || typeof t[k] !== 'object' || t[k] === null) t[k] = {};
    t = t[k] as Record<string, unknown>;
  }
  t[path[path.length - 1]!] = value;
}

function deletePath(target: Record<string, unknown>, path: string[]): void {
  let t: unknown = target;
  for (let i = 0; i < path.length - 1; i++) {
    if (t === null || typeof t !== 'object') return;
    t = (t as Record<string, unknown>)[path[i]!];
  }
  if (t !== null && typeof t === 'object') delete (t as Record<string, unknown>)[path[path.length - 1]!];
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function sortKeyOf(record: IndexRecord | undefined, spec: SortSpec): unknown {
  if (!record) return undefined;
  const v = getPath(record, spec.path);
  if (Array.isArray(v)) return v.length ? v[0] : undefined;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return v;
}

interface ParsedQuery {
  words: string[];
  /** Per word: no prefix and no typos (words of a quoted phrase). */
  exactOnly: boolean[];
  /** Word indexes of each quoted phrase of two words or more. */
  phrases: number[][];
  /** Words whose records are excluded (`-word`). */
  excluded: string[];
}

/**
 * Splits the query into words; with `advancedSyntax`, `"a phrase"` must match as written (adjacent,
 * in order, no typos or prefix) and `-word` excludes the records containing the word.
 */
function parseQuery(query: string, advanced: boolean): ParsedQuery {
  if (!advanced) {
    const words = tokenize(query).slice(0, MAX_WORDS);
    return { words, exactOnly: words.map(() => false), phrases: [], excluded: [] };
  }
  const out: ParsedQuery = { words: [], exactOnly: [], phrases: [], excluded: [] };
  const re = /"([^"]*)(?:"|$)|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(query))) {
    if (m[1] !== undefined) {
      const idx = tokenize(m[1]).map((t) => {
        out.words.push(t);
        out.exactOnly.push(true);
        return out.words.length - 1;
      });
      if (idx.length > 1) out.phrases.push(idx);
    } else if (m[2]!.startsWith('-') && m[2]!.length > 1) {
      out.excluded.push(...tokenize(m[2]!.slice(1)));
    } else {
      for (const t of tokenize(m[2]!)) {
        out.words.push(t);
        out.exactOnly.push(false);
      }
    }
  }
  out.words = out.words.slice(0, MAX_WORDS);
  out.phrases = out.phrases.filter((p) => p.every((i) => i < MAX_WORDS));
  return out;
}

/**
 * Leaves stop words (the dictionaries' stop words of the query's languages) out of the query, unless
 * only stop words remain; phrase words stay, and so does a last word still being typed (it may be the
 * prefix of another word).
 */
function removeStopWords(parsed: ParsedQuery, lastIsPrefix: boolean, stopWords: ReadonlySet<string>): void {
  const n = parsed.words.length;
  const keep = parsed.words.map((w, i) => parsed.exactOnly[i] || !stopWords.has(w) || (lastIsPrefix && i === n - 1));
  if (!keep.some((k, i) => k && !stopWords.has(parsed.words[i]!))) return;
  const remap: number[] = [];
  const words: string[] = [];
  const exactOnly: boolean[] = [];
  parsed.words.forEach((w, i) => {
    remap.push(words.length);
    if (keep[i]) {
      words.push(w);
      exactOnly.push(parsed.exactOnly[i]!);
    }
  });
  parsed.phrases = parsed.phrases.map((p) => p.map((i) => remap[i]!));
  parsed.words = words;
  parsed.exactOnly = exactOnly;
}

/**
 * Splits the compound words of the query into their parts (custom compound entries); phrase words stay
 * whole. Records are indexed with the parts of their compound words too, so a split query still finds
 * the records that hold the compound.
 */
function decompoundQuery(parsed: ParsedQuery, compounds: ReadonlyMap<string, readonly string[]>): void {
  if (compounds.size === 0 || !parsed.words.some((w, i) => !parsed.exactOnly[i] && compounds.has(w))) return;
  const remap: number[] = [];
  const words: string[] = [];
  const exactOnly: boolean[] = [];
  parsed.words.forEach((w, i) => {
    remap.push(words.length);
    const parts = parsed.exactOnly[i] ? undefined : compounds.get(w);
    for (const part of parts ?? [w]) {
      words.push(part);
      exactOnly.push(parsed.exactOnly[i]!);
    }
  });
  parsed.phrases = parsed.phrases.map((p) => p.map((i) => remap[i]!)).filter((p) => p.every((i) => i < MAX_WORDS));
  parsed.words = words.slice(0, MAX_WORDS);
  parsed.exactOnly = exactOnly.slice(0, MAX_WORDS);
}

/** Lower-cased language codes of a setting or parameter. */
function languageList(value: unknown): string[] {
  return Array.isArray(value) ? [...new Set(value.map((v) => String(v).trim().toLowerCase()).filter(Boolean))] : [];
}

/**
 * The languages `ignorePlurals` / `removeStopWords` work in: the listed ones, or for `true` (and an
 * empty list) the query languages; null when off.
 */
function featureLanguages(value: boolean | string[], queryLanguages: string[]): string[] | null {
  if (value === false) return null;
  const listed = languageList(value);
  return listed.length > 0 ? listed : queryLanguages;
}

/**
 * A search index: holds records and answers searches like the hosted API does.
 * @example
 * const index = new Index('products');
 * index.setSettings({ searchableAttributes: ['name', 'brand'], customRanking: ['desc(popularity)'] });
 * index.saveObjects([{ objectID: '1', name: 'Wooden chair', brand: 'Acme', popularity: 3 }]);
 * index.search({ query: 'chai' }).hits[0]._highlightResult.name.value // '<em>Chai</em>r' inside 'Wooden …'
 */
export class Index {
  readonly name: string;
  private settings: IndexSettings = defaultSettings();
  private searchable: SearchableSpec[] | null = null;
  private dynamicRanks = new Map<string, number>();
  private facetSpecs = new Map<string, FacetSpec>();
  private customSpecs: SortSpec[] = [];

  private records: Array<IndexRecord | undefined> = [];
  private byObjectID = new Map<string, number>();
  private alive = new Uint8Array(1024);
  private liveCount = 0;
  private deadCount = 0;
  private capacity = 1024;

  private vocab = new Vocabulary();
  /** Postings added since the last freeze, per term id: `[id, attributeKey, …]`. */
  private delta = new Map<number, number[]>();
  /**
   * Frozen postings, pairs `(id, attributeKey)` laid out in sorted-vocabulary order, so the postings of
   * a prefix are one contiguous block; `frozenOff[p]` is where the term at sorted position p starts.
   */
  private frozenData = new Uint32Array(0);
  private frozenOff = new Uint32Array(1);
  /** term id → its sorted position in the frozen layout (-1 if not in it). */
  private frozenPosOf = new Int32Array(0);
  private tokTerms = new Uint32Array(4096);
  private tokPos = new Uint32Array(4096);
  private tokUsed = 0;
  private docTokStart = new Uint32Array(1024);
  private docTokCount = new Uint32Array(1024);

  private columns = new Map<string, Column>();
  private orders = new Map<string, OrderEntry>();
  private aliveBits: Uint32Array | null = null;
  private needsReindex = false;
  private version = 0;
  private filterCache = new Map<string, { version: number; bits: Uint32Array | null; tree: FilterNode | null }>();
  private deriveCache = new Map<string, { version: number; plurals: number; derived: Derived }>();
  /** Synonyms of the index as given, and the expansion map built from them once per change. */
  private synonymList: Synonym[] = [];
  private expansion: Expansion = buildExpansion([]);
  /** Placeholder name → records containing the token `<name>` in a searchable attribute (per `version`). */
  private placeholderCache = new Map<string, { version: number; docs: Set<number> }>();
  /** Phrase or placeholder alternative → its postings (per records/settings `version`). */
  private alternativeCache = new Map<string, { version: number; postings: Uint32Array }>();
  /** Term id → bits of the query words a span alternative's one word stands for (proximity; 0 outside a query). */
  private spanBits = new Uint32Array(0);
  /** The current query has span alternatives (`spanBits` is set). */
  private spansActive = false;

  // scratch of one query (search is synchronous, so one set per index is enough)
  /**
   * Per record, two words side by side (one cache line per record in the hot loop):
   * `generation << 16 | matched query words mask`, then `attributeKey | typos << 20 | exactWords << 26`.
   * A record's entry is only valid when its generation is the current query's, so nothing needs
   * resetting after a query.
   */
  private match = new Uint32Array(2048);
  private generation = 0;
  /** Records added since the last read (see {@link BURST}). */
  private writesSinceRead = 0;
  private touched = new Uint32Array(1024);
  private touchedCount = 0;
  private termBits = new Uint32Array(1024);
  private stamp = new Uint32Array(1024);
  private geoDist = new Float64Array(1024);
  private stampGen = 0;

  /** The language dictionaries (shared by every index of a service). */
  private readonly dictionaries: Dictionaries;
  /** The compound map the tokens were indexed with (re-indexed when the dictionaries give another). */
  private indexCompounds: ReadonlyMap<string, readonly string[]>;

  /**
   * @param options.dictionaries the service's language dictionaries (custom stop words, plurals,
   *   compounds); default: the standard entries only.
   */
  constructor(name: string, options: { dictionaries?: Dictionaries } = {}) {
    this.name = name;
    this.dictionaries = options.dictionaries ?? new Dictionaries();
    this.indexCompounds = this.dictionaries.compounds(this.indexLanguages());
  }

  /** Languages of the records: `indexLanguages`, else `queryLanguages`, else English. */
  private indexLanguages(): string[] {
    const own = languageList(this.settings.indexLanguages);
    if (own.length) return own;
    const query = languageList(this.settings.queryLanguages);
    return query.length ? query : ['en'];
  }

  /** Number of records. */
  get size(): number {
    return this.liveCount;
  }

  // ---------------------------------------------------------------- settings

  /** The full settings, defaults included (a copy). */
  getSettings(): IndexSettings {
    return structuredClone(this.settings);
  }

  /** Validates (400 naming the setting) and applies a partial settings object; `null` resets a setting. */
  setSettings(partial: Partial<IndexSettings> | Record<string, unknown>): void {
    const valid = validateSettings(partial);
    const defaults = defaultSettings();
    const before = this.settings;
    const next: IndexSettings = { ...before };
    for (const [key, value] of Object.entries(valid)) {
      if (value === null && key !== 'attributesToHighlight' && key !== 'attributeForDistinct') {
        if (Object.hasOwn(defaults, key)) next[key] = structuredClone(defaults[key]);
        else delete next[key];
      } else
        Object.defineProperty(next, key, {
          value: structuredClone(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    this.settings = next;
    if (JSON.stringify(before.searchableAttributes) !== JSON.stringify(next.searchableAttributes)) {
      if (this.records.length > 0) this.needsReindex = true;
      else this.dynamicRanks.clear();
    }
    this.applyDerivedSettings();
    this.columns.clear();
    this.orders.clear();
    this.filterCache.clear();
    this.version++;
  }

  private applyDerivedSettings(): void {
    const s = this.settings;
    this.searchable = s.searchableAttributes.length ? parseSearchable(s.searchableAttributes) : null;
    this.facetSpecs = parseFacets(s.attributesForFaceting);
    this.customSpecs = s.customRanking.map((c) => parseSort(c)!).filter(Boolean);
  }

  // ---------------------------------------------------------------- synonyms

  /** Replaces the synonyms of the index (the service validates them); rebuilds the expansion map. */
  setSynonyms(synonyms: readonly Synonym[]): void {
    this.synonymList = structuredClone([...synonyms]);
    this.expansion = buildExpansion(this.synonymList);
    this.deriveCache.clear();
    this.placeholderCache.clear();
    this.alternativeCache.clear();
  }

  /** The synonyms of the index (a copy). */
  getSynonyms(): Synonym[] {
    return structuredClone(this.synonymList);
  }

  /** Records with the token `<name>` in a searchable attribute (scanned once per records/settings version). */
  private placeholderDocs(name: string): Set<number> {
    const cached = this.placeholderCache.get(name);
    if (cached && cached.version === this.version) return cached.docs;
    const docs = new Set<number>();
    const re = new RegExp(`<\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*>`, 'i');
    const strings: unknown[] = [];
    for (let id = 0; id < this.records.length; id++) {
      const record = this.records[id];
      if (!record || !this.alive[id]) continue;
      for (const spec of this.specsFor(record)) {
        strings.length = 0;
        getValues(record, spec.path, 0, strings);
        if (strings.some((v) => typeof v === 'string' && re.test(v))) {
          docs.add(id);
          break;
        }
      }
    }
    this.placeholderCache.set(name, { version: this.version, docs });
    return docs;
  }

  /**
   * The span alternatives of a query: for each run of consecutive complete query words that is the
   * input of a rule (one word with phrase or placeholder alternatives, or several words), each
   * alternative with its postings. Quoted words (advanced syntax) take no synonyms; the last word
   * counts only when typed in full (it equals the input's word: a prefix being typed expands nothing).
   */
  private spanMatches(parsed: ParsedQuery, eff: Effective): SpanMatch[] {
    const out: SpanMatch[] = [];
    if (!eff.synonyms || this.expansion.spans.size === 0) return out;
    const words = parsed.words;
    for (let i = 0; i < words.length; i++) {
      const rules = parsed.exactOnly[i] ? undefined : this.expansion.spans.get(words[i]!);
      if (!rules) continue;
      for (const rule of rules) {
        const len = rule.input.length;
        if (i + len > words.length) continue;
        let ok = true;
        for (let k = 1; k < len && ok; k++) ok = words[i + k] === rule.input[k] && !parsed.exactOnly[i + k];
        if (!ok) continue;
        const mask = ((1 << len) - 1) << i;
        for (const alternative of rule.alternatives) {
          const terms: number[] = [];
          for (const w of alternative.words) {
            const term = this.vocab.id(w);
            if (term !== undefined) terms.push(term);
          }
          if (terms.length < alternative.words.length) continue;
          const postings = this.alternativePostings(alternative, terms);
          if (postings.length) out.push({ mask, alternative, postings, terms });
        }
      }
    }
    return out;
  }

  /**
   * Postings `[id, attributeKey, …]` of an alternative: a word's own postings; for a placeholder, the
   * postings of `name` in the records holding `<name>`; for a phrase, the records holding its words
   * next to each other, in order, in one attribute, with the attribute key of the phrase's best start.
   * Phrases and placeholders are cached per records/settings version.
   */
  private alternativePostings(alternative: Alternative, terms: number[]): Uint32Array {
    const data = this.frozenData;
    const off = this.frozenOff;
    if (!alternative.placeholder && terms.length === 1) {
      const p = this.vocab.positionOf(terms[0]!);
      return data.subarray(off[p]!, off[p + 1]!);
    }
    const key = (alternative.placeholder ? '<' : ' ') + alternative.words.join(' ');
    const cached = this.alternativeCache.get(key);
    if (cached && cached.version === this.version) return cached.postings;
    const out: number[] = [];
    if (alternative.placeholder) {
      const docs = this.placeholderDocs(alternative.words[0]!);
      const p = this.vocab.positionOf(terms[0]!);
      for (let j = off[p]!; j < off[p + 1]!; j += 2) if (docs.has(data[j]!)) out.push(data[j]!, data[j + 1]!);
    } else {
      // records holding every word of the phrase (a stamp per word), then their positions checked
      const stamp = this.stamp;
      let gen = 0;
      for (let k = 0; k < terms.length; k++) {
        const prev = gen;
        gen = ++this.stampGen;
        const p = this.vocab.positionOf(terms[k]!);
        for (let j = off[p]!; j < off[p + 1]!; j += 2) {
          const doc = data[j]!;
          if (k === 0 || stamp[doc] === prev) stamp[doc] = gen;
        }
      }
      const last = this.vocab.positionOf(terms[terms.length - 1]!);
      for (let j = off[last]!; j < off[last + 1]!; j += 2) {
        const doc = data[j]!;
        if (stamp[doc] !== gen || !this.alive[doc]) continue;
        const best = this.phraseKey(doc, terms);
        if (best >= 0) out.push(doc, best);
      }
    }
    const postings = Uint32Array.from(out);
    this.alternativeCache.set(key, { version: this.version, postings });
    return postings;
  }

  /** Attribute key of the best place where the record holds the terms next to each other, in order (-1: nowhere). */
  private phraseKey(doc: number, terms: number[]): number {
    const start = this.docTokStart[doc]!;
    const end = start + this.docTokCount[doc]!;
    const tokTerms = this.tokTerms;
    const pos = this.tokPos;
    let best = -1;
    let specs: SearchableSpec[] | null = null;
    // positions never decrease along a record's tokens; the parts of a compound word share its position
    for (let a = start; a < end; a++) {
      if (tokTerms[a] !== terms[0]) continue;
      let ok = true;
      let b = a + 1;
      for (let k = 1; k < terms.length && ok; k++) {
        const want = pos[a]! + k;
        while (b < end && pos[b]! < want) b++;
        ok = false;
        for (let t = b; t < end && pos[t]! === want; t++) {
          if (tokTerms[t] === terms[k]) {
            ok = true;
            break;
          }
        }
      }
      if (!ok) continue;
      specs ??= this.searchable ?? this.specsFor(this.records[doc]!);
      const spec = specs[pos[a]! >>> 16];
      if (!spec) continue;
      const key = Math.min(spec.rank * 1000 + (spec.unordered ? 0 : Math.min(pos[a]! & 0xffff, 999)), ATTR_MASK - 1);
      if (best < 0 || key < best) best = key;
    }
    return best;
  }

  // ---------------------------------------------------------------- records

  /** Adds or replaces whole records (validated: an object with a string objectID each). */
  saveObjects(records: Array<Record<string, unknown> & { objectID: string }>): void {
    if (!Array.isArray(records)) throw new EngineError('Invalid records: expected an array');
    for (const r of records) {
      if (r === null || typeof r !== 'object' || Array.isArray(r))
        throw new EngineError('Invalid record: expected a JSON object');
      if (typeof r.objectID !== 'string' || r.objectID === '')
        throw new EngineError('Invalid record: objectID must be a non-empty string');
    }
    for (const r of records) {
      const old = this.byObjectID.get(r.objectID);
      if (old !== undefined) this.removeId(old);
      this.addRecord(r as IndexRecord);
    }
    this.version++;
  }

  deleteObjects(objectIDs: string[]): void {
    for (const id of objectIDs) {
      const internal = this.byObjectID.get(String(id));
      if (internal !== undefined) this.removeId(internal);
    }
    this.version++;
  }

  /** Removes every record; settings stay. */
  clear(): void {
    this.resetData();
    this.version++;
  }

  getObject(objectID: string): IndexRecord | undefined {
    const id = this.byObjectID.get(objectID);
    return id === undefined ? undefined : this.records[id];
  }

  *objects(): IterableIterator<IndexRecord> {
    for (const r of this.records) if (r) yield r;
  }

  private resetData(): void {
    this.records = [];
    this.byObjectID.clear();
    this.capacity = 1024;
    this.alive = new Uint8Array(this.capacity);
    this.liveCount = 0;
    this.deadCount = 0;
    this.vocab = new Vocabulary();
    this.delta = new Map();
    this.frozenData = new Uint32Array(0);
    this.frozenOff = new Uint32Array(1);
    this.frozenPosOf = new Int32Array(0);
    this.tokTerms = new Uint32Array(4096);
    this.tokPos = new Uint32Array(4096);
    this.tokUsed = 0;
    this.docTokStart = new Uint32Array(this.capacity);
    this.docTokCount = new Uint32Array(this.capacity);
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
    this.stamp = new Uint32Array(c);
    this.stampGen = 0;
  }

  private grow(min: number): void {
    let cap = this.capacity;
    while (cap < min) cap *= 2;
    if (cap === this.capacity) return;
    const grow32 = (a: Uint32Array) => {
      const b = new Uint32Array(cap);
      b.set(a);
      return b;
    };
    const a8 = new Uint8Array(cap);
    a8.set(this.alive);
    this.alive = a8;
    this.docTokStart = grow32(this.docTokStart);
    this.docTokCount = grow32(this.docTokCount);
    for (const col of this.columns.values()) {
      const s = new Int32Array(cap).fill(-1);
      s.set(col.single);
      col.single = s;
      const n = new Float64Array(cap).fill(NaN);
      n.set(col.num);
      col.num = n;
    }
    this.capacity = cap;
    this.allocScratch();
  }

  private addRecord(record: IndexRecord): void {
    const id = this.records.length;
    if (id >= this.capacity) this.grow(id + 1);
    this.records.push(record);
    this.byObjectID.set(record.objectID, id);
    this.alive[id] = 1;
    this.liveCount++;
    if (!this.needsReindex) this.indexTokens(id, record);
    for (const [attr, col] of this.columns) this.fillColumn(col, attr, id, record);
    // incremental upkeep of the sorted structures pays O(n) per record: past a burst of writes
    // between two reads, dropping them for a lazy O(n log n) rebuild is cheaper
    this.writesSinceRead++;
    if (this.orders.size) {
      if (this.writesSinceRead > BURST) this.orders.clear();
      else this.insertIntoOrders(id);
    }
    this.aliveBits = null;
  }

  private removeId(id: number): void {
    const r = this.records[id];
    if (!r) return;
    this.records[id] = undefined;
    this.byObjectID.delete(r.objectID);
    this.alive[id] = 0;
    this.liveCount--;
    this.deadCount++;
    this.aliveBits = null;
  }

  /** The searchable attributes of a record (all its attributes when none are set). */
  private specsFor(record: IndexRecord): SearchableSpec[] {
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

  private indexTokens(id: number, record: IndexRecord): void {
    const specs = this.specsFor(record);
    const best = new Map<number, number>();
    const start = this.tokUsed;
    let field = 0;
    const strings: unknown[] = [];
    const compounds = this.indexCompounds;
    for (const spec of specs) {
      strings.length = 0;
      getValues(getPath(record, spec.path), [], 0, strings);
      if (strings.length === 0) {
        field++;
        continue;
      }
      let pos = 0;
      for (const v of strings) {
        if (typeof v !== 'string' && typeof v !== 'number') continue;
        const toks = tokenize(String(v));
        for (const tok of toks) {
          const key = Math.min(spec.rank * 1000 + (spec.unordered ? 0 : Math.min(pos, 999)), ATTR_MASK - 1);
          // a compound word is indexed with its parts too, at the same position (custom compound entries)
          const parts = compounds.size ? compounds.get(tok) : undefined;
          for (const word of parts ? [tok, ...parts] : [tok]) {
            const term = this.vocab.add(word.length > 64 ? word.slice(0, 64) : word);
            const prev = best.get(term);
            if (prev === undefined || key < prev) best.set(term, key);
            if (this.tokUsed >= this.tokTerms.length) {
              const t = new Uint32Array(this.tokTerms.length * 2);
              t.set(this.tokTerms);
              this.tokTerms = t;
              const p = new Uint32Array(this.tokPos.length * 2);
              p.set(this.tokPos);
              this.tokPos = p;
            }
            this.tokTerms[this.tokUsed] = term;
            this.tokPos[this.tokUsed] = (field << 16) | Math.min(pos, 0xffff);
            this.tokUsed++;
          }
          pos++;
        }
        pos += 8; // array elements are not adjacent for proximity
      }
      field++;
    }
    this.docTokStart[id] = start;
    this.docTokCount[id] = this.tokUsed - start;
    for (const [term, key] of best) {
      const list = this.delta.get(term);
      if (list) list.push(id, key);
      else this.delta.set(term, [id, key]);
    }
  }

  /** Re-indexes the live records from scratch (settings change, or too many dead ids). */
  private rebuild(): void {
    const live = this.records.filter((r): r is IndexRecord => r !== undefined);
    this.resetData();
    if (live.length > this.capacity) this.grow(live.length);
    for (const r of live) this.addRecord(r);
    this.version++;
  }

  /** Lazy maintenance before a read. */
  private refresh(): void {
    this.writesSinceRead = 0;
    const compounds = this.dictionaries.compounds(this.indexLanguages());
    if (compounds !== this.indexCompounds) {
      // the compound dictionary (or the index languages) changed: the records' parts must be re-derived
      if (this.records.length > 0 && (compounds.size > 0 || this.indexCompounds.size > 0)) this.needsReindex = true;
      this.indexCompounds = compounds;
    }
    if (this.needsReindex || (this.deadCount > 5000 && this.deadCount > this.liveCount / 4)) this.rebuild();
    this.freeze();
    if (this.termBits.length < this.vocab.size) this.termBits = new Uint32Array(Math.max(this.vocab.size * 2, 1024));
  }

  /**
   * Merges the postings added since the last read into the frozen layout (new terms take their
   * sorted place). Runs of terms without new postings are copied as blocks, so a single write costs
   * a memory copy of the postings on the next read, not a re-index.
   */
  private freeze(): void {
    if (this.delta.size === 0) return;
    const vocab = this.vocab;
    vocab.ensureSorted();
    const order = vocab.sortedTermIds;
    const n = order.length;
    const oldData = this.frozenData;
    const oldOff = this.frozenOff;
    const oldPos = this.frozenPosOf;
    let total = oldData.length;
    const hasDelta = new Uint8Array(vocab.size);
    for (const [term, list] of this.delta) {
      total += list.length;
      hasDelta[term] = 1;
    }
    const data = new Uint32Array(total);
    const off = new Uint32Array(n + 1);
    const posOf = new Int32Array(vocab.size);
    const prevPos = (t: number) => (t < oldPos.length ? oldPos[t]! : -1);
    let out = 0;
    let p = 0;
    while (p < n) {
      const t = order[p]!;
      const op = prevPos(t);
      if (op >= 0 && !hasDelta[t]) {
        let q = p;
        let last = op;
        while (q + 1 < n) {
          const t2 = order[q + 1]!;
          if (hasDelta[t2] || prevPos(t2) !== last + 1) break;
          last++;
          q++;
        }
        const s0 = oldOff[op]!;
        const s1 = oldOff[last + 1]!;
        data.set(oldData.subarray(s0, s1), out);
        for (let r = p; r <= q; r++) {
          off[r] = out + (oldOff[op + (r - p)]! - s0);
          posOf[order[r]!] = r;
        }
        out += s1 - s0;
        p = q + 1;
        continue;
      }
      off[p] = out;
      posOf[t] = p;
      if (op >= 0) {
        const s0 = oldOff[op]!;
        const s1 = oldOff[op + 1]!;
        data.set(oldData.subarray(s0, s1), out);
        out += s1 - s0;
      }
      const list = this.delta.get(t);
      if (list) {
        data.set(list, out);
        out += list.length;
      }
      p++;
    }
    off[n] = out;
    this.frozenData = data;
    this.frozenOff = off;
    this.frozenPosOf = posOf;
    this.delta.clear();
  }

  // ---------------------------------------------------------------- columns and orders

  private column(attr: string): Column {
    let col = this.columns.get(attr);
    if (col) return col;
    col = {
      values: [],
      ids: new Map(),
      lower: new Map(),
      single: new Int32Array(this.capacity).fill(-1),
      multi: new Map(),
      num: new Float64Array(this.capacity).fill(NaN),
      numMulti: new Map(),
      hasNum: false,
    };
    for (let id = 0; id < this.records.length; id++) {
      const r = this.records[id];
      if (r) this.fillColumn(col, attr, id, r);
    }
    this.columns.set(attr, col);
    return col;
  }

  private fillColumn(col: Column, attr: string, id: number, record: IndexRecord): void {
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
          if (this.writesSinceRead > BURST) col.alpha = undefined;
          else this.insertAlpha(col, vid);
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

  /** The sort key of one record under one spec: oriented number, other value, or missing. */
  private setSortKey(entry: OrderEntry, id: number): void {
    const record = this.records[id];
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

  private compareIds(entry: OrderEntry, a: number, b: number): number {
    return this.compareKeys(entry, a, b) || a - b;
  }

  /** Compares two records by the sort values only (0 when they tie). */
  private compareKeys(entry: OrderEntry, a: number, b: number): number {
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

  /**
   * A total order over the records by sort specs (then by insertion): rank per id and the ordered
   * ids. Built once, then kept up to date by binary insertion on writes (deleted ids stay in it and
   * are skipped by the readers, which only ever look at live candidates).
   */
  private orderFor(key: string, specs: SortSpec[]): OrderEntry {
    const cached = this.orders.get(key);
    if (cached) return cached;
    const ids: number[] = [];
    for (let id = 0; id < this.records.length; id++) if (this.alive[id]) ids.push(id);
    const entry: OrderEntry = {
      keys: specs.map((spec) => ({ spec, numeric: new Float64Array(this.capacity), other: null })),
      rank: new Uint32Array(this.capacity).fill(0xffffffff),
      group: new Uint32Array(this.capacity),
      buffer: new Uint32Array(Math.max(16, ids.length * 2)),
      length: ids.length,
      order: new Uint32Array(0),
    };
    if (specs.length) {
      for (const id of ids) this.setSortKey(entry, id);
      ids.sort((a, b) => this.compareIds(entry, a, b));
    }
    entry.buffer.set(ids);
    entry.order = entry.buffer.subarray(0, entry.length);
    for (let i = 0; i < ids.length; i++) {
      entry.rank[ids[i]!] = i;
      if (i > 0)
        entry.group[ids[i]!] =
          entry.group[ids[i - 1]!]! + (this.compareKeys(entry, ids[i - 1]!, ids[i]!) === 0 ? 0 : 1);
    }
    this.orders.set(key, entry);
    return entry;
  }

  /** Inserts a new record into every built order (binary search, then a typed-array shift). */
  private insertIntoOrders(id: number): void {
    for (const [key, entry] of this.orders) {
      if (id >= entry.rank.length) {
        this.orders.delete(key);
        continue;
      }
      let pos = entry.length;
      if (entry.keys.length) {
        this.setSortKey(entry, id);
        let lo = 0;
        let hi = entry.length;
        const order = entry.buffer;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (this.compareIds(entry, order[mid]!, id) < 0) lo = mid + 1;
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
      if (pos > 0 && this.compareKeys(entry, buf[pos - 1]!, id) === 0) own = group[buf[pos - 1]!]!;
      else if (pos < entry.length && this.compareKeys(entry, id, buf[pos]!) === 0) own = group[buf[pos]!]!;
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

  private customOrder(): OrderEntry {
    return this.orderFor('custom', this.customSpecs);
  }

  // ---------------------------------------------------------------- filters

  private bitWords(): number {
    return (this.records.length + 31) >>> 5;
  }

  private alivebits(): Uint32Array {
    if (this.aliveBits) return this.aliveBits;
    const bits = new Uint32Array(this.bitWords());
    for (let id = 0; id < this.records.length; id++) if (this.alive[id]) bits[id >>> 5]! |= 1 << (id & 31);
    this.aliveBits = bits;
    return bits;
  }

  /** The records passing every filter parameter, as a bit set (null: no filter). Cached per filter. */
  private filterBits(params: SearchParams): Uint32Array | null {
    const key = JSON.stringify([
      params.filters ?? null,
      params.facetFilters ?? null,
      params.numericFilters ?? null,
      params.tagFilters ?? null,
    ]);
    if (key === '[null,null,null,null]') return null;
    const cached = this.filterCache.get(key);
    if (cached && cached.version === this.version) return cached.bits;
    const tree = cached ? cached.tree : buildFilterTree(params);
    const bits = tree ? this.evaluate(tree) : null;
    if (bits) {
      const alive = this.alivebits();
      for (let i = 0; i < bits.length; i++) bits[i]! &= alive[i]!;
    }
    if (this.filterCache.size > 64) this.filterCache.delete(this.filterCache.keys().next().value!);
    this.filterCache.set(key, { version: this.version, bits, tree });
    return bits;
  }

  private evaluate(node: FilterNode): Uint32Array {
    const words = this.bitWords();
    const n = this.records.length;
    switch (node.type) {
      case 'and': {
        const acc = this.evaluate(node.children[0]!);
        for (let c = 1; c < node.children.length; c++) {
          const b = this.evaluate(node.children[c]!);
          for (let i = 0; i < words; i++) acc[i]! &= b[i]!;
        }
        return acc;
      }
      case 'or': {
        const acc = this.evaluate(node.children[0]!);
        for (let c = 1; c < node.children.length; c++) {
          const b = this.evaluate(node.children[c]!);
          for (let i = 0; i < words; i++) acc[i]! |= b[i]!;
        }
        return acc;
      }
      case 'not': {
        const b = this.evaluate(node.child);
        const alive = this.alivebits();
        for (let i = 0; i < words; i++) b[i] = ~b[i]! & alive[i]!;
        return b;
      }
      case 'facet': {
        const col = this.column(node.attribute);
        const bits = new Uint32Array(words);
        const flags = new Uint8Array(col.values.length);
        let any = false;
        for (const vid of col.lower.get(node.value.toLowerCase()) ?? []) {
          flags[vid] = 1;
          any = true;
        }
        const asNumber = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(node.value.trim()) ? Number(node.value) : NaN;
        const numeric = col.hasNum && !Number.isNaN(asNumber);
        if (!any && !numeric) return bits;
        for (let id = 0; id < n; id++) {
          let hit = false;
          const s = col.single[id]!;
          if (s >= 0) hit = flags[s] === 1;
          else if (s === -2) hit = col.multi.get(id)!.some((v) => flags[v] === 1);
          if (!hit && numeric) {
            const v = col.num[id]!;
            hit = v === asNumber || (col.numMulti.get(id)?.includes(asNumber) ?? false);
          }
          if (hit) bits[id >>> 5]! |= 1 << (id & 31);
        }
        return bits;
      }
      case 'numeric':
      case 'range': {
        const col = this.column(node.attribute);
        const bits = new Uint32Array(words);
        if (!col.hasNum) return bits;
        let test: (v: number) => boolean;
        if (node.type === 'range') {
          const { from, to } = node;
          test = (v) => v >= from && v <= to;
        } else {
          const x = node.value;
          test = {
            '<': (v: number) => v < x,
            '<=': (v: number) => v <= x,
            '=': (v: number) => v === x,
            '!=': (v: number) => v !== x,
            '>=': (v: number) => v >= x,
            '>': (v: number) => v > x,
          }[node.op];
        }
        const hasMulti = col.numMulti.size > 0;
        for (let id = 0; id < n; id++) {
          const v = col.num[id]!;
          if (v !== v) continue;
          const many = hasMulti ? col.numMulti.get(id) : undefined;
          if (many ? many.some(test) : test(v)) bits[id >>> 5]! |= 1 << (id & 31);
        }
        return bits;
      }
    }
  }

  // ---------------------------------------------------------------- query preparation

  private effective(params: SearchParams): Effective {
    const s = this.settings;
    const pick = <T>(name: string, fallback: T): T => {
      const v = params[name];
      return v === undefined || v === null ? fallback : (validateSettingValue(name, v) as T);
    };
    const plurals = pick<boolean | string[]>('ignorePlurals', s.ignorePlurals);
    const ownLanguages = languageList(pick<string[]>('queryLanguages', s.queryLanguages));
    const queryLanguages = ownLanguages.length ? ownLanguages : ['en'];
    const distinct = pick<boolean | number>('distinct', s.distinct);
    const optional = pick<string[]>('optionalWords', s.optionalWords);
    return {
      query: typeof params.query === 'string' ? params.query : '',
      hitsPerPage: pick('hitsPerPage', s.hitsPerPage),
      typoTolerance: pick('typoTolerance', s.typoTolerance),
      min1: pick('minWordSizefor1Typo', s.minWordSizefor1Typo),
      min2: pick('minWordSizefor2Typos', s.minWordSizefor2Typos),
      plurals: featureLanguages(plurals, queryLanguages),
      distinct: distinct === true ? 1 : distinct === false ? 0 : distinct,
      queryType: pick('queryType', s.queryType),
      removeWords: pick('removeWordsIfNoResults', s.removeWordsIfNoResults),
      optionalWords: new Set(optional.flatMap((w) => tokenize(w))),
      preTag: pick('highlightPreTag', s.highlightPreTag),
      postTag: pick('highlightPostTag', s.highlightPostTag),
      ellipsis: pick('snippetEllipsisText', s.snippetEllipsisText),
      attributesToRetrieve: pick('attributesToRetrieve', s.attributesToRetrieve),
      attributesToHighlight: pick('attributesToHighlight', s.attributesToHighlight),
      attributesToSnippet: pick('attributesToSnippet', s.attributesToSnippet),
      getRankingInfo: params.getRankingInfo === true,
      advancedSyntax: pick('advancedSyntax', s.advancedSyntax),
      removeStopWords: featureLanguages(pick('removeStopWords', s.removeStopWords), queryLanguages),
      noTypoWords: new Set(
        pick<string[]>('disableTypoToleranceOnWords', s.disableTypoToleranceOnWords).flatMap((w) => tokenize(w)),
      ),
      queryLanguages,
      decompoundQuery: pick('decompoundQuery', s.decompoundQuery) !== false,
      synonyms: params.synonyms !== false,
    };
  }

  private derive(word: string, prefix: boolean, eff: Effective, exactOnly = false, noTypos = false): Derived {
    let maxTypos = 0;
    if (eff.typoTolerance !== false && !isNumericToken(word) && !exactOnly && !noTypos) {
      if (word.length >= eff.min2) maxTypos = 2;
      else if (word.length >= eff.min1) maxTypos = 1;
    }
    const alternatives = eff.synonyms && !exactOnly && this.expansion.size ? this.expansion.words.get(word) : undefined;
    const cacheKey = `${word}\u0000${prefix ? 1 : 0}${maxTypos}${exactOnly ? 1 : 0}${alternatives ? 1 : 0}${eff.plurals ? eff.plurals.join(',') : '-'}`; // maxTypos covers noTypos
    const cached = this.deriveCache.get(cacheKey);
    const pluralsVersion = this.dictionaries.versions.plurals;
    if (cached && cached.version === this.vocab.version && cached.plurals === pluralsVersion) {
      this.deriveCache.delete(cacheKey);
      this.deriveCache.set(cacheKey, cached);
      return cached.derived;
    }
    const vocab = this.vocab;
    vocab.ensureSorted();
    const ranges: Array<{ lo: number; hi: number; typos: number; exact: number }> = [];
    const single = new Set<number>();
    const addTerm = (term: number, typos: number, exact: number) => {
      if (single.has(term)) return;
      single.add(term);
      const pos = vocab.positionOf(term);
      ranges.push({ lo: pos, hi: pos + 1, typos, exact });
    };
    const exactId = vocab.id(word);
    if (exactId !== undefined) addTerm(exactId, 0, 1);
    const plurals = new Set<string>();
    if (eff.plurals) {
      for (const form of this.dictionaries.pluralForms(word, eff.plurals)) {
        plurals.add(form);
        const id = vocab.id(form);
        if (id !== undefined) addTerm(id, 0, 1);
      }
    }
    // one-word synonyms: a synonym is a whole word without typos (loses to the word itself on
    // `exact`); an alternative correction counts 1 or 2 typos (phrases and placeholders: `spanMatches`)
    const synonymWords = new Set<string>();
    for (const alt of alternatives ?? []) {
      const id = vocab.id(alt.words[0]!);
      if (id !== undefined) {
        addTerm(id, alt.typos, 0);
        synonymWords.add(alt.words[0]!);
      }
    }
    if (prefix) {
      const [lo, hi] = vocab.prefixRange(word);
      if (hi > lo) ranges.push({ lo, hi, typos: 0, exact: 0 });
    }
    const fuzzy = new Map<number, Kind>();
    if (maxTypos > 0) {
      for (const { term, typos } of vocab.fuzzy(word, maxTypos, prefix, false)) {
        if (single.has(term)) continue;
        const kind = prefix && vocab.terms[term]!.length > word.length ? Kind.FuzzyPrefix : Kind.Fuzzy;
        fuzzy.set(term, kind);
        addTerm(term, typos, 0);
      }
    }
    // typo-then-exactness order (stable: positions stay ascending), then adjacent ranges merged
    ranges.sort((a, b) => a.typos - b.typos || b.exact - a.exact);
    const merged: typeof ranges = [];
    for (const r of ranges) {
      const last = merged[merged.length - 1];
      if (last && last.hi === r.lo && last.typos === r.typos && last.exact === r.exact) last.hi = r.hi;
      else merged.push({ ...r });
    }
    const derived: Derived = {
      word,
      prefix,
      lo: Uint32Array.from(merged, (r) => r.lo),
      hi: Uint32Array.from(merged, (r) => r.hi),
      typos: Uint8Array.from(merged, (r) => r.typos),
      exact: Uint8Array.from(merged, (r) => r.exact),
      plurals,
      fuzzy,
    };
    if (synonymWords.size) derived.synonyms = synonymWords;
    if (this.deriveCache.size >= 256) this.deriveCache.delete(this.deriveCache.keys().next().value!);
    this.deriveCache.set(cacheKey, { version: this.vocab.version, plurals: pluralsVersion, derived });
    return derived;
  }

  /**
   * Matches the query and filters: fills the per-record scratch (matched words mask, typos, exact
   * words, best attribute) and returns the candidate records. The caller must call `release()`.
   */
  private execute(params: SearchParams, eff: Effective): Execution {
    const geo = parseGeo(params);
    const exec = this.executeMatch(params, eff);
    if (geo) {
      exec.geo = geo;
      exec.candidates = this.geoFilter(exec.candidates, geo);
    }
    return exec;
  }

  /** Keeps the candidates inside the geo constraints and records their distance to the centre. */
  private geoFilter(cands: Uint32Array, geo: GeoQuery): Uint32Array {
    const lat = this.column('_geoloc.lat');
    const lng = this.column('_geoloc.lng');
    if (this.geoDist.length < this.capacity) this.geoDist = new Float64Array(this.capacity);
    const dist = this.geoDist;
    return cands.filter((d) => {
      const la = lat.num[d]!;
      const ln = lng.num[d]!;
      if (la !== la || ln !== ln) return false;
      const points: Array<[number, number]> = [[la, ln]];
      const las = lat.numMulti.get(d);
      const lns = lng.numMulti.get(d);
      if (las && lns) for (let i = 1; i < Math.min(las.length, lns.length); i++) points.push([las[i]!, lns[i]!]);
      let best = Infinity;
      for (const [pLat, pLng] of points) {
        if (geo.boxes.length && !geo.boxes.some((b) => inBox(b, pLat, pLng))) continue;
        if (geo.polygons.length && !geo.polygons.some((ring) => inPolygon(ring, pLat, pLng))) continue;
        const m = geo.around ? haversine(geo.around[0], geo.around[1], pLat, pLng) : 0;
        if (geo.radius !== null && m > geo.radius) continue;
        if (m < best) best = m;
      }
      dist[d] = best;
      return best !== Infinity;
    });
  }

  private executeMatch(params: SearchParams, eff: Effective): Execution {
    this.refresh();
    const filter = this.filterBits(params);
    const parsed = parseQuery(eff.query, eff.advancedSyntax);
    if (eff.removeStopWords)
      removeStopWords(parsed, eff.queryType === 'prefixLast', this.dictionaries.stopWords(eff.removeStopWords));
    if (eff.decompoundQuery && this.indexCompounds.size > 0) {
      // only the languages the records were decompounded in: a split query must still find the compound
      const indexed = this.indexLanguages();
      decompoundQuery(parsed, this.dictionaries.compounds(eff.queryLanguages.filter((l) => indexed.includes(l))));
    }
    const words = parsed.words;
    if (words.length === 0 && parsed.excluded.length) {
      // only exclusions (advanced syntax "-word"): every record without them
      const all = this.executeMatch({ ...params, query: '' }, { ...eff, query: '', advancedSyntax: false });
      return { ...all, candidates: this.withoutExcluded(all.candidates, parsed.excluded) };
    }
    if (words.length === 0) {
      const ids: number[] = [];
      const n = this.records.length;
      if (filter) {
        for (let w = 0; w < filter.length; w++) {
          let bits = filter[w]!;
          while (bits) {
            const low = bits & -bits;
            ids.push((w << 5) + 31 - Math.clz32(low));
            bits ^= low;
          }
        }
      } else {
        const all = new Uint32Array(this.liveCount);
        let k = 0;
        const alive = this.alive;
        for (let id = 0; id < n; id++) if (alive[id]) all[k++] = id;
        return { eff, words, derived: [], spans: [], candidates: all, required: 0 };
      }
      return { eff, words, derived: [], spans: [], candidates: Uint32Array.from(ids), required: 0 };
    }
    const derived = words.map((w, i) => {
      const prefix = eff.queryType === 'prefixAll' || (eff.queryType === 'prefixLast' && i === words.length - 1);
      return this.derive(w, prefix && !parsed.exactOnly[i], eff, parsed.exactOnly[i], eff.noTypoWords.has(w));
    });
    const spans = this.spanMatches(parsed, eff);
    if (++this.generation > 0xffff) {
      this.match.fill(0);
      this.generation = 1;
    }
    const gen = this.generation;
    const genBits = (gen << 16) >>> 0;
    const match = this.match;
    const touched = this.touched;
    let tc = 0;
    const data = this.frozenData;
    const off = this.frozenOff;
    // without span alternatives each word's sources are all in its derivation: word by word, inline
    // (the hot loop of every query); with them, `matchWithSpans`
    if (spans.length) tc = this.matchWithSpans(derived, spans);
    else
      for (let i = 0; i < derived.length; i++) {
        const bit = 1 << i;
        const d = derived[i]!;
        for (let r = 0; r < d.lo.length; r++) {
          const add = (d.typos[r]! << 20) + (d.exact[r]! << 26);
          const end = off[d.hi[r]!]!;
          for (let j = off[d.lo[r]!]!; j < end; j += 2) {
            const slot = data[j]! << 1;
            const w = match[slot]!;
            let m: number;
            let packed: number;
            if (w >>> 16 !== gen) {
              touched[tc++] = slot >>> 1;
              m = 0;
              packed = ATTR_MASK;
            } else {
              m = w & 0xffff;
              packed = match[slot + 1]!;
            }
            if ((m & bit) === 0) {
              match[slot] = (genBits | m | bit) >>> 0;
              packed += add;
            }
            const a = data[j + 1]!;
            if (a < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | a;
            match[slot + 1] = packed;
          }
        }
      }
    this.touchedCount = tc;
    const all = words.length >= 31 ? 0x7fffffff : (1 << words.length) - 1;
    let optionalMask = 0;
    words.forEach((w, i) => {
      if (eff.optionalWords.has(w)) optionalMask |= 1 << i;
    });
    const collect = (required: number) => {
      const out: number[] = [];
      for (let j = 0; j < tc; j++) {
        const doc = touched[j]!;
        const m = match[doc << 1]! & 0xffff;
        if ((m & required) !== required || !this.alive[doc]) continue;
        if (filter && (filter[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
        out.push(doc);
      }
      return out;
    };
    let required = all & ~optionalMask;
    let cands = collect(required);
    if (cands.length === 0 && words.length > 1 && eff.removeWords !== 'none') {
      if (eff.removeWords === 'allOptional') {
        required = 0;
        cands = collect(0);
      } else {
        for (let drop = 1; drop < words.length && cands.length === 0; drop++) {
          let keep = 0;
          for (let i = 0; i < words.length; i++) {
            const dropped = eff.removeWords === 'lastWords' ? i >= words.length - drop : i < drop;
            if (!dropped) keep |= 1 << i;
          }
          required = keep & ~optionalMask;
          cands = collect(required);
        }
      }
    }
    // term → query words bit mask, for restrictSearchableAttributes, proximity and highlighting
    this.markTerms(derived, true);
    if (spans.length) this.markSpans(spans, true);
    if (parsed.excluded.length && cands.length)
      cands = Array.from(this.withoutExcluded(Uint32Array.from(cands), parsed.excluded));
    if (parsed.phrases.length && cands.length)
      cands = cands.filter((doc) => parsed.phrases.every((phrase) => this.hasPhrase(doc, phrase)));
    const restrict = params.restrictSearchableAttributes;
    if (Array.isArray(restrict) && restrict.length && cands.length) {
      const allowed = new Set(restrict as string[]);
      const fixed = this.searchable ? this.searchable.map((spec) => allowed.has(spec.name)) : null;
      cands = cands.filter((doc) => {
        const fields = fixed ?? this.specsFor(this.records[doc]!).map((spec) => allowed.has(spec.name));
        const start = this.docTokStart[doc]!;
        const end = start + this.docTokCount[doc]!;
        let got = 0;
        for (let t = start; t < end; t++) if (fields[this.tokPos[t]! >>> 16]) got |= this.termBits[this.tokTerms[t]!]!;
        return got !== 0 && (got & required) === required;
      });
    }
    if (cands.length && (eff.typoTolerance === 'min' || eff.typoTolerance === 'strict')) {
      const typoOf = (d: number) => (match[(d << 1) + 1]! >>> 20) & 63;
      const distinctTypos = [...new Set(cands.map(typoOf))].sort((a, b) => a - b);
      const limit =
        eff.typoTolerance === 'min' ? distinctTypos[0]! : distinctTypos[Math.min(1, distinctTypos.length - 1)]!;
      cands = cands.filter((d) => typoOf(d) <= limit);
    }
    return { eff, words, derived, spans, candidates: Uint32Array.from(cands), required };
  }

  /**
   * Matching with span alternatives. A span sets the bits of several query words, so the sources of
   * every word are taken in the order of their quality — 0 typos and exact, 0 typos and not exact
   * (prefixes, synonyms, spans), 1 typo, 2 typos — and the first source that sets a word's bit gives
   * its typos and exactness: the best one, as the word-by-word loop gives when sources are one word's.
   */
  private matchWithSpans(derived: Derived[], spans: SpanMatch[]): number {
    let tc = 0;
    const data = this.frozenData;
    const off = this.frozenOff;
    const cursor = new Uint32Array(derived.length);
    // quality = typos × 2 + (not exact): typos are at most 2 (typo budget, altcorrection2), so 0…5
    for (let quality = 0; quality <= 5; quality++) {
      for (let i = 0; i < derived.length; i++) {
        const d = derived[i]!;
        let r = cursor[i]!;
        for (; r < d.lo.length && d.typos[r]! * 2 + 1 - d.exact[r]! <= quality; r++) {
          tc = this.matchPostings(
            data,
            off[d.lo[r]!]!,
            off[d.hi[r]!]!,
            1 << i,
            (d.typos[r]! << 20) + (d.exact[r]! << 26),
            tc,
          );
        }
        cursor[i] = r;
      }
      for (const span of spans) {
        // a synonym is not exact; an alternative correction counts its typos once
        const typos = span.alternative.typos;
        if (typos * 2 + 1 === quality)
          tc = this.matchPostings(span.postings, 0, span.postings.length, span.mask, typos << 20, tc);
      }
    }
    return tc;
  }

  /** Sets the query-word bits `mask` on the records of postings `[id, attributeKey, …]` from `from` to `to`. */
  private matchPostings(data: Uint32Array, from: number, to: number, mask: number, add: number, tc: number): number {
    const gen = this.generation;
    const genBits = (gen << 16) >>> 0;
    const match = this.match;
    const touched = this.touched;
    for (let j = from; j < to; j += 2) {
      const slot = data[j]! << 1;
      const w = match[slot]!;
      let m: number;
      let packed: number;
      if (w >>> 16 !== gen) {
        touched[tc++] = slot >>> 1;
        m = 0;
        packed = ATTR_MASK;
      } else {
        m = w & 0xffff;
        packed = match[slot + 1]!;
      }
      if ((m & mask) !== mask) {
        match[slot] = (genBits | m | mask) >>> 0;
        packed += add;
      }
      const a = data[j + 1]!;
      if (a < (packed & ATTR_MASK)) packed = (packed & ~ATTR_MASK) | a;
      match[slot + 1] = packed;
    }
    return tc;
  }

  /**
   * Marks (or clears) the terms of span alternatives with the bits of the query words they stand for;
   * a one-word alternative of several query words also goes to `spanBits` (proximity: those words are
   * next to each other in it).
   */
  private markSpans(spans: SpanMatch[], set: boolean): void {
    if (this.spanBits.length < this.termBits.length) this.spanBits = new Uint32Array(this.termBits.length);
    const bits = this.termBits;
    const spanBits = this.spanBits;
    for (const span of spans) {
      for (const term of span.terms) {
        if (set) {
          bits[term]! |= span.mask;
          if (span.terms.length === 1 && !span.alternative.placeholder) spanBits[term]! |= span.mask;
        } else {
          bits[term] = 0;
          spanBits[term] = 0;
        }
      }
    }
    this.spansActive = set;
  }

  private release(exec: Execution): void {
    this.touchedCount = 0;
    this.markTerms(exec.derived, false);
    if (exec.spans.length) this.markSpans(exec.spans, false);
  }

  /** Candidates minus the records that contain one of the excluded words (advanced syntax `-word`). */
  private withoutExcluded(cands: Uint32Array, excluded: string[]): Uint32Array {
    const gen = ++this.stampGen;
    const stamp = this.stamp;
    const data = this.frozenData;
    const off = this.frozenOff;
    for (const word of excluded) {
      const id = this.vocab.id(word);
      if (id === undefined) continue;
      const p = this.vocab.positionOf(id);
      for (let j = off[p]!; j < off[p + 1]!; j += 2) stamp[data[j]!] = gen;
    }
    return cands.filter((d) => stamp[d] !== gen);
  }

  /** True when the record has the phrase's words next to each other, in order, in one attribute. */
  private hasPhrase(doc: number, phrase: number[]): boolean {
    const start = this.docTokStart[doc]!;
    const end = start + this.docTokCount[doc]!;
    const terms = this.tokTerms;
    const pos = this.tokPos;
    const bits = this.termBits;
    // positions never decrease along a record's tokens; the parts of a compound word share its position
    for (let a = start; a < end; a++) {
      if ((bits[terms[a]!]! & (1 << phrase[0]!)) === 0) continue;
      let ok = true;
      let b = a + 1;
      for (let k = 1; k < phrase.length && ok; k++) {
        const want = pos[a]! + k;
        while (b < end && pos[b]! < want) b++;
        ok = false;
        for (let t = b; t < end && pos[t]! === want; t++) {
          if ((bits[terms[t]!]! & (1 << phrase[k]!)) !== 0) {
            ok = true;
            break;
          }
        }
      }
      if (ok) return true;
    }
    return false;
  }

  /** Sets (or clears) term id → query-word bits for every derived term (proximity reads them). */
  private markTerms(derived: Derived[], set: boolean): void {
    const bits = this.termBits;
    const sorted = this.vocab.sortedTermIds;
    for (let i = 0; i < derived.length; i++) {
      const d = derived[i]!;
      const bit = 1 << i;
      for (let r = 0; r < d.lo.length; r++) {
        const hi = d.hi[r]!;
        if (set) for (let p = d.lo[r]!; p < hi; p++) bits[sorted[p]!]! |= bit;
        else for (let p = d.lo[r]!; p < hi; p++) bits[sorted[p]!] = 0;
      }
    }
  }

  // ---------------------------------------------------------------- ranking

  private proximity(doc: number, nWords: number): number {
    const start = this.docTokStart[doc]!;
    const end = start + this.docTokCount[doc]!;
    const terms = this.tokTerms;
    const pos = this.tokPos;
    const bits = this.termBits;
    const spanned = this.spansActive;
    const spanBits = this.spanBits;
    const mask = this.match[doc << 1]! & 0xffff;
    let total = 0;
    let prevWord = -1;
    for (let w = 0; w < nWords; w++) {
      if ((mask & (1 << w)) === 0) continue;
      if (prevWord >= 0) {
        const ba = 1 << prevWord;
        const bb = 1 << w;
        let best = 8;
        for (let a = start; a < end && best > 1; a++) {
          if ((bits[terms[a]!]! & ba) === 0) continue;
          const pa = pos[a]!;
          for (let b = start; b < end; b++) {
            if (b === a) {
              // one word standing for both query words (a synonym of several words): next to each other
              if (spanned && (spanBits[terms[a]!]! & (ba | bb)) === (ba | bb)) best = 1;
              continue;
            }
            if ((bits[terms[b]!]! & bb) === 0) continue;
            const pb = pos[b]!;
            if (pa >>> 16 !== pb >>> 16) continue;
            const dist = pb > pa ? pb - pa : pa - pb + 1;
            if (dist < best) best = dist;
          }
        }
        total += best;
      }
      prevWord = w;
    }
    return total;
  }

  private criteria(exec: Execution, forBrowse: boolean): Criterion[] {
    const out: Criterion[] = [];
    const n = exec.words.length;
    const match = this.match;
    const ranking = forBrowse ? ['custom'] : this.settings.ranking;
    for (const c of ranking) {
      if (c === 'custom') {
        // personalisation ranks within the custom step, before the customRanking attributes
        const personal = forBrowse ? undefined : exec.personal;
        if (personal) {
          const { filtersScore, impact } = personal;
          out.push({
            key: (d) =>
              PERSONAL_KEY_MAX - Math.min(PERSONAL_KEY_MAX, Math.max(0, Math.floor((filtersScore(d) * impact) / 100))),
          });
        }
        out.push({ order: this.customOrder() });
        continue;
      }
      const sort = parseSort(c);
      if (sort) {
        out.push({ order: this.orderFor(c, [sort]) });
        continue;
      }
      if (c === 'filters' && exec.optional?.length) {
        const sets = exec.optional;
        out.push({
          key: (d) => {
            let missed = sets.length;
            for (const bits of sets) if (bits[d >>> 5]! & (1 << (d & 31))) missed--;
            return missed;
          },
        });
        continue;
      }
      if (c === 'geo' && exec.geo?.around) {
        const dist = this.geoDist;
        const precision = exec.geo.precision;
        out.push({ key: (d) => Math.min(Math.floor(dist[d]! / precision), 0xfffffffe) });
        continue;
      }
      if (n === 0) continue;
      if (c === 'typo') out.push({ key: (d) => (match[(d << 1) + 1]! >>> 20) & 63 });
      else if (c === 'words' && exec.required !== (1 << n) - 1)
        out.push({ key: (d) => n - popcount(match[d << 1]! & 0xffff) });
      else if (c === 'proximity' && n > 1) out.push({ key: (d) => this.proximity(d, n) });
      else if (c === 'attribute') out.push({ key: (d) => match[(d << 1) + 1]! & ATTR_MASK });
      else if (c === 'exact') out.push({ key: (d) => n - (match[(d << 1) + 1]! >>> 26) });
    }
    return out;
  }

  /** Tie-breaking bucket sort: refines only the buckets that the first `need` results come from. */
  private rank(cands: Uint32Array, crits: Criterion[], need: number): number[] {
    const out: number[] = [];
    if (need > 0 && cands.length) this.bucket(cands, 0, need, out, crits);
    return out;
  }

  private bucket(ids: Uint32Array, level: number, need: number, out: number[], crits: Criterion[]): void {
    for (;;) {
      if (out.length >= need) return;
      if (ids.length === 1) {
        out.push(ids[0]!);
        return;
      }
      if (level >= crits.length) {
        const sorted = ids.slice().sort();
        for (let i = 0; i < sorted.length && out.length < need; i++) out.push(sorted[i]!);
        return;
      }
      const crit = crits[level]!;
      if (crit.order) {
        // records in sort order; each run of equal sort values is refined by the next criteria
        const { rank, order, group } = crit.order;
        let inOrder: Uint32Array;
        if (ids.length > 32) {
          // walk the precomputed order and keep the group's members, stopping once the page is
          // filled: expected cost need × N / |group|, far below sorting the group
          const gen = ++this.stampGen;
          const stamp = this.stamp;
          for (let i = 0; i < ids.length; i++) stamp[ids[i]!] = gen;
          if (level + 1 >= crits.length) {
            // nothing refines the ties: the order (ties by insertion) is final
            for (let i = 0; i < order.length && out.length < need; i++)
              if (stamp[order[i]!] === gen) out.push(order[i]!);
            return;
          }
          let run: number[] = [];
          let runGroup = -1;
          for (let i = 0; i < order.length; i++) {
            const d = order[i]!;
            if (stamp[d] !== gen) continue;
            const g = group[d]!;
            if (g !== runGroup && run.length) {
              this.bucketRun(run, level + 1, need, out, crits);
              if (out.length >= need) return;
              run = [];
            }
            runGroup = g;
            run.push(d);
          }
          if (run.length) this.bucketRun(run, level + 1, need, out, crits);
          return;
        }
        const keyed = new Float64Array(ids.length);
        for (let i = 0; i < ids.length; i++) keyed[i] = rank[ids[i]!]! * GROUP_SORT_SHIFT + i;
        keyed.sort();
        inOrder = new Uint32Array(ids.length);
        for (let i = 0; i < keyed.length; i++) inOrder[i] = ids[keyed[i]! % GROUP_SORT_SHIFT]!;
        let from = 0;
        while (from < inOrder.length && out.length < need) {
          let to = from + 1;
          while (to < inOrder.length && group[inOrder[to]!] === group[inOrder[from]!]) to++;
          this.bucketRun(Array.from(inOrder.subarray(from, to)), level + 1, need, out, crits);
          from = to;
        }
        return;
      }
      const keyOf = crit.key!;
      const keys = new Uint32Array(ids.length);
      let min = Infinity;
      let max = -Infinity;
      for (let i = 0; i < ids.length; i++) {
        const k = keyOf(ids[i]!);
        keys[i] = k;
        if (k < min) min = k;
        if (k > max) max = k;
      }
      if (min === max) {
        level++;
        continue;
      }
      let sorted: Uint32Array;
      let sortedKeys: Uint32Array;
      if (max - min <= 65536) {
        const counts = new Uint32Array(max - min + 2);
        for (let i = 0; i < keys.length; i++) counts[keys[i]! - min + 1]!++;
        for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
        sorted = new Uint32Array(ids.length);
        sortedKeys = new Uint32Array(ids.length);
        for (let i = 0; i < ids.length; i++) {
          const slot = counts[keys[i]! - min]!++;
          sorted[slot] = ids[i]!;
          sortedKeys[slot] = keys[i]!;
        }
      } else {
        const keyed = new Float64Array(ids.length);
        for (let i = 0; i < ids.length; i++) keyed[i] = keys[i]! * GROUP_SORT_SHIFT + i;
        keyed.sort();
        sorted = new Uint32Array(ids.length);
        sortedKeys = new Uint32Array(ids.length);
        for (let i = 0; i < keyed.length; i++) {
          const at = keyed[i]! % GROUP_SORT_SHIFT;
          sorted[i] = ids[at]!;
          sortedKeys[i] = keys[at]!;
        }
      }
      let from = 0;
      while (from < sorted.length && out.length < need) {
        let to = from + 1;
        while (to < sorted.length && sortedKeys[to] === sortedKeys[from]) to++;
        this.bucket(sorted.subarray(from, to), level + 1, need, out, crits);
        from = to;
      }
      return;
    }
  }

  /** One run of records that tie on a sort criterion, already in id order within the run. */
  private bucketRun(run: number[], level: number, need: number, out: number[], crits: Criterion[]): void {
    if (run.length === 1 || level >= crits.length) {
      for (let i = 0; i < run.length && out.length < need; i++) out.push(run[i]!);
      return;
    }
    this.bucket(Uint32Array.from(run), level, need, out, crits);
  }

  /** Ranks with `distinct`: keeps the best `distinct` records per value of attributeForDistinct. */
  private rankDistinct(exec: Execution, crits: Criterion[], need: number): { ordered: number[]; nbHits: number } {
    const cands = exec.candidates;
    const attr = this.settings.attributeForDistinct;
    const per = exec.eff.distinct;
    if (!per || !attr) return { ordered: this.rank(cands, crits, need), nbHits: cands.length };
    const col = this.column(attr);
    const groupOf = (d: number) => {
      const s = col.single[d]!;
      return s >= 0 ? s : s === -2 ? col.multi.get(d)![0]! : -1 - d;
    };
    const seen = new Map<number, number>();
    let nbHits = 0;
    for (let i = 0; i < cands.length; i++) {
      const g = groupOf(cands[i]!);
      const c = seen.get(g) ?? 0;
      if (c < per) nbHits++;
      seen.set(g, c + 1);
    }
    let raw = Math.max(need * 2, need + 10);
    for (;;) {
      const ordered = this.rank(cands, crits, raw);
      const kept: number[] = [];
      const counts = new Map<number, number>();
      for (const d of ordered) {
        const g = groupOf(d);
        const c = counts.get(g) ?? 0;
        if (c < per) {
          kept.push(d);
          counts.set(g, c + 1);
          if (kept.length >= need) break;
        }
      }
      if (kept.length >= need || ordered.length >= cands.length) return { ordered: kept, nbHits };
      raw *= 4;
    }
  }

  // ---------------------------------------------------------------- hits

  private highlightOptions(exec: Execution): HighlightOptions {
    const { words, derived, eff, spans } = exec;
    const vocab = this.vocab;
    const compounds = this.indexCompounds;
    const phrases = spans
      .filter((s) => !s.alternative.placeholder)
      .map((s) => ({ words: s.alternative.words, mask: s.mask }));
    const placeholders = spans
      .filter((s) => s.alternative.placeholder)
      .map((s) => ({ name: s.alternative.words[0]!, mask: s.mask }));
    return {
      words,
      preTag: eff.preTag,
      postTag: eff.postTag,
      ...(phrases.length ? { phrases } : {}),
      ...(placeholders.length ? { placeholders } : {}),
      matcher: (tok: string): TokenMatch | null => {
        let mask = 0;
        let chars = 0;
        let tid: number | undefined | null = null;
        for (let i = 0; i < derived.length; i++) {
          const d = derived[i]!;
          let c = 0;
          if (tok === d.word || d.plurals.has(tok) || d.synonyms?.has(tok)) c = tok.length;
          else if (d.prefix && tok.startsWith(d.word)) c = d.word.length;
          else if (
            compounds.size &&
            compounds
              .get(tok)
              ?.some((part) => part === d.word || d.plurals.has(part) || (d.prefix && part.startsWith(d.word)))
          )
            c = tok.length;
          else if (d.fuzzy.size) {
            if (tid === null) tid = vocab.id(tok);
            const kind = tid === undefined ? undefined : d.fuzzy.get(tid);
            if (kind === Kind.Fuzzy) c = tok.length;
            else if (kind === Kind.FuzzyPrefix) c = Math.min(tok.length, d.word.length);
          }
          if (c > 0) {
            mask |= 1 << i;
            if (c > chars) chars = c;
          }
        }
        return mask ? { mask, chars } : null;
      },
    };
  }

  private highlightAttributes(eff: Effective, record: IndexRecord): string[][] {
    const list = eff.attributesToHighlight;
    if (list === null) {
      if (this.searchable) {
        const seen = new Set<string>();
        return this.searchable.filter((s) => !seen.has(s.name) && seen.add(s.name)).map((s) => s.path);
      }
      return Object.keys(record)
        .filter((k) => k !== 'objectID' && !k.startsWith('_'))
        .map((k) => [k]);
    }
    if (list.includes('*'))
      return Object.keys(record)
        .filter((k) => k !== 'objectID')
        .map((k) => [k]);
    return list.map((a) => a.split('.'));
  }

  private retrieve(record: IndexRecord, eff: Effective): Record<string, unknown> {
    const list = eff.attributesToRetrieve;
    const unretrievable = this.settings.unretrievableAttributes;
    let out: Record<string, unknown>;
    if (list.includes('*')) {
      out = cloneJson(record) as Record<string, unknown>;
      for (const a of list) if (a.startsWith('-')) deletePath(out, a.slice(1).split('.'));
    } else {
      out = {};
      for (const a of list) {
        const path = a.split('.');
        const v = getPath(record, path);
        if (v !== undefined) setPath(out, path, cloneJson(v));
      }
    }
    for (const a of unretrievable) deletePath(out, a.split('.'));
    out.objectID = record.objectID;
    return out;
  }

  private isUnretrievable(path: string[]): boolean {
    const name = path.join('.');
    return this.settings.unretrievableAttributes.some((u) => name === u || name.startsWith(`${u}.`));
  }

  private hit(doc: number, exec: Execution, hl: HighlightOptions | null, withRanking: boolean): Hit {
    const record = this.records[doc]!;
    const eff = exec.eff;
    const hit = this.retrieve(record, eff) as Hit;
    const opts = hl ?? this.highlightOptions(exec);
    const hlAttrs = this.highlightAttributes(eff, record);
    if (hlAttrs.length) {
      const result: Record<string, unknown> = {};
      for (const path of hlAttrs) {
        if (this.isUnretrievable(path)) continue;
        const v = highlightValue(getPath(record, path), opts);
        if (v !== undefined) setPath(result, path, v);
      }
      hit._highlightResult = result as Hit['_highlightResult'];
    }
    if (eff.attributesToSnippet.length) {
      const result: Record<string, unknown> = {};
      for (const entry of eff.attributesToSnippet) {
        const [name, n] = entry.split(':');
        const size = n ? Number(n) : 10;
        // '*' snippets every attribute of the record
        const paths =
          name === '*'
            ? Object.keys(record)
                .filter((k) => k !== 'objectID')
                .map((k) => [k])
            : [name!.split('.')];
        for (const path of paths) {
          if (this.isUnretrievable(path)) continue;
          const v = snippetValue(getPath(record, path), size, eff.ellipsis, opts);
          if (v !== undefined) setPath(result, path, v);
        }
      }
      hit._snippetResult = result as Hit['_snippetResult'];
    }
    if (withRanking) hit._rankingInfo = this.rankingInfo(doc, exec);
    return hit;
  }

  private rankingInfo(doc: number, exec: Execution): RankingInfo {
    const n = exec.words.length;
    const order = this.customOrder();
    const info: RankingInfo = {
      nbTypos: n ? (this.match[(doc << 1) + 1]! >>> 20) & 63 : 0,
      firstMatchedWord: n ? this.match[(doc << 1) + 1]! & ATTR_MASK : 0,
      proximityDistance: n > 1 ? this.proximity(doc, n) : 0,
      userScore: order.order.length - order.rank[doc]!,
      geoDistance: exec.geo?.around ? Math.round(this.geoDist[doc]!) : 0,
      geoPrecision: exec.geo?.around ? exec.geo.precision : 1,
      nbExactWords: n ? this.match[(doc << 1) + 1]! >>> 26 : 0,
    };
    if (exec.personal) {
      (info as RankingInfo & { personalization?: unknown }).personalization = personalizationFigures(
        exec.personal.filtersScore(doc),
        exec.personal.impact,
      );
    }
    return info;
  }

  /**
   * The profile score of each record for a personalised query: per facet of the profile, the score of
   * the record's value (the best of its values; values matched case-insensitively, like filters),
   * summed over the facets.
   */
  private personalScorer(input: PersonalizationInput): (doc: number) => number {
    const facets: Array<{ col: Column; byValue: Map<number, number> }> = [];
    for (const [facet, values] of Object.entries(input.scores)) {
      if (!values || typeof values !== 'object') continue;
      const col = this.column(facet);
      const byValue = new Map<number, number>();
      for (const [value, score] of Object.entries(values)) {
        if (typeof score !== 'number' || !(score > 0)) continue;
        for (const vid of col.lower.get(value.toLowerCase()) ?? [])
          byValue.set(vid, Math.max(byValue.get(vid) ?? 0, score));
      }
      if (byValue.size) facets.push({ col, byValue });
    }
    return (doc) => {
      let total = 0;
      for (const { col, byValue } of facets) {
        const single = col.single[doc]!;
        if (single >= 0) total += byValue.get(single) ?? 0;
        else if (single === -2) {
          let best = 0;
          for (const vid of col.multi.get(doc)!) best = Math.max(best, byValue.get(vid) ?? 0);
          total += best;
        }
      }
      return total;
    };
  }

  // ---------------------------------------------------------------- facets

  private requestedFacets(facets: unknown): string[] {
    if (facets === undefined || facets === null) return [];
    const list = typeof facets === 'string' ? [facets] : (facets as string[]);
    const out: string[] = [];
    for (const f of list) {
      if (f === '*') {
        for (const spec of this.facetSpecs.values())
          if (!spec.filterOnly && !out.includes(spec.name)) out.push(spec.name);
      } else {
        const spec = this.facetSpecs.get(f);
        if (spec && !spec.filterOnly && !out.includes(f)) out.push(f);
      }
    }
    return out;
  }

  private countFacet(col: Column, cands: Uint32Array): Uint32Array {
    const counts = new Uint32Array(col.values.length);
    const single = col.single;
    for (let i = 0; i < cands.length; i++) {
      const d = cands[i]!;
      const s = single[d]!;
      if (s >= 0) counts[s]!++;
      else if (s === -2) for (const v of col.multi.get(d)!) counts[v]!++;
    }
    return counts;
  }

  /** Alphabetical order of a column's values (built once, then kept up to date by insertion). */
  private alphaOf(col: Column): NonNullable<Column['alpha']> {
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

  private insertAlpha(col: Column, vid: number): void {
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

  /**
   * The `max` most frequent values (count desc, then alphabetical) without sorting every value: a
   * histogram of counts finds the threshold count, and ties at the threshold are taken in alphabetical
   * order by scanning the column's precomputed alphabetical ranks.
   */
  private topFacetValues(col: Column, counts: Uint32Array, max: number): number[] {
    const { rank, sorted } = this.alphaOf(col);
    const byCountThenAlpha = (a: number, b: number) => counts[b]! - counts[a]! || rank[a]! - rank[b]!;
    const nonzero: number[] = [];
    let maxCount = 0;
    for (let v = 0; v < counts.length; v++) {
      const c = counts[v]!;
      if (c) {
        nonzero.push(v);
        if (c > maxCount) maxCount = c;
      }
    }
    if (nonzero.length <= Math.max(64, max * 2)) return nonzero.sort(byCountThenAlpha).slice(0, max);
    if (max === 0) return [];
    const hist = new Uint32Array(maxCount + 1);
    for (const v of nonzero) hist[counts[v]!]!++;
    let threshold = 0;
    let above = 0;
    for (let c = maxCount; c >= 1; c--) {
      if (above + hist[c]! >= max) {
        threshold = c;
        break;
      }
      above += hist[c]!;
    }
    const chosen = nonzero.filter((v) => counts[v]! > threshold).sort(byCountThenAlpha);
    let need = max - chosen.length;
    const tie = new Uint8Array(col.alpha!.length);
    for (const v of nonzero) if (counts[v] === threshold) tie[rank[v]!] = 1;
    for (let r = 0; r < tie.length && need > 0; r++) {
      if (tie[r]) {
        chosen.push(sorted[r]!);
        need--;
      }
    }
    return chosen;
  }

  private facets(
    names: string[],
    cands: Uint32Array,
    maxValues: number,
    alpha: boolean,
  ): { facets: Record<string, Record<string, number>>; stats: Record<string, FacetStats> } {
    const facets: Record<string, Record<string, number>> = {};
    const stats: Record<string, FacetStats> = {};
    for (const name of names) {
      const col = this.column(name);
      const counts = this.countFacet(col, cands);
      const nonzero = this.topFacetValues(col, counts, maxValues);
      if (alpha) {
        // sortFacetValuesBy 'alpha': the most frequent values, shown in alphabetical order
        const rank = this.alphaOf(col).rank;
        nonzero.sort((a, b) => rank[a]! - rank[b]!);
      }
      const out: Record<string, number> = {};
      for (let i = 0; i < nonzero.length && i < maxValues; i++) out[col.values[nonzero[i]!]!] = counts[nonzero[i]!]!;
      facets[name] = out;
      if (col.hasNum) {
        let min = Infinity;
        let max = -Infinity;
        let sum = 0;
        let count = 0;
        const hasMulti = col.numMulti.size > 0;
        for (let i = 0; i < cands.length; i++) {
          const d = cands[i]!;
          const v = col.num[d]!;
          if (Number.isNaN(v)) continue;
          const many = hasMulti ? col.numMulti.get(d) : undefined;
          if (!many) {
            if (v < min) min = v;
            if (v > max) max = v;
            sum += v;
            count++;
            continue;
          }
          for (const x of many) {
            if (x < min) min = x;
            if (x > max) max = x;
            sum += x;
            count++;
          }
        }
        if (count)
          stats[name] = { min, max, avg: Math.round((sum / count) * 1e6) / 1e6, sum: Math.round(sum * 1e6) / 1e6 };
      }
    }
    return { facets, stats };
  }

  // ---------------------------------------------------------------- public reads

  /**
   * Searches: the response of the search endpoint (without `queryID`, which the HTTP layer adds).
   * `options.personalization` (a user's profile scores and the strategy's impact, looked up by the
   * caller) adds the personalisation criterion before the custom ranking (`personalization.ts`).
   * @example index.search({ query: 'chair', facets: ['brand'], filters: 'price < 100' })
   * @example index.search({ query: 'chair' }, { personalization: { impact: 100, scores: { brand: { Hon: 20 } } } })
   */
  search(input: SearchParams, options?: SearchOptions): SearchResponse {
    const t0 = performance.now();
    const params = parseSearchParams(input as Record<string, unknown>);
    const eff = this.effective(params);
    const exec = this.execute(params, eff);
    try {
      const personalization = options?.personalization;
      if (personalization && personalization.impact > 0)
        exec.personal = {
          filtersScore: this.personalScorer(personalization),
          impact: Math.min(100, personalization.impact),
        };
      const limit = this.settings.paginationLimitedTo;
      const hitsPerPage = eff.hitsPerPage;
      const useOffset = typeof params.offset === 'number';
      const offset = useOffset ? (params.offset as number) : ((params.page as number | undefined) ?? 0) * hitsPerPage;
      const length = useOffset ? ((params.length as number | undefined) ?? hitsPerPage) : hitsPerPage;
      const end = Math.min(offset + length, limit);
      if (params.optionalFilters !== undefined)
        exec.optional = buildOptionalFilters(params.optionalFilters).map((node) => this.evaluate(node));
      const crits = this.criteria(exec, false);
      const { ordered, nbHits } = this.rankDistinct(exec, crits, end);
      const hl = exec.words.length ? this.highlightOptions(exec) : null;
      const hits: Hit[] = [];
      for (let i = offset; i < end && i < ordered.length; i++)
        hits.push(this.hit(ordered[i]!, exec, hl, eff.getRankingInfo));
      const maxValues = (params.maxValuesPerFacet as number | undefined) ?? this.settings.maxValuesPerFacet;
      const facetNames = this.requestedFacets(params.facets);
      const response: SearchResponse & { exhaustiveFacetsCount?: boolean; exhaustive?: Record<string, boolean> } = {
        hits,
        nbHits,
        page: useOffset ? (length > 0 ? Math.floor(offset / length) : 0) : ((params.page as number | undefined) ?? 0),
        nbPages: hitsPerPage > 0 ? Math.ceil(Math.min(nbHits, limit) / hitsPerPage) : 0,
        hitsPerPage,
        exhaustiveNbHits: true,
        query: eff.query,
        parsed_query: exec.words.join(' '),
        params: encodeSearchParams(params),
        processingTimeMS: 0,
      };
      if (useOffset) {
        response.offset = offset;
        response.length = length;
      }
      if (facetNames.length) {
        const sortBy = params.sortFacetValuesBy;
        if (sortBy !== undefined && sortBy !== 'count' && sortBy !== 'alpha')
          throw new EngineError(`Invalid value for parameter "sortFacetValuesBy": expected 'count' or 'alpha'`);
        const { facets, stats } = this.facets(facetNames, exec.candidates, maxValues, sortBy === 'alpha');
        response.facets = facets;
        if (Object.keys(stats).length) response.facets_stats = stats;
        response.exhaustiveFacetsCount = true;
      }
      response.exhaustive = { nbHits: true, facetsCount: true, typo: true };
      response.processingTimeMS = Math.round(performance.now() - t0);
      return response;
    } finally {
      this.release(exec);
    }
  }

  /**
   * Searches the values of a facet declared `searchable(...)`: values whose words start with the facet
   * query's words, counted over the records matching the other parameters.
   * @example index.searchForFacetValues('brand', 'ac', { filters: 'price < 50' })
   */
  searchForFacetValues(
    facetName: string,
    facetQuery: string,
    input: SearchParams = {},
    maxFacetHits = 10,
  ): SearchForFacetValuesResponse {
    const t0 = performance.now();
    const spec = this.facetSpecs.get(facetName);
    if (!spec?.searchable) {
      throw new EngineError(
        `Cannot search in facet "${facetName}": it must be declared as searchable(${facetName}) in attributesForFaceting`,
      );
    }
    if (!Number.isInteger(maxFacetHits) || maxFacetHits < 1 || maxFacetHits > 100) {
      throw new EngineError('Invalid value for parameter "maxFacetHits": expected an integer between 1 and 100');
    }
    const params = parseSearchParams(input as Record<string, unknown>);
    const eff = this.effective(params);
    const exec = this.execute(params, eff);
    try {
      const col = this.column(facetName);
      const counts = this.countFacet(col, exec.candidates);
      if (!col.tokens) col.tokens = col.values.map((v) => tokenize(v));
      const qWords = tokenize(String(facetQuery ?? ''));
      const found: number[] = [];
      for (let v = 0; v < counts.length; v++) {
        if (!counts[v]) continue;
        const toks = col.tokens[v]!;
        if (
          qWords.every((w, i) =>
            toks.some((t) => (i === qWords.length - 1 ? t.startsWith(w) : t === w || t.startsWith(w))),
          )
        )
          found.push(v);
      }
      found.sort((a, b) => counts[b]! - counts[a]! || (col.values[a]! < col.values[b]! ? -1 : 1));
      const facetHits = found.slice(0, maxFacetHits).map((v) => ({
        value: col.values[v]!,
        highlighted: highlightFacetValue(col.values[v]!, qWords, eff.preTag, eff.postTag),
        count: counts[v]!,
      }));
      return { facetHits, exhaustiveFacetsCount: true, processingTimeMS: Math.round(performance.now() - t0) };
    } finally {
      this.release(exec);
    }
  }

  /**
   * Browses every record matching the parameters in custom-ranking order, up to 1,000 a call; the
   * answer carries an opaque `cursor` while records remain.
   * @example let r = index.browse({ filters: 'brand:Acme' }); while (r.cursor) r = index.browse({}, r.cursor);
   */
  browse(input: SearchParams = {}, cursor?: string): SearchResponse & { cursor?: string } {
    const t0 = performance.now();
    let params: SearchParams;
    let position = 0;
    if (cursor !== undefined && cursor !== null && cursor !== '') {
      let state: { p?: unknown; o?: unknown };
      try {
        state = decodeCursor(String(cursor)) as { p?: unknown; o?: unknown };
      } catch {
        throw new EngineError('Invalid cursor');
      }
      if (typeof state.p !== 'string' || typeof state.o !== 'number' || !Number.isInteger(state.o) || state.o < 0)
        throw new EngineError('Invalid cursor');
      params = parseSearchParams(state.p);
      position = state.o;
    } else {
      params = parseSearchParams(input as Record<string, unknown>);
    }
    const eff = this.effective(params);
    const hitsPerPage = typeof params.hitsPerPage === 'number' ? params.hitsPerPage : 1000;
    if (hitsPerPage < 1)
      throw new EngineError(
        'Invalid value for parameter "hitsPerPage": expected an integer between 1 and 1000 for browse',
      );
    eff.hitsPerPage = hitsPerPage;
    eff.distinct = 0;
    const exec = this.execute(params, eff);
    try {
      const crits = this.criteria(exec, true);
      const total = exec.candidates.length;
      const end = Math.min(position + hitsPerPage, total);
      const ordered = this.rank(exec.candidates, crits, end);
      const hl = exec.words.length ? this.highlightOptions(exec) : null;
      const hits: Hit[] = [];
      for (let i = position; i < end; i++) hits.push(this.hit(ordered[i]!, exec, hl, eff.getRankingInfo));
      const response: SearchResponse & { cursor?: string } = {
        hits,
        nbHits: total,
        page: Math.floor(position / hitsPerPage),
        nbPages: Math.ceil(total / hitsPerPage),
        hitsPerPage,
        query: eff.query,
        params: encodeSearchParams(params),
        processingTimeMS: Math.round(performance.now() - t0),
        exhaustiveNbHits: true,
      };
      if (end < total) response.cursor = encodeCursor({ p: encodeSearchParams(params), o: end });
      return response;
    } finally {
      this.release(exec);
    }
  }

  /**
   * The objectIDs of the records matching the filter and geo parameters, as a search with an empty query
   * would match them (for delete by query and secured-key restrictions). Throws 400 when neither a filter
   * nor a geo parameter is given.
   * @example index.matchingObjectIDs({ filters: 'category:Books', aroundLatLng: '48.85, 2.35', aroundRadius: 1000 })
   */
  matchingObjectIDs(input: SearchParams): string[] {
    const params = parseSearchParams(input as Record<string, unknown>);
    this.refresh();
    const bits = this.filterBits(params);
    const geo = parseGeo(params);
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
      for (let id = 0; id < this.records.length; id++) if (this.alive[id]) live.push(id);
      ids = Uint32Array.from(live);
    }
    if (geo) ids = this.geoFilter(ids, geo);
    const out: string[] = [];
    for (const id of ids) {
      const r = this.records[id];
      if (r) out.push(r.objectID);
    }
    return out;
  }
}
