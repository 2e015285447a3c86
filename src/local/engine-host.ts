/**
 * The search API answered in process from exported indices (`.svcidx` bundles): what the browser worker of
 * `svc-search/local` runs. A search goes the way the service's does (`service/src/http/search.ts`): the
 * index's rules first (`applyRules`, pinned records with `searchWithPins`), then the engine, then
 * `userData`, `renderingContent`, `appliedRules` and a `queryID` with `clickAnalytics` — the same engine and
 * rule code. What the service adds from its other areas (API keys, Analytics, A/B tests, Personalization) has
 * no place without a server. Recommend answers come from the lists the export computed.
 */
import { EngineError, SnapshotError } from '../engine/errors.js';
import { checkResponseFields, skippedAnswer, withResponseFields } from '../engine/response-fields.js';
import { parseSearchParams } from '../engine/params.js';
import type { AppliedRules, RawParams, Rule } from '../engine/rules.js';
import { type IndexRecord, IndexCore } from '../engine/index-core.js';
import type { IndexSettings } from '../engine/settings.js';
import { feature } from '../engine/features.js';
import type { IndexBundle } from '../engine/bundle.js';
import { isFromFile, type ReadBundle } from '../engine/bundle-read.js';
import { loadBrowse, loadForBundle, loadForRequests, WorkerDictionaries } from './on-demand.js';
import { flag, LocalError, type LocalRecommendRequest, newQueryID, toSearchParams } from './shared.js';
import type { ObjectRequest, Recommendations } from './recommend.js';

export { LocalError, type LocalRecommendRequest } from './shared.js';

/** One request of a multi-query, as the wire sends it (`params` the URL-encoded string). */
export interface LocalQuery {
  indexName: string;
  params?: string | RawParams;
  type?: 'default' | 'facet';
  facet?: string;
}

/**
 * A request's `params` (the URL-encoded string the client sends, or an object) as raw parameters. A request of the
 * local client has no other parameter fields to merge in, as the service's `rawParams` does for the wire's.
 */
function rawParamsOf(params: string | RawParams | undefined): RawParams {
  return typeof params === 'string' ? (parseSearchParams(params) as RawParams) : { ...(params ?? {}) };
}

interface LoadedIndex {
  index: IndexCore;
  rules: Rule[];
  /** Read from a file (its settings and rules validated by the service), not given in code. */
  trusted: boolean;
  /** The primary whose Recommend answers serve this index. */
  primary: string;
}

/**
 * Indices loaded from bundles, searched with the engine.
 *
 * @example
 * const engine = new LocalEngine();
 * await engine.load(await decodeBundle(bytes));
 * engine.multiSearch([{ indexName: 'products', params: 'query=chiar' }]).results[0].hits;
 */
export class LocalEngine {
  readonly #indices = new Map<string, LoadedIndex>();
  /** Replicas not built yet: built on their first search. */
  readonly #pending = new Map<string, () => LoadedIndex>();
  /** Per primary index name, its Recommend lists: as the file stores them until the first Recommend request. */
  readonly #recommendations = new Map<string, Recommendations>();
  /** The rules code (`applyRules`, `searchWithPins`), a chunk of its own, imported by the first bundle with rules. */
  #rules: typeof import('../engine/rules.js') | null = null;
  /** One dictionary set shared by every index, as in the service (standard entries and the files' custom ones). */
  readonly #dictionaries = new WorkerDictionaries();

  /**
   * Why an index was built from its records although its bundle carried the engine's structures (a snapshot of
   * another engine version, of other settings, or damaged), per index name: the index still answers, it only took
   * the time of a build.
   */
  readonly rebuilt = new Map<string, string>();

