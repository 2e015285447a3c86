/**
 * The search path of an index: records, the inverted index, facet columns, and search with tie-breaking ranking —
 * what the browser worker of `svc-search/local` runs. The state and its upkeep are in `index-state.ts`; the reads
 * are composed here from their modules:
 *
 * - `query.ts` (parameters, query words) → `derive.ts` (query words to terms) → `matching.ts`
 *   (postings, filters from `filter-bits.ts`, geo from `geo.ts`, synonyms from `spans.ts`: optional features, see
 *   `features.ts`);
 * - `ranking.ts` (bucket sort over the criteria), `facets.ts` (counts and stats), `hits.ts`
 *   (retrieval, highlighting, ranking info).
 *
 * The service's `Index` (`search-index.ts`) adds what only a server does: settings validated on write, deletes,
 * delete by query, snapshots. See `docs/engine-background.md` and `docs/notes/engine.md` (at the repository root)
 * for the layout and why it is fast.
 */
import type { Hit, SearchForFacetValuesResponse, SearchResponse } from '../protocol/index.js';
import { EngineError } from './errors.js';
import { textsOf } from './columns.js';
import { countFacet, facetCounts, requestedFacets } from './facets.js';
import { highlightFacetValue } from './highlight.js';
import { hitOf, highlightOptions } from './hits.js';
import { IndexState, type IndexRecord } from './index-state.js';
import { feature, NO_SYNONYMS, optionalFeature, WARM_UP_AT } from './features.js';
import { execute, matchDeferred, release } from './matching.js';
import { tokenize } from './normalize.js';
import { encodeSearchParams, parseSearchParams, type SearchParams } from './params.js';
import type { SearchOptions } from './personalization.js';
import { effectiveParams } from './query.js';
import { criteria, rankDistinct } from './ranking.js';
import { cloneJson } from './record-paths.js';
import { type DictionaryReader, StandardDictionaries } from './standard-dictionaries.js';
import { defaultSettings, parseFacets, parseSearchable, parseSort, type IndexSettings } from './settings.js';
import type { Synonym } from './synonyms.js';

export type { IndexRecord } from './index-state.js';

/**
 * An index's search path: built from records with settings (validated before) and synonyms, it answers searches,
 * facet value searches and browses like the hosted API does.
 * @example
 * const index = new IndexCore('products');
 * index.applyValidSettings({ searchableAttributes: ['name', 'brand'], customRanking: ['desc(popularity)'] });
 * index.saveObjects([{ objectID: '1', name: 'Wooden chair', brand: 'Acme', popularity: 3 }]);
 * index.search({ query: 'chai' }).hits[0]._highlightResult.name.value // '<em>Chai</em>r' inside 'Wooden …'
 */
export class IndexCore {
  readonly name: string;
  protected readonly state: IndexState;
  /** Open `beginBatch` calls: the upkeep every write ends with waits for the last `endBatch`. */
  private batchDepth = 0;

  /**
   * @param options.dictionaries the service's language dictionaries (custom stop words, plurals,
   *   compounds); default: the standard entries only.
   */
  constructor(name: string, options: { dictionaries?: DictionaryReader } = {}) {
    this.name = name;
    this.state = new IndexState(options.dictionaries ?? new StandardDictionaries());
  }

  /**
   * Defers the upkeep every write ends with (freezing the new postings, sorting new terms and records
   * into the vocabulary and the orders, …) to the matching `endBatch`: a task made of many small writes
   * pays it once. Reads in between still see every write (they do the upkeep themselves).
   * @example index.beginBatch(); try { for (const r of records) index.saveObjects([r]); } finally { index.endBatch(); }
   */
  beginBatch(): void {
    this.batchDepth++;
  }

  /** Ends a `beginBatch`; the last one does the deferred upkeep. */
  endBatch(): void {
    if (this.batchDepth === 0) return;
    this.batchDepth--;
    this.settle();
  }

