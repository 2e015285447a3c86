/**
 * The storage interface of the service: every durable thing, one interface per area, each method
 * Promise-based so a backend with an asynchronous driver (PostgreSQL through node-postgres) can implement
 * it as well as SQLite (better-sqlite3, the default: `sqlite/`). The hot search path never reads storage:
 * the engine's indices, rules, synonyms, dictionaries, keys and A/B tests live in memory and are loaded from
 * here at start.
 *
 * State writes go through one place, the task queue (`tasks/queue.ts`): a write is an ordered list of
 * {@link Change}s committed in one transaction with its task rows ({@link TaskStore.commit}); a backend with
 * several replicas puts its ordered task log under that call, and each replica applies the same changes to
 * its memory. Append-only logs (Insights events, the search log, Analytics searches, Usage calls) and the
 * work state of background jobs (Query Suggestions builds, crawls) are written through their own stores.
 *
 * Types only: no module of this folder imports a domain module (the engine's types are the exception: a
 * synonym or a dictionary entry is stored as the engine reads it).
 */
import type { DictionaryName, EntryOf, Synonym } from '../engine/index.js';

// ---- the catalog: indices, records, rules, synonyms ----------------------------------------------------

export type StoredRecord = Record<string, unknown> & { objectID: string };

/** A rule (document 1, Rules): validated by the rules module, stored as given. */
export interface Rule {
  objectID: string;
  conditions?: Array<{
    pattern?: string;
    anchoring?: 'is' | 'startsWith' | 'endsWith' | 'contains';
    context?: string;
    alternatives?: boolean;
  }>;
  consequence: {
    params?: Record<string, unknown>;
    promote?: Array<{ objectID?: string; objectIDs?: string[]; position: number }>;
    hide?: Array<{ objectID: string }>;
    userData?: unknown;
    filterPromotes?: boolean;
  };
  description?: string;
  enabled?: boolean;
  validity?: Array<{ from: number; until: number }>;
  [field: string]: unknown;
}

export interface IndexMeta {
  name: string;
  /** Settings as given (accumulated partial updates), without `replicas`/`primary`. */
  settings: Record<string, unknown>;
  primary?: string;
  replicas: string[];
  /** Unix ms. */
  createdAt: number;
  updatedAt: number;
}

/** The three kinds of objects an index holds, each keyed by its `objectID` in the order first saved. */
export interface ItemOf {
  records: StoredRecord;
  rules: Rule;
  synonyms: Synonym;
}
export type ItemKind = keyof ItemOf;

export type CatalogChange =
  | { area: 'catalog'; type: 'putIndex'; meta: IndexMeta }
  /** The index row and every record, rule and synonym of the index. */
  | { area: 'catalog'; type: 'dropIndex'; name: string }
  /**
   * Adds or replaces objects (a replaced object keeps its place in the order; of two items with one
   * objectID the later wins). `texts`, when given, is each item's JSON in the same order (the writer
   * serialised them already): a store may keep these instead of serialising again.
   */
  | {
      area: 'catalog';
      type: 'putItems';
      kind: ItemKind;
      indexName: string;
      items: ReadonlyArray<ItemOf[ItemKind]>;
      texts?: readonly string[];
    }
  | { area: 'catalog'; type: 'deleteItems'; kind: ItemKind; indexName: string; objectIDs: readonly string[] }
  | { area: 'catalog'; type: 'clearItems'; kind: ItemKind; indexName: string };

export interface CatalogStore {
  /** Every index, by name. */
  indices(): Promise<IndexMeta[]>;
  index(name: string): Promise<IndexMeta | undefined>;
  /** The objects of one kind of an index, in the order they were first saved. */
  items<K extends ItemKind>(kind: K, indexName: string): Promise<Array<ItemOf[K]>>;
  /** Stored bytes of each index's records (their JSON). */
  dataSizes(): Promise<Map<string, number>>;
  /**
   * What Usage reports of the stored records (of one index, or all): how many, their UTF-8 bytes, and the
   * UTF-8 bytes of the settings; `undefined` for an index that does not exist.
   */
  sizes(indexName?: string): Promise<{ records: number; recordBytes: number; settingsBytes: number } | undefined>;
}

// ---- tasks: the one write path --------------------------------------------------------------------------