  /**
   * Loads the indices of a bundle; returns their names. A primary is restored from the bundle's structures when
   * it carries them (`fromSnapshot`), else built from its records; a replica (same records, its own
   * ranking) when it is first searched — from its primary's structures when its searchable attributes and
   * languages are the primary's — so a page that never sorts never pays for it.
   */
  async load(bundle: IndexBundle | ReadBundle): Promise<string[]> {
    // the restore code is a chunk of its own, fetched only for a file that carries structures
    const restorer = bundle.indices.some((entry) => entry.structures) ? await import('../engine/snapshot.js') : null;
    // so is the rules code, for a file with rules
    if (!this.#rules && bundle.indices.some((entry) => entry.rules.length > 0))
      this.#rules = await import('../engine/rules.js');
    // A file's settings and rules were validated by the service (its settings when it exported them, a rule's
    // `renderingContent` when it saved the rule), and `decodeBundle` checked the file's format version and
    // integrity: they are applied as they are. Settings and rules given in code are validated (the validation is a
    // chunk of its own, fetched then).
    const fromCode = !isFromFile(bundle);
    // The application's custom dictionaries (stop words, plurals, compounds), before any index is built with them.
    if (bundle.dictionaries) await this.#dictionaries.add(bundle.dictionaries, fromCode);
    // the engine's optional features this file uses (synonyms, filters and geo in rules, language tables, the warm-up) and
    // the settings validation for settings given in code
    await loadForBundle(bundle, fromCode);
    const primaries = new Map(bundle.indices.filter((entry) => entry.records).map((entry) => [entry.name, entry]));
    const names: string[] = [];
    for (const entry of bundle.indices) {
      const primary = primaries.get(entry.replicaOf ?? entry.name);
      const records = (primary?.records ?? []) as IndexRecord[];
      const { replicas: _replicas, primary: _primary, ...given } = entry.settings;
      const settings = fromCode
        ? feature('settingsValidation').validateSettings(given)
        : (given as Partial<IndexSettings>);
      const build = (): LoadedIndex => {
        const loaded = { rules: entry.rules, primary: entry.replicaOf ?? bundle.name, trusted: !fromCode };
        const snapshot = entry.structures ?? primary?.structures;
        if (snapshot && restorer) {
          try {
            const index = restorer.fromSnapshot(
              entry.name,
              { settings, synonyms: entry.synonyms, records, snapshot },
              { dictionaries: this.#dictionaries },
            );
            this.rebuilt.delete(entry.name);
            return { ...loaded, index };
          } catch (error) {
            if (!(error instanceof SnapshotError)) throw error;
            // A replica ranks with other searchable attributes than its primary: its build is expected.
            if (entry.structures || !entry.replicaOf) this.rebuilt.set(entry.name, error.message);
          }
        }
        const index = new IndexCore(entry.name, { dictionaries: this.#dictionaries });
        index.beginBatch();
        index.applyValidSettings(settings);
        if (entry.synonyms.length > 0) index.setSynonyms(entry.synonyms);
        index.saveObjects(records);
        index.endBatch();
        return { ...loaded, index };
      };
      if (entry.replicaOf) this.#pending.set(entry.name, build);
      else this.#indices.set(entry.name, build());
      names.push(entry.name);
    }
    for (const [name, lists] of Object.entries('recommendations' in bundle ? (bundle.recommendations ?? {}) : {}))
      this.#recommendations.set(name, { lists });
    // a file's lists as it stores them, read with the first Recommend request (by the Recommend chunk)
    for (const [name, stored] of Object.entries(
      'storedRecommendations' in bundle ? (bundle.storedRecommendations ?? {}) : {},
    ))
      this.#recommendations.set(name, { stored, records: primaries.get(name)?.records ?? [] });
    return names;
  }

  /**
   * Loads what answering a call needs beyond the engine's start, before it is answered: browsing for a browse, the
   * filters for a request that filters, geo search for a request with a geo area, the standard stop words and plural rules for one with `removeStopWords` or `ignorePlurals`,
   * the settings validation for one that gives `renderingContent` (checked as the service checks it). The worker
   * calls it before each call; a request that needs none of them fetches nothing.
   *
   * @example
   * await engine.prepare('multiSearch', [requests]);
   * engine.multiSearch(requests);
   */
  async prepare(method: string, args: readonly unknown[]): Promise<void> {
    const given: RawParams[] = [];
    if (method === 'multiSearch')
      for (const request of args[0] as LocalQuery[]) given.push(rawParamsOf(request.params));
    if (method === 'search' || method === 'browse') given.push((args[1] ?? {}) as RawParams);
    if (method === 'searchForFacetValues') given.push((args[2] ?? {}) as RawParams);
    if (method === 'recommend')
      for (const request of args[0] as LocalRecommendRequest[])
        given.push(request.queryParameters ?? {}, request.fallbackParameters ?? {});
    const loads = [loadForRequests(given)];
    if (method === 'browse') loads.push(loadBrowse());
    await Promise.all(loads);
  }

  /** The names of the loaded indices. */
  names(): string[] {
    return [...this.#indices.keys(), ...this.#pending.keys()];
  }

  #require(indexName: string): LoadedIndex {
    let loaded = this.#indices.get(indexName);
    const build = this.#pending.get(indexName);
    if (!loaded && build) {
      loaded = build();
      this.#indices.set(indexName, loaded);
      this.#pending.delete(indexName);
    }
    if (!loaded) throw new LocalError(404, `Index ${indexName} does not exist`);
    return loaded;
  }

  /** One search, as `POST /1/indexes/{indexName}/query`: with only the fields its `responseFields` names. */
  search(indexName: string, input: RawParams): Record<string, unknown> {
    const { response, fields } = this.#search(indexName, input);
    return withResponseFields(response, fields);
  }

  /** A search's whole answer, and the `responseFields` (checked) to shape it with once complete. */
  #search(indexName: string, input: RawParams): { response: Record<string, unknown>; fields: unknown } {
    const { index, rules: indexRules, trusted } = this.#require(indexName);
    // with no rules, `applyRules` changes nothing: the parameters as given, no pins, no rule applied
    const rules: AppliedRules =
      this.#rules && indexRules.length > 0
        ? this.#rules.applyRules(indexRules, input)
        : { raw: input, filterPromotes: false, pins: [], userData: [], appliedRules: [] };
    const raw = rules.raw;
    // the request's own `renderingContent` is checked (a rule's, which replaces it, was checked when it was saved)
    const check = !trusted || raw.renderingContent === input.renderingContent;
    const renderingContent = this.#renderingContent(raw, index, check);
    const fields = toSearchParams({ responseFields: raw.responseFields }).responseFields;
    checkResponseFields(fields);
    const engineSearch = (params: RawParams) => index.search(toSearchParams(params)) as never;
    const response = (this.#rules && rules.pins.length > 0
      ? this.#rules.searchWithPins(index, raw, rules.pins, engineSearch, {
          filterPromotes: rules.filterPromotes,
          filters: rules.filters,
        })
      : index.search(toSearchParams(raw))) as unknown as Record<string, unknown>;
    if (rules.userData.length > 0) response.userData = rules.userData;
    if (renderingContent) response.renderingContent = renderingContent;
    if (rules.appliedRules.length > 0) response.appliedRules = rules.appliedRules;
    if (flag(raw.clickAnalytics)) response.queryID = newQueryID();
    return { response, fields };
  }

  #renderingContent(raw: RawParams, index: IndexCore, check: boolean): Record<string, unknown> | undefined {
    if (raw.renderingContent !== undefined && raw.renderingContent !== null) {
      const given = toSearchParams({ renderingContent: raw.renderingContent }).renderingContent;
      if (!check) return given as Record<string, unknown>;
      return feature('settingsValidation').validateSettingValue('renderingContent', given) as Record<string, unknown>;
    }
    // One setting copied, as the service's pipeline does, not a copy of every setting per search.
    const setting = index.getSetting('renderingContent') as Record<string, unknown> | null | undefined;
    return setting ?? undefined;
  }

