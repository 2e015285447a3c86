/**
 * Which Usage operation a call of the service is (document 3, "Endpoints > Usage", metric names), and
 * the metric catalogue: categories, totals, groups, the metrics of the whole-application endpoint.
 * See `docs/notes/usage-monitoring.md`.
 */

export interface Operation {
  /** Operation name: the metric name without `_operations` (`queries`, `batch`, …), or one of the extra names below. */
  op: string;
  indexName?: string;
  /** The index names are in the body's `requests[].indexName` (multi-query, multi-get, multi-index batch, Recommend). */
  multi?: boolean;
}

/**
 * Operation names of the document's categories. Dictionary calls (`dictionary_read`/`dictionary_write`)
 * have no metric of their own and count only in `total_operations` and the read/write totals; `recommend`
 * and `insights` count in `total_recommend_requests` and `insights_operations` only.
 */
export const CATEGORIES = {
  search: ['queries', 'multi_queries'],
  acl: ['get_api_key', 'get_api_keys', 'add_api_key', 'update_api_key', 'delete_api_key'],
  indexing: [
    'browse',
    'clear_index',
    'copy_move',
    'delete_index',
    'get_log',
    'get_settings',
    'set_settings',
    'list_indices',
    'wait_task',
  ],
  records: [
    'add_record',
    'batch',
    'delete_by_query',
    'delete_record',
    'get_record',
    'partial_update_record',
    'update_record',
  ],
  synonym: ['batch_synonym', 'delete_synonym', 'get_synonym', 'query_synonym', 'update_synonym'],
  rules: ['batch_rules', 'clear_rules', 'delete_rules', 'get_rules', 'save_rules', 'search_rules'],
} as const;

export type Category = keyof typeof CATEGORIES;

/** Operations that change data (the rest are reads). */
export const WRITE_OPS = new Set([
  'add_api_key',
  'update_api_key',
  'delete_api_key',
  'clear_index',
  'copy_move',
  'delete_index',
  'set_settings',
  'add_record',
  'batch',
  'delete_by_query',
  'delete_record',
  'partial_update_record',
  'update_record',
  'batch_synonym',
  'delete_synonym',
  'update_synonym',
  'batch_rules',
  'clear_rules',
  'delete_rules',
  'save_rules',
  'dictionary_write',
]);

/** Operations outside the search API's totals. */
export const NOT_IN_TOTALS = new Set(['recommend', 'insights']);

export const SEARCH_OPS: ReadonlySet<string> = new Set(CATEGORIES.search);

/** Processing-time and index metrics (both endpoints). */
export const PROCESSING_METRICS = [
  'avg_processing_time',
  '90p_processing_time',
  '99p_processing_time',
  'queries_above_last_ms_processing_time',
] as const;
export const INDEX_METRICS = ['records', 'data_size', 'file_size'] as const;

const TOTAL_SUFFIXES = ['search', 'acl', 'indexing', 'records', 'synonym', 'rules', 'write', 'read'] as const;

/** Metrics of the per-index endpoint, in the document's order. */
export const INDEX_ENDPOINT_METRICS: readonly string[] = [
  ...Object.values(CATEGORIES).flatMap((ops) => ops.map((op) => `${op}_operations`)),
  ...TOTAL_SUFFIXES.map((suffix) => `total_${suffix}_operations`),
  'total_operations',
  ...TOTAL_SUFFIXES.map((suffix) => `querysuggestions_total_${suffix}_operations`),
  'querysuggestions_total_operations',
  ...PROCESSING_METRICS,
  ...INDEX_METRICS,
];

/** Capacity, degraded-query and percentage metrics: never measured by the local service, always omitted. */
export const NOT_MEASURED: ReadonlySet<string> = new Set([
  'used_search_capacity',
  'avg_used_search_capacity',
  'region_used_search_capacity',
  'region_avg_used_search_capacity',
  'total_used_search_capacity',
  'total_avg_used_search_capacity',
  'degraded_queries_ssd_used_queries_impacted',
  'degraded_queries_ssd_used_seconds_impacted',
  'degraded_queries_max_capacity_queries_impacted',
  'degraded_queries_max_capacity_seconds_impacted',
]);

/** Metrics of the whole-application endpoint only. */
export const APP_ONLY_METRICS: readonly string[] = [
  'total_search_requests',
  'total_recommend_requests',
  'querysuggestions_total_search_requests',
  'max_qps',
  'region_max_qps',
  'total_max_qps',
  ...NOT_MEASURED,
  'insights_operations',
];

export const GROUPS: Record<string, readonly string[]> = {
  search_operations: CATEGORIES.search.map((op) => `${op}_operations`),
  acl_operations: CATEGORIES.acl.map((op) => `${op}_operations`),
  indexing_operations: CATEGORIES.indexing.map((op) => `${op}_operations`),
  record_operations: CATEGORIES.records.map((op) => `${op}_operations`),
  synonym_operations: CATEGORIES.synonym.map((op) => `${op}_operations`),
  rule_operations: CATEGORIES.rules.map((op) => `${op}_operations`),
};