export interface TaskHeader {
  /** The index the task is reported under (`'*'` for application-wide writes). */
  indexName: string;
  /** What the write was (`addObject`, `settings`, `dictionaries:stopwords`, …). */
  kind: string;
}

/** Every state change a write can commit. */
export type Change =
  | CatalogChange
  | DictionaryChange
  | KeyChange
  | AbTestChange
  | PersonalizationChange
  | ClusterChange
  | CrawlerChange;

export interface TaskStore {
  /**
   * Commits one write: its task rows (one per header, in order) and its changes (in order), in one
   * transaction; the tasks are published in it, so a published task is durable and visible. Resolves with
   * the task ids and one result per change (the id an A/B test insert was given; `undefined` otherwise).
   */
  commit(
    tasks: readonly TaskHeader[],
    changes: readonly Change[],
    at: number,
  ): Promise<{ taskIDs: number[]; results: unknown[] }>;
  status(taskID: number): Promise<{ indexName: string; published: boolean } | undefined>;
  /**
   * Present when several processes share the storage (PostgreSQL replicas): runs one write (its `build` and
   * its `commit`) in the cluster's write turn, this process's memory first caught up with the others' writes,
   * so every process applies the writes in the same order.
   */
  exclusive?<T>(write: () => Promise<T>): Promise<T>;
}

// ---- dictionaries --------------------------------------------------------------------------------------

export type DictionaryChange =
  /** A batch: `clear` removes every custom entry first; `put` entries move to the end of the order. */
  | {
      area: 'dictionaries';
      type: 'batch';
      dictionary: DictionaryName;
      clear: boolean;
      put: ReadonlyArray<EntryOf[DictionaryName]>;
      delete: readonly string[];
    }
  /** `disableStandardEntries.stopwords`: true disables a language, false enables it; `null` enables all. */
  | { area: 'dictionaries'; type: 'stopwords'; change: Readonly<Record<string, boolean>> | null };

export interface DictionaryStore {
  entries<N extends DictionaryName>(dictionary: N): Promise<Array<EntryOf[N]>>;
  /** Languages whose standard stop words are disabled. */
  disabledStopwords(): Promise<string[]>;
}

// ---- API keys ----------------------------------------------------------------------------------------

export interface StoredKey {
  value: string;
  acl: string[];
  description: string;
  /** Seconds; 0 = no limit. */
  validity: number;
  maxHitsPerQuery: number;
  maxQueriesPerIPPerHour: number;
  queryParameters: string;
  referers: string[];
  /** Index name patterns (`prefix*`, `*suffix`); undefined = every index. */
  indexes?: string[];
  /** Set on index-specific keys (`/1/indexes/{indexName}/keys`). */
  index?: string;
  /** Unix ms (of the creation, or of the last update that set `validity`). */
  createdAt: number;
  /** Unix ms when deleted (restorable), undefined while live. */
  deletedAt?: number;
}

export type KeyChange =
  | { area: 'keys'; type: 'put'; key: StoredKey }
  /** Expired keys are gone for good (not restorable). */
  | { area: 'keys'; type: 'purge'; values: readonly string[] };

export interface KeyStore {
  /** Every key, deleted ones included. */
  all(): Promise<StoredKey[]>;
}

// ---- A/B tests ---------------------------------------------------------------------------------------

export type AbTestStatus = 'active' | 'stopped' | 'expired';

/** A variant as created (document 2: index, trafficPercentage, description, customSearchParameters). */
export interface AbTestVariantConfig {
  index: string;
  trafficPercentage: number;
  description?: string;
  customSearchParameters?: Record<string, unknown>;
}

export interface StoredAbTest {
  abTestID: number;
  name: string;
  status: AbTestStatus;
  /** Unix ms (the service clock). */
  createdAt: number;
  /** Unix ms, UTC. */
  endAt: number;
  /** Unix ms when stopped (`POST …/stop`), else undefined. */
  stoppedAt?: number;
  variants: [AbTestVariantConfig, AbTestVariantConfig];
}

export type AbTestChange =
  /** Result: the new test's id (never given again, even after a delete). */
  | { area: 'abTests'; type: 'insert'; test: Omit<StoredAbTest, 'abTestID' | 'stoppedAt'> }
  | { area: 'abTests'; type: 'status'; abTestID: number; status: AbTestStatus; stoppedAt?: number }
  /** The test goes; the Analytics searches recorded for it stay, without their test and variant. */
  | { area: 'abTests'; type: 'remove'; abTestID: number };

