/**
 * The rows of the tables both storage backends share (same columns in SQLite and PostgreSQL), and how a row
 * becomes the value the domain reads: one definition, so the backends cannot drift apart.
 */
import type { EventRow, StoredEventType, StoredKey } from './types.js';

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
