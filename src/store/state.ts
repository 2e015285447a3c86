/**
 * The search state of one index as an immutable value, and the pure transitions the store's named
 * actions apply. Every transition returns a *normalised* state: no empty refinement lists, no
 * `hitsPerPage: undefined` key, so two states that search the same thing compare equal.
 */
import type { IndexState } from './types.js';

export type NumericOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';
export const NUMERIC_OPERATORS: readonly NumericOperator[] = ['=', '!=', '<', '<=', '>', '>='];

/**
 * An empty state of `indexName`.
 *
 * @example
 * emptyState('products') // { indexName: 'products', query: '', page: 0, facetRefinements: {}, … }
 */
export function emptyState(indexName: string): IndexState {
  return {
    indexName,
    query: '',
    page: 0,
    facetRefinements: {},
    disjunctiveFacetRefinements: {},
    numericRefinements: {},
    tagRefinements: [],
    ruleContexts: [],
  };
}

/** Object with own keys only (`Object.fromEntries` defines even `__proto__` as a plain key). */
function record<V>(entries: Array<[string, V]>): Record<string, V> {
  return Object.fromEntries(entries);
}

/**
 * Sets or removes (`value === undefined`) one key without mutating `source`.
 *
 * @example
 * withKey({ a: 1 }, 'b', 2) // { a: 1, b: 2 }
 */
export function withKey<V>(source: Record<string, V>, key: string, value: V | undefined): Record<string, V> {
  const entries = Object.entries(source).filter(([k]) => k !== key);
  if (value !== undefined) entries.push([key, value]);
  return record(entries);
}

function assertInteger(what: string, value: unknown, min: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new RangeError(`${what} must be an integer ≥ ${min}, got ${String(value)}`);
}

function assertString(what: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeof value}`);
}

function assertStringList(what: string, value: unknown): asserts value is string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new TypeError(`${what} must be an array of strings`);
}

/**
 * Validates a partial state and merges it over an empty state of `indexName`; drops empty lists.
 * Throws a `TypeError`/`RangeError` naming the bad field.
 *
 * @example
 * normalizeState({ query: 'tv', facetRefinements: { brand: [] } }, 'products') // brand dropped
 */
export function normalizeState(partial: Partial<IndexState>, indexName: string): IndexState {
  if (partial === null || typeof partial !== 'object') throw new TypeError('state must be an object');
  const state = { ...emptyState(indexName), ...stripUndefined(partial) };
  assertString('state.indexName', state.indexName);
  if (state.indexName === '') throw new TypeError('state.indexName must not be empty');
  assertString('state.query', state.query);
  assertInteger('state.page', state.page, 0);
  if (state.hitsPerPage !== undefined) assertInteger('state.hitsPerPage', state.hitsPerPage, 0);
  const lists = (what: string, value: Record<string, string[]>) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${what} must be an object of attribute → values`);
    const out: Array<[string, string[]]> = [];
    for (const [attribute, values] of Object.entries(value)) {
      assertStringList(`${what}.${attribute}`, values);
      if (values.length) out.push([attribute, [...new Set(values)]]);
    }
    return record(out);
  };
  const numeric: Array<[string, IndexState['numericRefinements'][string]]> = [];
  if (state.numericRefinements === null || typeof state.numericRefinements !== 'object') throw new TypeError('state.numericRefinements must be an object');
  for (const [attribute, list] of Object.entries(state.numericRefinements)) {
    if (!Array.isArray(list)) throw new TypeError(`state.numericRefinements.${attribute} must be an array`);
    for (const item of list) assertNumeric(item?.operator, item?.value);
    if (list.length) numeric.push([attribute, list.map(({ operator, value }) => ({ operator, value }))]);
  }
  assertStringList('state.tagRefinements', state.tagRefinements);
  assertStringList('state.ruleContexts', state.ruleContexts);
  const normalised: IndexState = {
    indexName: state.indexName,
    query: state.query,
    page: state.page,
    facetRefinements: lists('state.facetRefinements', state.facetRefinements),
    disjunctiveFacetRefinements: lists('state.disjunctiveFacetRefinements', state.disjunctiveFacetRefinements),
    numericRefinements: record(numeric),
    tagRefinements: [...new Set(state.tagRefinements)],
    ruleContexts: [...state.ruleContexts],
  };
  if (state.hitsPerPage !== undefined) normalised.hitsPerPage = state.hitsPerPage;
  return normalised;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Throws a `RangeError` unless `operator` is a numeric operator and `value` a finite number.
 *
 * @example
 * assertNumeric('>=', 10) // ok
 */
export function assertNumeric(operator: unknown, value: unknown): asserts operator is NumericOperator {
  if (!NUMERIC_OPERATORS.includes(operator as NumericOperator)) throw new RangeError(`numeric operator must be one of ${NUMERIC_OPERATORS.join(' ')}, got ${String(operator)}`);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`numeric refinement value must be a finite number, got ${String(value)}`);
}