  /** Facet value search, as `POST /1/indexes/{indexName}/facets/{facetName}/query`. */
  searchForFacetValues(indexName: string, facetName: string, input: RawParams): Record<string, unknown> {
    const { index } = this.#require(indexName);
    const facetQuery = input.facetQuery ?? '';
    if (typeof facetQuery !== 'string') throw new LocalError(400, '`facetQuery` must be a string');
    let maxFacetHits = 10;
    if (input.maxFacetHits !== undefined) {
      maxFacetHits = Number(input.maxFacetHits);
      if (!Number.isInteger(maxFacetHits) || maxFacetHits < 1 || maxFacetHits > 100) {
        throw new LocalError(400, '`maxFacetHits` must be an integer from 1 to 100');
      }
    }
    const { facetQuery: _q, maxFacetHits: _m, page: _p, hitsPerPage: _h, facet: _f, type: _t, ...rest } = input;
    return index.searchForFacetValues(facetName, facetQuery, toSearchParams(rest), maxFacetHits) as never;
  }

  /** A multi-query, as `POST /1/indexes/*\/queries` (strategy `none` or `stopIfEnoughMatches`). */
  multiSearch(requests: LocalQuery[], strategy = 'none'): { results: Array<Record<string, unknown>> } {
    let enough = false;
    const results = requests.map(({ indexName, params, type, facet }) => {
      const raw = rawParamsOf(params);
      // As the service: once enough hits came, every later request is skipped, a facet value search too.
      if (enough) return skippedAnswer(indexName, raw);
      if (type === 'facet') return { ...this.searchForFacetValues(indexName, facet ?? '', raw), index: indexName };
      const { response, fields } = this.#search(indexName, raw);
      const { nbHits, hitsPerPage } = response as { nbHits: number; hitsPerPage: number };
      if (strategy === 'stopIfEnoughMatches' && nbHits >= hitsPerPage) enough = true;
      return withResponseFields({ ...response, index: indexName }, fields);
    });
    return { results };
  }