export interface AbTestStore {
  /** Every test, oldest first. */
  all(): Promise<StoredAbTest[]>;
}

// ---- Personalization ---------------------------------------------------------------------------------

export type PersonalizationEventType = 'click' | 'conversion' | 'view';

/** The strategy as the document's resource table gives it. */
export interface PersonalizationStrategy {
  eventsScoring: Array<{ eventName: string; eventType: PersonalizationEventType; score: number }>;
  facetsScoring: Array<{ facetName: string; score: number }>;
  personalizationImpact: number;
}

export type PersonalizationChange =
  | { area: 'personalization'; type: 'strategy'; strategy: PersonalizationStrategy; at: number }
  /** A deleted profile: the user's events up to `until` (Unix ms) are ignored from now on. */
  | { area: 'personalization'; type: 'deleted'; userToken: string; until: number };

export interface PersonalizationStore {
  strategy(): Promise<PersonalizationStrategy | undefined>;
  /** userToken → deletedUntil (Unix ms). */
  deletions(): Promise<Map<string, number>>;
}

// ---- multi-cluster mapping ---------------------------------------------------------------------------

export type ClusterChange =
  /** Re-assigning a user keeps its first `createdAt`. */
  | { area: 'clusters'; type: 'assign'; userIDs: readonly string[]; clusterName: string; at: number }
  /** The user and its record ownership go (the records stay in their indices). */
  | { area: 'clusters'; type: 'remove'; userID: string }
  /** Records written: they belong to `userID`, or to no one without it. */
  | { area: 'clusters'; type: 'own'; indexName: string; objectIDs: readonly string[]; userID: string | undefined };

export interface ClusterStore {
  /** Every mapped user, by user ID. */
  users(): Promise<Array<{ userID: string; clusterName: string; createdAt: number }>>;
  /** Which user each owned record belongs to (all users, or one). */
  owned(userID?: string): Promise<Array<{ indexName: string; objectID: string; userID: string }>>;
}

// ---- the search log (searches answered with clickAnalytics) --------------------------------------------

/** One search answered with `clickAnalytics`, kept so that Insights events can refer to its queryID. */
export interface SearchLogEntry {
  queryID: string;
  indexName: string;
  query: string;
  page: number;
  hitsPerPage: number;
  objectIDs: string[];
  userToken?: string;
  /** Unix ms. */
  createdAt: number;
}

export interface SearchLogStore {
  record(entry: SearchLogEntry): Promise<void>;
  get(queryID: string): Promise<SearchLogEntry | undefined>;
  /** Removes a user token from the logged searches (they stay, without it). */
  forgetUser(userToken: string): Promise<void>;
  /**
   * How many logged searches carry a user token: a maintenance read (what is still kept of a user after
   * `DELETE /1/usertokens/{userToken}`).
   */
  countOfUser(userToken: string): Promise<number>;
}

// ---- Insights events -------------------------------------------------------------------------------------

export type StoredEventType = 'click' | 'conversion' | 'view';

/** The search an event's queryID refers to (from the search log), if the service answered it. */
export interface EventSearchRow {
  /** The index the search ran on (a replica when sorted). */
  indexName: string;
  query: string;
  /** When the search was answered (ms). */
  at: number;
  /** Position of each objectID in that answer (1-based, across pages), `null` when not among its hits. */
  positions: Array<number | null>;
}

export interface EventRow {
  id: number;
  eventType: StoredEventType;
  eventName: string;
  index: string;
  userToken: string;
  /** The event's time: its own timestamp, else the time of receipt. */
  timestamp: number;
  receivedAt: number;
  queryID?: string;
  objectIDs?: string[];
  filters?: string[];
  positions?: number[];
  search?: EventSearchRow;
}

export type NewEvent = Omit<EventRow, 'id'> & {
  /** Identifies a re-sent event (same fields, same client timestamp): stored once. `null`: never a duplicate. */
  fingerprint: string | null;
};

export interface EventFilter {
  index?: string | undefined;
  eventType?: StoredEventType | undefined;
  eventName?: string | undefined;
  userToken?: string | undefined;
  queryID?: string | undefined;
  /** Events with `timestamp >= since` (ms). */
  since?: number | undefined;
  /** Events with `timestamp < until` (ms). */
  until?: number | undefined;
  /** At most this many (oldest first); all when omitted. */
  limit?: number | undefined;
}