/**
 * True when `attribute` has any refinement (facet, disjunctive or numeric).
 *
 * @example
 * hasRefinements(state, 'brand') // false on an empty state
 */
export function hasRefinements(state: IndexState, attribute: string): boolean {
  return (
    Object.hasOwn(state.facetRefinements, attribute) ||
    Object.hasOwn(state.disjunctiveFacetRefinements, attribute) ||
    Object.hasOwn(state.numericRefinements, attribute)
  );
}

/**
 * Toggles `value` of `attribute` (OR when `operator` is `or`); the page goes back to 0.
 *
 * @example
 * toggleRefinement(state, 'brand', 'LG', 'or').disjunctiveFacetRefinements // { brand: ['LG'] }
 */
export function toggleRefinement(state: IndexState, attribute: string, value: string, operator: 'and' | 'or' = 'and'): IndexState {
  assertString('attribute', attribute);
  assertString('value', value);
  if (operator !== 'and' && operator !== 'or') throw new RangeError(`operator must be 'and' or 'or', got ${String(operator)}`);
  const field = operator === 'or' ? 'disjunctiveFacetRefinements' : 'facetRefinements';
  const current = Object.hasOwn(state[field], attribute) ? state[field][attribute]! : [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...state, page: 0, [field]: withKey(state[field], attribute, next.length ? next : undefined) };
}

/**
 * True when `value` of `attribute` is refined (AND or OR).
 *
 * @example
 * isRefined(toggleRefinement(state, 'brand', 'LG'), 'brand', 'LG') // true
 */
export function isRefined(state: IndexState, attribute: string, value: string): boolean {
  const inList = (map: Record<string, string[]>) => Object.hasOwn(map, attribute) && map[attribute]!.includes(value);
  return inList(state.facetRefinements) || inList(state.disjunctiveFacetRefinements);
}

/**
 * Adds `attribute operator value` (no duplicate); the page goes back to 0.
 *
 * @example
 * addNumericRefinement(state, 'price', '>=', 10).numericRefinements // { price: [{ operator: '>=', value: 10 }] }
 */
export function addNumericRefinement(state: IndexState, attribute: string, operator: NumericOperator, value: number): IndexState {
  assertString('attribute', attribute);
  assertNumeric(operator, value);
  const current = Object.hasOwn(state.numericRefinements, attribute) ? state.numericRefinements[attribute]! : [];
  if (current.some((r) => r.operator === operator && Object.is(r.value, value))) return state;
  return { ...state, page: 0, numericRefinements: withKey(state.numericRefinements, attribute, [...current, { operator, value }]) };
}

/**
 * Removes the numeric refinements of `attribute` matching `operator` and `value` (all when omitted).
 *
 * @example
 * removeNumericRefinement(state, 'price') // every price refinement gone
 */
export function removeNumericRefinement(state: IndexState, attribute: string, operator?: string, value?: number): IndexState {
  if (!Object.hasOwn(state.numericRefinements, attribute)) return state;
  const current = state.numericRefinements[attribute]!;
  const next = current.filter((r) => !((operator === undefined || r.operator === operator) && (value === undefined || r.value === value)));
  if (next.length === current.length) return state;
  return { ...state, page: 0, numericRefinements: withKey(state.numericRefinements, attribute, next.length ? next : undefined) };
}

/**
 * Toggles a tag refinement; the page goes back to 0.
 *
 * @example
 * toggleTag(state, 'sale').tagRefinements // ['sale']
 */
export function toggleTag(state: IndexState, tag: string): IndexState {
  assertString('tag', tag);
  const next = state.tagRefinements.includes(tag) ? state.tagRefinements.filter((t) => t !== tag) : [...state.tagRefinements, tag];
  return { ...state, page: 0, tagRefinements: next };
}

/**
 * Removes the refinements of `attributes` (all, tags included, when omitted; `_tags` names the tags);
 * keeps the query.
 *
 * @example
 * clearRefinements(state, ['brand'])
 */
export function clearRefinements(state: IndexState, attributes?: string[]): IndexState {
  if (attributes === undefined) {
    return { ...state, page: 0, facetRefinements: {}, disjunctiveFacetRefinements: {}, numericRefinements: {}, tagRefinements: [] };
  }
  assertStringList('attributes', attributes);
  const keep = <V>(map: Record<string, V>) => record(Object.entries(map).filter(([k]) => !attributes.includes(k)));
  return {
    ...state,
    page: 0,
    facetRefinements: keep(state.facetRefinements),
    disjunctiveFacetRefinements: keep(state.disjunctiveFacetRefinements),
    numericRefinements: keep(state.numericRefinements),
    // Tags are the `_tags` attribute of the records.
    tagRefinements: attributes.includes('_tags') ? [] : state.tagRefinements,
  };
}
