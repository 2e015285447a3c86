/**
 * The rows of the tables both storage backends share (same columns in SQLite and PostgreSQL), and how a row
 * becomes the value the domain reads: one definition, so the backends cannot drift apart.
 */
import type {
  AbTestStatus,
  BuildOutcome,
  EventRow,
  IndexMeta,
  ItemKind,
  SearchLogEntry,
  StoredAbTest,
  StoredCrawler,
  StoredEventType,
  StoredKey,
  StoredSuggestionsConfig,
  StoredTask,
  TaskKind,
  TaskOutcome,
} from './types.js';

/** A row of `insights_events`. */
export interface EventTableRow {
  id: number;
  event_type: StoredEventType;
  event_name: string;
  index_name: string;
  user_token: string;
  timestamp: number;
  received_at: number;
  query_id: string | null;
  object_ids: string | null;
  filters: string | null;
  positions: string | null;
  search_index: string | null;
  search_query: string | null;
  search_at: number | null;
  search_positions: string | null;
}

export function eventOf(row: EventTableRow): EventRow {
  const event: EventRow = {
    id: row.id,
    eventType: row.event_type,
    eventName: row.event_name,
    index: row.index_name,
    userToken: row.user_token,
    timestamp: row.timestamp,
    receivedAt: row.received_at,
  };
  if (row.query_id !== null) event.queryID = row.query_id;
  if (row.object_ids !== null) event.objectIDs = JSON.parse(row.object_ids) as string[];
  if (row.filters !== null) event.filters = JSON.parse(row.filters) as string[];
  if (row.positions !== null) event.positions = JSON.parse(row.positions) as number[];
  if (row.search_index !== null) {
    event.search = {
      indexName: row.search_index,
      query: row.search_query ?? '',
      at: row.search_at ?? 0,
      positions: JSON.parse(row.search_positions ?? '[]') as Array<number | null>,
    };
  }
  return event;
}

/** A row of `service_keys`. */
export interface KeyRow {
  value: string;
  acl: string;
  description: string;
  validity: number;
  max_hits_per_query: number;
  max_queries_per_ip_per_hour: number;
  query_parameters: string;
  referers: string;
  indexes: string | null;
  index_name: string | null;
  created_at: number;
  deleted_at: number | null;
}

export function keyOf(row: KeyRow): StoredKey {
  const key: StoredKey = {
    value: row.value,
    acl: JSON.parse(row.acl) as string[],
    description: row.description,
    validity: row.validity,
    maxHitsPerQuery: row.max_hits_per_query,
    maxQueriesPerIPPerHour: row.max_queries_per_ip_per_hour,
    queryParameters: row.query_parameters,
    referers: JSON.parse(row.referers) as string[],
    createdAt: row.created_at,
  };
  if (row.indexes !== null) key.indexes = JSON.parse(row.indexes) as string[];
  if (row.index_name !== null) key.index = row.index_name;
  if (row.deleted_at !== null) key.deletedAt = row.deleted_at;
  return key;
}

/** A row of `abtests_tests`. */
export interface AbTestRow {
  id: number;
  name: string;
  status: AbTestStatus;
  created_at: number;
  end_at: number;
  stopped_at: number | null;
  variants: string;
}

export function abTestOf(row: AbTestRow): StoredAbTest {
  const test: StoredAbTest = {
    abTestID: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at,
    endAt: row.end_at,
    variants: JSON.parse(row.variants) as StoredAbTest['variants'],
  };
  if (row.stopped_at !== null) test.stoppedAt = row.stopped_at;
  return test;
}

/** The three object tables of the catalog: the same shape (`seq`, `index_name`, `object_id`, `body` JSON). */
export const ITEM_TABLES: Record<ItemKind, string> = {
  records: 'service_records',
  rules: 'service_rules',
  synonyms: 'service_synonyms',
};

/** A row of `service_indices`. */
export interface IndexRow {
  name: string;
  settings: string;
  primary_index: string | null;
  replicas: string;
  created_at: number;
  updated_at: number;
}

export function indexMetaOf(row: IndexRow): IndexMeta {
  const meta: IndexMeta = {
    name: row.name,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    replicas: JSON.parse(row.replicas) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.primary_index) meta.primary = row.primary_index;
  return meta;
}

/** A flag column: SQLite stores 0/1, PostgreSQL a boolean. */
type Flag = number | boolean;

function isSet(flag: Flag): boolean {
  return flag === true || flag === 1;
}

/** A row of `crawler_crawlers`. */
export interface CrawlerRow {
  id: string;
  name: string;
  config: string;
  running: Flag;
  reindexing: Flag;
  blocked: Flag;
  blocking_task_id: string | null;
  last_reindex_started_at: number | null;
  last_reindex_ended_at: number | null;
  created_at: number;
  updated_at: number;
}

export function crawlerOf(row: CrawlerRow): StoredCrawler {
  return {
    id: row.id,
    name: row.name,
    config: JSON.parse(row.config) as Record<string, unknown>,
    running: isSet(row.running),
    reindexing: isSet(row.reindexing),
    blocked: isSet(row.blocked),
    blockingTaskId: row.blocking_task_id,
    lastReindexStartedAt: row.last_reindex_started_at,
    lastReindexEndedAt: row.last_reindex_ended_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A row of `crawler_tasks`. */
export interface CrawlerTaskRow {
  id: string;
  crawler_id: string;
  kind: TaskKind;
  pending: Flag;
  outcome: TaskOutcome | null;
  message: string | null;
  created_at: number;
  ended_at: number | null;
}

export function crawlerTaskOf(row: CrawlerTaskRow): StoredTask {
  return {
    id: row.id,
    crawlerId: row.crawler_id,
    kind: row.kind,
    pending: isSet(row.pending),
    outcome: row.outcome,
    message: row.message,
    createdAt: row.created_at,
    endedAt: row.ended_at,
  };
}

/** A row of `service_search_log`. */
export interface SearchLogRow {
  query_id: string;
  index_name: string;
  query: string;
  page: number;
  hits_per_page: number;
  object_ids: string;
  user_token: string | null;
  created_at: number;
}

export function searchLogEntryOf(row: SearchLogRow): SearchLogEntry {
  const entry: SearchLogEntry = {
    queryID: row.query_id,
    indexName: row.index_name,
    query: row.query,
    page: row.page,
    hitsPerPage: row.hits_per_page,
    objectIDs: JSON.parse(row.object_ids) as string[],
    createdAt: row.created_at,
  };
  if (row.user_token !== null) entry.userToken = row.user_token;
  return entry;
}

/** A row of `query_suggestions_configs`: a configuration and the outcome of its last build. */
export interface SuggestionsConfigRow {
  index_name: string;
  config: string;
  created_at: number;
  updated_at: number;
  last_built_at: number | null;
  last_success_at: number | null;
  last_success_ms: number | null;
  log: string | null;
}

export function suggestionsConfigOf(row: SuggestionsConfigRow): StoredSuggestionsConfig {
  return {
    config: JSON.parse(row.config) as StoredSuggestionsConfig['config'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function buildOutcomeOf(row: SuggestionsConfigRow): BuildOutcome {
  return {
    lastBuiltAt: row.last_built_at,
    lastSuccessfulBuiltAt: row.last_success_at,
    lastSuccessfulBuildMs: row.last_success_ms,
    log: row.log,
  };
}