export interface EventStore {
  /** Stores events in one transaction; the id of each, `undefined` for a re-sent duplicate (skipped). */
  append(events: readonly NewEvent[]): Promise<Array<number | undefined>>;
  /** Events matching every criterion, oldest first (by timestamp, then id). */
  query(filter: EventFilter): Promise<EventRow[]>;
  count(filter: Omit<EventFilter, 'limit'>): Promise<number>;
  /** Deletes every event of a user token; how many. */
  deleteUser(userToken: string): Promise<number>;
  /** How many events of a user are later than `after` (ms), and the latest one's timestamp. */
  latestOf(userToken: string, after: number): Promise<{ count: number; latest: number | undefined }>;
  /** The demo order history of an index: when it was seeded (its events' time of receipt), if it was. */
  demoSeed(indexName: string): Promise<{ seededAt: number } | undefined>;
  /** Seeds the demo order history (the events and the seed mark, one transaction); how many were stored. */
  seedDemo(indexName: string, events: readonly NewEvent[], at: number): Promise<number>;
  /** The seeded demo events (conversions named `eventName`, received at the seed time), oldest first. */
  demoEvents(indexName: string, eventName: string): Promise<EventRow[]>;
  /** Replaces the seeded demo events by `events` (one transaction). */
  replaceDemoEvents(indexName: string, eventName: string, events: readonly NewEvent[]): Promise<void>;
}

// ---- Analytics -------------------------------------------------------------------------------------------

/** How a filter was applied: the operators of the hosted Analytics API. */
export type FilterOperator = ':' | '<' | '<=' | '=' | '!=' | '>' | '>=';

export interface AnalyticsFilter {
  attribute: string;
  operator: FilterOperator;
  value: string;
}

/** One search as the Analytics API sees it. */
export interface AnalyticsSearch {
  indexName: string;
  /** When it was answered (Unix ms, the service clock). */
  ts: number;
  /** The user's input, as sent. */
  query: string;
  nbHits: number;
  /** The search's userToken, else the `X-Service-UserToken` header, else the client IP (`anonymous`). */
  userKey: string;
  /** True when `userKey` is the client IP (no user token was given). */
  anonymous: boolean;
  /** Set when the search was answered with `clickAnalytics` (a tracked search). */
  queryID?: string;
  page: number;
  hitsPerPage: number;
  /** objectIDs of the answered page, in order (position = page × hitsPerPage + index + 1). */
  objectIDs: string[];
  /** The filters of the request (`filters`, `facetFilters`, `numericFilters`, `tagFilters`). */
  filters: AnalyticsFilter[];
  /** `analyticsTags` of the search. */
  tags: string[];
  /** The A/B test the search was part of (document 2, "A/B test"), when one was active on its index. */
  abTestID?: number;
  /** Its variant: 1 (the first index) or 2. */
  abTestVariantID?: number;
  /** The country of the request (ISO 3166-1 alpha-2), from a header a proxy sets (`/2/countries`). */
  country?: string;
}

/** Criteria of {@link AnalyticsStore.count}. */
export interface AnalyticsSearchFilter {
  indexName?: string;
  userKey?: string;
  abTestID?: number;
}

/** A period of whole UTC days: `from` inclusive, `to` exclusive (Unix ms). */
export interface Period {
  from: number;
  to: number;
  /** Every day of the period, `YYYY-MM-DD`. */
  days: string[];
}

/** An `analyticsTags` expression (the `tags` parameter). */
export type TagExpression = { tag: string } | { and: TagExpression[] } | { or: TagExpression[] };

/** What a report asks about. */
export interface Scope {
  index: string;
  period: Period;
  tags?: TagExpression | undefined;
  /** Only searches whose query is exactly this (the `search` parameter). */
  search?: string | undefined;
  /** Only the searches of one A/B test variant. */
  abTest?: { id: number; variant: number } | undefined;
}

export interface Page {
  /** 0 = no limit (the whole top list from `offset`). */
  limit: number;
  offset: number;
}

export type OrderBy = 'searchCount' | 'clickThroughRate' | 'conversionRate' | 'averageClickPosition';