  /**
   * Records by objectID, as `POST /1/indexes/*\/objects` (null for one not found). The code is in the Recommend chunk
   * (`recommend.ts`, which projects records alike), fetched by the first such call: a page of search elements never
   * makes one.
   */
  async getObjects(requests: ObjectRequest[]): Promise<{ results: Array<RawParams | null> }> {
    const { getObjects } = await import('./recommend.js');
    return { results: getObjects(requests, (indexName) => this.#require(indexName).index) };
  }

  /** One page of a browse, as `POST /1/indexes/{indexName}/browse` (the engine's cursor). */
  browse(indexName: string, input: RawParams): Record<string, unknown> {
    const { index } = this.#require(indexName);
    const { cursor, ...rest } = input;
    if (cursor !== undefined && typeof cursor !== 'string') throw new LocalError(400, '`cursor` must be a string');
    const fields = toSearchParams({ responseFields: rest.responseFields }).responseFields;
    checkResponseFields(fields);
    return withResponseFields(index.browse(toSearchParams(rest), cursor) as never, fields);
  }

  /**
   * Recommend requests, as `POST /1/indexes/*\/recommendations`, from the exported lists. The Recommend code is a
   * chunk of its own (`recommend.ts`), fetched by the first Recommend request: a page without Recommend elements
   * never loads it.
   */
  async recommend(requests: LocalRecommendRequest[]): Promise<{ results: Array<Record<string, unknown>> }> {
    const { recommendOne } = await import('./recommend.js');
    return {
      results: requests.map((request) => {
        const { index, primary } = this.#require(request.indexName);
        return recommendOne(request, index, this.#recommendations.get(primary));
      }),
    };
  }
}

/** The status of an error thrown while answering: the engine's and ours as given, anything else 500. */
export function statusOf(error: unknown): number {
  if (error instanceof LocalError || error instanceof EngineError) return error.status;
  return 500;
}