export function categoryOf(op: string): Category | undefined {
  for (const [category, ops] of Object.entries(CATEGORIES) as Array<[Category, readonly string[]]>) {
    if (ops.includes(op)) return category;
  }
  return undefined;
}

function name(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The operation of a call, or undefined for calls of other services (Analytics, Personalization, Query
 * Suggestions configuration, A/B tests, Usage, Monitoring, the service's `_local` paths).
 *
 * @example
 * operationOf('POST', '/1/indexes/products/query') // { op: 'queries', indexName: 'products' }
 * operationOf('POST', '/1/indexes/*\/queries') // { op: 'multi_queries', multi: true }
 */
export function operationOf(method: string, path: string): Operation | undefined {
  const parts = path.split('/').slice(1); // ['1', 'indexes', …]
  if (parts[0] !== '1') return undefined;
  const [, area, a, b, c, d] = parts;
  const get = method === 'GET';
  if (area === 'events' && method === 'POST' && parts.length === 2) return { op: 'insights' };
  if (area === 'logs' && parts.length === 2 && get) return { op: 'get_log' };
  if (area === 'task' && parts.length === 3 && get) return { op: 'wait_task' };
  if (area === 'keys') {
    if (parts.length === 2) return get ? { op: 'get_api_keys' } : method === 'POST' ? { op: 'add_api_key' } : undefined;
    if (parts.length === 3)
      return get
        ? { op: 'get_api_key' }
        : method === 'PUT'
          ? { op: 'update_api_key' }
          : method === 'DELETE'
            ? { op: 'delete_api_key' }
            : undefined;
    if (parts.length === 4 && b === 'restore' && method === 'POST') return { op: 'add_api_key' };
    return undefined;
  }
  if (area === 'dictionaries')
    return { op: get || (method === 'POST' && b === 'search') ? 'dictionary_read' : 'dictionary_write' };
  if (area !== 'indexes') return undefined;
  if (a === undefined) return get ? { op: 'list_indices' } : undefined;
  if (a === '*') {
    if (parts.length !== 4 || method !== 'POST') return get && b === 'keys' ? { op: 'get_api_keys' } : undefined;
    const multi: Record<string, string> = {
      queries: 'multi_queries',
      objects: 'get_record',
      batch: 'batch',
      recommendations: 'recommend',
    };
    return multi[b!] ? { op: multi[b!]!, multi: true } : undefined;
  }
  const indexName = name(a);
  const at = (op: string): Operation => ({ op, indexName });
  if (b === undefined)
    return get
      ? at('queries')
      : method === 'POST'
        ? at('add_record')
        : method === 'DELETE'
          ? at('delete_index')
          : undefined;
  if (c === undefined) {
    switch (b) {
      case 'query':
        return method === 'POST' ? at('queries') : undefined;
      case 'browse':
        return at('browse');
      case 'settings':
        return get ? at('get_settings') : method === 'PUT' ? at('set_settings') : undefined;
      case 'batch':
        return method === 'POST' ? at('batch') : undefined;
      case 'clear':
        return method === 'POST' ? at('clear_index') : undefined;
      case 'deleteByQuery':
        return method === 'POST' ? at('delete_by_query') : undefined;
      case 'operation':
        return method === 'POST' ? at('copy_move') : undefined;
      case 'keys':
        return get ? at('get_api_keys') : method === 'POST' ? at('add_api_key') : undefined;
      default:
        break;
    }
    return get
      ? at('get_record')
      : method === 'PUT'
        ? at('update_record')
        : method === 'DELETE'
          ? at('delete_record')
          : undefined;
  }
  if (b === 'rules') {
    if (d !== undefined) return undefined;
    if (c === 'batch') return method === 'POST' ? at('batch_rules') : undefined;
    if (c === 'clear') return method === 'POST' ? at('clear_rules') : undefined;
    if (c === 'search') return method === 'POST' ? at('search_rules') : undefined;
    return get
      ? at('get_rules')
      : method === 'PUT'
        ? at('save_rules')
        : method === 'DELETE'
          ? at('delete_rules')
          : undefined;
  }
  if (b === 'synonyms') {
    if (d !== undefined) return undefined;
    if (c === 'batch') return method === 'POST' ? at('batch_synonym') : undefined;
    if (c === 'clear') return method === 'POST' ? at('delete_synonym') : undefined; // clearing deletes them all
    if (c === 'search') return method === 'POST' ? at('query_synonym') : undefined;
    return get
      ? at('get_synonym')
      : method === 'PUT'
        ? at('update_synonym')
        : method === 'DELETE'
          ? at('delete_synonym')
          : undefined;
  }
  if (b === 'keys' && d === undefined)
    return get
      ? at('get_api_key')
      : method === 'PUT'
        ? at('update_api_key')
        : method === 'DELETE'
          ? at('delete_api_key')
          : undefined;
  if (b === 'task' && d === undefined) return get ? at('wait_task') : undefined;
  if (c === 'partial' && d === undefined) return method === 'POST' ? at('partial_update_record') : undefined;
  if (b === 'facets' && d === 'query') return method === 'POST' ? at('queries') : undefined;
  return undefined;
}