/** The figures of one A/B test variant over the searches it was assigned; `undefined` without a search. */
export interface VariantFigures {
  searchCount: number;
  trackedSearchCount: number;
  noResultCount: number;
  userCount: number;
  clickCount: number;
  conversionCount: number;
  clickThroughRate: number | null;
  conversionRate: number | null;
  averageClickPosition: number | null;
  /** The numerators of the two rates, for the significance tests. */
  clickedSearchCount: number;
  convertedSearchCount: number;
}

/** A report answer, as the Analytics API returns it. */
export type Report = Record<string, unknown>;

/** The figures of the Analytics API, worked out at each call from the recorded searches and the stored events. */
export interface AnalyticsReports {
  status(index: string): Promise<{ updatedAt: string | null }>;
  topSearches(
    scope: Scope,
    options: Page & { clickAnalytics: boolean; orderBy: OrderBy; direction: 'asc' | 'desc' },
  ): Promise<{ searches: Array<{ search: string; count: number; nbHits: number } & Record<string, unknown>> }>;
  searchesCount(scope: Scope): Promise<Report>;
  noResults(scope: Scope, page: Page): Promise<Report>;
  noClicks(scope: Scope, page: Page): Promise<Report>;
  noResultRate(scope: Scope): Promise<Report>;
  noClickRate(scope: Scope): Promise<Report>;
  topHits(scope: Scope, options: Page & { clickAnalytics: boolean }): Promise<Report>;
  usersCount(scope: Scope): Promise<Report>;
  filterAttributes(scope: Scope, page: Page): Promise<Report>;
  countries(scope: Scope, page: Page): Promise<Report>;
  filterValues(
    scope: Scope,
    attributes: string[],
    page: Page,
  ): Promise<{ values: Array<{ attribute: string; operator: string; value: string; count: number }> }>;
  filtersNoResults(scope: Scope & { search: string }, page: Page): Promise<Report>;
  averageClickPosition(scope: Scope): Promise<Report>;
  clickPositions(scope: Scope): Promise<Report>;
  clickThroughRate(scope: Scope): Promise<Report>;
  conversionRate(scope: Scope): Promise<Report>;
  abTestVariant(abTestID: number, variant: number, index: string): Promise<VariantFigures | undefined>;
}

export interface AnalyticsStore {
  /**
   * Writes recorded searches (one transaction); a search marks the same user's previous search on the same
   * index as superseded when `continues(previous, next)` (a typing series: only its last search counts).
   */
  append(
    searches: readonly AnalyticsSearch[],
    continues: (previous: { query: string; ts: number }, next: { query: string; ts: number }) => boolean,
  ): Promise<void>;
  /** A deleted user token: its searches keep counting as one user's, under `standIn`. */
  forgetUser(userToken: string, standIn: string): Promise<void>;
  /**
   * How many recorded searches match every criterion given: a maintenance read (what a deleted user token or
   * a deleted A/B test left behind; the reports count only what they define as counted).
   */
  count(filter: AnalyticsSearchFilter): Promise<number>;
  readonly reports: AnalyticsReports;
}

// ---- Usage -----------------------------------------------------------------------------------------------

/** One stored call (per index for multi-index calls). */
export interface UsageRow {
  ts: number;
  idx: string | null;
  op: string;
  /** 1 on the row that counts the call for the whole application (one row per call has it). */
  app: number;
  /** Requests the row stands for (queries of a multi-query on that index; 1 otherwise). */
  n: number;
  ms: number;
  status: number;
  /** 1 when the index is the target index of a Query Suggestions configuration. */
  qs: number;
}

export interface UsageStore {
  append(rows: readonly UsageRow[]): Promise<void>;
  /** Rows with `start <= ts < end` (of one index when given), oldest first. */
  rows(start: number, end: number, indexName?: string): Promise<UsageRow[]>;
}

// ---- Query Suggestions -----------------------------------------------------------------------------------

export interface StoredSuggestionsConfig {
  /** The configuration (JSON, defaults filled) as the Query Suggestions module wrote it. */
  config: Record<string, unknown> & { indexName: string };
  /** Unix ms. */
  createdAt: number;
  updatedAt: number;
}

/** What the last build of a configuration left. */
export interface BuildOutcome {
  /** End of the last build (Unix ms), `null` before the first. */
  lastBuiltAt: number | null;
  /** End of the last build without an ERROR line. */
  lastSuccessfulBuiltAt: number | null;
  /** Duration of that build, ms. */
  lastSuccessfulBuildMs: number | null;
  /** The last build's log, JSON Lines; `null` before the first build. */
  log: string | null;
}