  /**
   * The upkeep of a write, unless a batch defers it: the next read then finds nothing to do. The first
   * write that makes an index large also compiles the search code (`warm-up.ts`).
   */
  protected settle(): void {
    if (this.batchDepth > 0) return;
    this.state.refresh();
    // the warm-up searches an index of this one's class (the service's `Index`, the worker's `IndexCore`): the code
    // it compiles is then specialised for the indices that follow, not deoptimised by the first of another class
    if (this.state.liveCount >= WARM_UP_AT)
      optionalFeature('warmUp')?.warmUp(this.constructor as new (name: string) => IndexCore);
  }

  /** Number of records. */
  get size(): number {
    return this.state.liveCount;
  }

  // ---------------------------------------------------------------- settings

  /** The full settings, defaults included (a copy). */
  getSettings(): IndexSettings {
    return structuredClone(this.state.settings);
  }

  /**
   * One setting (its default when unset), a copy: what a search reads of the settings, without the copy of
   * every setting {@link getSettings} makes.
   * @example index.getSetting('unretrievableAttributes') // []
   */
  getSetting<K extends keyof IndexSettings & string>(name: K): IndexSettings[K] {
    // Settings are JSON: `cloneJson` copies a small value for a fraction of what `structuredClone` costs.
    return cloneJson(this.state.settings[name]) as IndexSettings[K];
  }

  /**
   * Applies settings validated before (by `validateSettings`, or by the service that exported a `.svcidx`):
   * what `setSettings` does after its validation. `null` resets a setting.
   * @example index.applyValidSettings(bundleIndex.settings)
   */
  applyValidSettings(valid: Partial<IndexSettings>): void {
    const defaults = defaultSettings();
    const before = this.state.settings;
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
    this.state.settings = next;
    if (JSON.stringify(before.searchableAttributes) !== JSON.stringify(next.searchableAttributes)) {
      if (this.state.records.length > 0) this.state.needsReindex = true;
      else this.state.dynamicRanks.clear();
    }
    this.applyDerivedSettings();
    this.state.columns.clear();
    this.state.orders.clear();
    this.state.filterCache.clear();
    this.state.version++;
    this.settle();
  }

  private applyDerivedSettings(): void {
    const s = this.state.settings;
    this.state.searchable = s.searchableAttributes.length ? parseSearchable(s.searchableAttributes) : null;
    this.state.facetSpecs = parseFacets(s.attributesForFaceting);
    this.state.customSpecs = s.customRanking.map((c) => parseSort(c)!).filter(Boolean);
  }

  // ---------------------------------------------------------------- synonyms

  /** Replaces the synonyms of the index (the service validates them); rebuilds the expansion map. */
  setSynonyms(synonyms: readonly Synonym[]): void {
    this.state.synonymList = structuredClone([...synonyms]);
    // synonyms are a feature of their own (`features.ts`), loaded for an index that has some
    this.state.expansion =
      this.state.synonymList.length > 0 ? feature('synonyms').buildExpansion(this.state.synonymList) : NO_SYNONYMS;
    this.state.deriveCache.clear();
    this.state.placeholderCache.clear();
    this.state.alternativeCache.clear();
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
    const state = this.state;
    if (state.records.length + records.length > state.capacity) state.grow(state.records.length + records.length);
    const tokens = state.postings.tokUsed;
    const postings = state.postings.pendingCount;
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      const old = state.byObjectID.get(r.objectID);
      if (old !== undefined) state.removeId(old);
      state.addRecord(r as IndexRecord);
      // a large write: room for the rest, sized on its first records
      if (i === 1023 && records.length > 4096)
        state.postings.reserve(
          records.length - 1024,
          1024,
          state.postings.tokUsed - tokens,
          state.postings.pendingCount - postings,
        );
    }
    this.state.version++;
    // the write's lazy work is done now, inside the write, not by the next search
    this.settle();
  }

  getObject(objectID: string): IndexRecord | undefined {
    const id = this.state.byObjectID.get(objectID);
    return id === undefined ? undefined : this.state.records[id];
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
    const eff = effectiveParams(this.state.settings, params);
    // a one-word query's matching waits: `rankOneWord` (an optional feature: the worker loads it for a large
    // index) may answer it without a match word per record, and a query of several words by walking the custom
    // order (`many-words.ts`)
    const walks = optionalFeature('orderWalks');
    const exec = execute(this.state, params, eff, walks !== undefined);
    try {
      const personalization = options?.personalization;
      if (personalization && personalization.impact > 0)
        exec.personal = {
          filtersScore: feature('personalization').personalScorer(this.state, personalization),
          impact: Math.min(100, personalization.impact),
        };
      const limit = this.state.settings.paginationLimitedTo;
      const hitsPerPage = eff.hitsPerPage;
      const useOffset = typeof params.offset === 'number';
      const offset = useOffset ? (params.offset as number) : ((params.page as number | undefined) ?? 0) * hitsPerPage;
      const length = useOffset ? ((params.length as number | undefined) ?? hitsPerPage) : hitsPerPage;
      const end = Math.min(offset + length, limit);
      if (params.optionalFilters !== undefined) {
        const { buildOptionalFilters, evaluateFilter } = feature('filters');
        exec.optional = buildOptionalFilters(params.optionalFilters).map((node) => evaluateFilter(this.state, node));
      }
      const crits = criteria(this.state, exec, false);
      // distinct ranks every candidate: the general path
      const distinct = exec.eff.distinct && this.state.settings.attributeForDistinct;
      const onBits = walks && !distinct ? walks.rankOneWord(this.state, exec, crits, end) : null;
      if (!onBits) matchDeferred(this.state, exec);
      const { ordered, nbHits } = onBits ?? rankDistinct(this.state, exec, crits, end);
      const hl = exec.words.length ? highlightOptions(this.state, exec) : null;
      const hits: Hit[] = [];
      for (let i = offset; i < end && i < ordered.length; i++)
        hits.push(hitOf(this.state, ordered[i]!, exec, hl, eff.getRankingInfo));
      const maxValues = (params.maxValuesPerFacet as number | undefined) ?? this.state.settings.maxValuesPerFacet;
      const facetNames = requestedFacets(this.state, params.facets);
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
        // `sortFacetValuesBy`: 'count' or 'alpha', checked with the other parameters (the protocol's table)
        const alpha = params.sortFacetValuesBy === 'alpha';
        const { facets, stats } = facetCounts(this.state, facetNames, exec.candidates, maxValues, alpha);
        response.facets = facets;
        if (Object.keys(stats).length) response.facets_stats = stats;
        response.exhaustiveFacetsCount = true;
      }
      response.exhaustive = { nbHits: true, facetsCount: true, typo: true };
      response.processingTimeMS = Math.round(performance.now() - t0);
      return response;
    } finally {
      release(this.state, exec);
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
    const spec = this.state.facetSpecs.get(facetName);
    if (!spec?.searchable) {
      throw new EngineError(
        `Cannot search in facet "${facetName}": it must be declared as searchable(${facetName}) in attributesForFaceting`,
      );
    }
    if (!Number.isInteger(maxFacetHits) || maxFacetHits < 1 || maxFacetHits > 100) {
      throw new EngineError('Invalid value for parameter "maxFacetHits": expected an integer between 1 and 100');
    }
    const params = parseSearchParams(input as Record<string, unknown>);
    const eff = effectiveParams(this.state.settings, params);
    const exec = execute(this.state, params, eff);
    try {
      const col = textsOf(this.state.column(facetName));
      const counts = countFacet(col, exec.candidates);
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
      release(this.state, exec);
    }
  }

  /**
   * Browses every record matching the parameters in custom-ranking order, up to 1,000 a call; the
   * answer carries an opaque `cursor` while records remain (`browse.ts`: a feature of its own, which the
   * browser worker loads with the first browse).
   * @example let r = index.browse({ filters: 'brand:Acme' }); while (r.cursor) r = index.browse({}, r.cursor);
   */
  browse(input: SearchParams = {}, cursor?: string): SearchResponse & { cursor?: string } {
    return feature('browse').browse(this.state, input, cursor);
  }
}