export interface QuerySuggestionsStore {
  list(): Promise<StoredSuggestionsConfig[]>;
  get(indexName: string): Promise<StoredSuggestionsConfig | undefined>;
  count(): Promise<number>;
  /** Creates or replaces a configuration (a replaced one keeps its `createdAt` and its last build). */
  save(config: StoredSuggestionsConfig['config'], at: number): Promise<void>;
  remove(indexName: string): Promise<boolean>;
  outcome(indexName: string): Promise<BuildOutcome | undefined>;
  saveBuild(
    indexName: string,
    build: { builtAt: number; success: boolean; durationMs: number; log: string },
  ): Promise<void>;
}

// ---- Crawler ---------------------------------------------------------------------------------------------

export interface StoredCrawler {
  id: string;
  name: string;
  config: Record<string, unknown>;
  running: boolean;
  reindexing: boolean;
  blocked: boolean;
  blockingTaskId: string | null;
  /** Unix ms, `null` before the first reindex. */
  lastReindexStartedAt: number | null;
  lastReindexEndedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type TaskKind = 'reindex' | 'run' | 'pause' | 'update' | 'urls';
/** How a task ended: `done`, `cancelled` (the blocking task, rule 3), `interrupted` (service stopped), `restarted` (a new reindex replaced it), `failed`. */
export type TaskOutcome = 'done' | 'cancelled' | 'interrupted' | 'restarted' | 'failed';

export interface StoredTask {
  id: string;
  crawlerId: string;
  kind: TaskKind;
  pending: boolean;
  outcome: TaskOutcome | null;
  message: string | null;
  createdAt: number;
  endedAt: number | null;
}

export type Generation = 'live' | 'temp';
export type UrlStatus = 'DONE' | 'SKIPPED' | 'FAILED';

/** What one crawl saw of one URL. */
export interface UrlOutcome {
  url: string;
  status: UrlStatus;
  reason: string;
  category: string;
  readable: string;
  /** objectIDs the URL produced, per (target) index name. */
  records: Record<string, string[]>;
}

export interface UrlStatistic {
  reason: string;
  status: UrlStatus;
  category: string;
  readable: string;
  count: number;
}

export type CrawlerChange =
  | { area: 'crawler'; type: 'putCrawler'; crawler: StoredCrawler; insert?: boolean }
  | {
      area: 'crawler';
      type: 'insertTask';
      task: { id: string; crawlerId: string; kind: TaskKind; pending: boolean; createdAt: number };
    }
  /** Ends a pending task (nothing when it has ended already). */
  | { area: 'crawler'; type: 'endTask'; id: string; outcome: TaskOutcome; at: number; message?: string }
  /** Why a task is where it is (e.g. what blocked the crawler). */
  | { area: 'crawler'; type: 'noteTask'; id: string; message: string }
  | { area: 'crawler'; type: 'putUrl'; crawlerId: string; generation: Generation; outcome: UrlOutcome }
  | { area: 'crawler'; type: 'clearGeneration'; crawlerId: string; generation: Generation }
  /** The reindex replaced the live indices: its URLs become the live generation. */
  | { area: 'crawler'; type: 'promoteTemp'; crawlerId: string }
  | { area: 'crawler'; type: 'putDomain'; domain: string; verified: boolean };

export interface CrawlerStore {
  /** Every crawler, in creation order. */
  crawlers(): Promise<StoredCrawler[]>;
  crawler(id: string): Promise<StoredCrawler | undefined>;
  task(id: string): Promise<StoredTask | undefined>;
  pendingTasks(): Promise<StoredTask[]>;
  countTasksSince(crawlerId: string, kind: TaskKind, since: number): Promise<number>;
  /** The objectIDs a URL produced in a generation, per index (`{}` when unknown). */
  urlRecords(crawlerId: string, generation: Generation, url: string): Promise<Record<string, string[]>>;
  hasGeneration(crawlerId: string, generation: Generation): Promise<boolean>;
  statistics(crawlerId: string, generation: Generation): Promise<UrlStatistic[]>;
  domains(): Promise<Array<{ domain: string; verified: boolean }>>;
}
