/**
 * The search state of one index as an immutable value: the empty state, validation, and the small helpers
 * the store's named actions use. Every state the store holds is *normalised*: no empty refinement lists,
 * no `hitsPerPage: undefined` key, so two states that search the same thing compare equal.
 */
import { fail, need } from '../client/errors.js';
import type { IndexState } from './types.js';

export type NumericOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';
export const NUMERIC_OPERATORS: readonly NumericOperator[] = ['=', '!=', '<', '<=', '>', '>='];

/** `value` if it is a string, else a `TypeError` naming `what`. */
export const str = (value: unknown, what: string): string =>
  typeof value === 'string' ? value : fail(`${what} must be a string, got ${typeof value}`);

/** `value` if it is an integer ≥ 0, else a `RangeError` naming `what`. */
export const int = (value: unknown, what: string): number =>
  Number.isInteger(value) && (value as number) >= 0
    ? (value as number)
    : fail(`${what} must be an integer ≥ 0, got ${value}`, RangeError);

/** `value` if it is an array of strings, else a `TypeError` naming `what`. */
export const strings = (value: unknown, what: string): string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string')
    ? value
    : fail(`${what} must be an array of strings`);

const object = <V>(value: Record<string, V>, what: string): Array<[string, V]> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value)
    : fail(`${what} must be an object`);

/**
 * Throws a `RangeError` unless `operator` is a numeric operator and `value` a finite number.
 *
 * @example
 * assertNumeric('>=', 10) // ok
 */
export function assertNumeric(operator: unknown, value: unknown): asserts operator is NumericOperator {
  if (!(NUMERIC_OPERATORS.includes(operator as NumericOperator) && Number.isFinite(value))) {
    fail(
      `numeric refinement needs an operator (= != < <= > >=) and a finite number, got ${operator} ${value}`,
      RangeError,
    );
  }
}

/** The own value of `key` in `map` (never an inherited one such as `constructor`). */
export const own = <V>(map: Record<string, V> | undefined, key: string): V | undefined =>
  map && Object.hasOwn(map, key) ? map[key] : undefined;

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

/**
 * Validates a partial state and merges it over an empty state of `indexName`; drops empty lists and
 * repeated values. The states of added indices (`indices`, by index name) are normalised the same way,
 * each over an empty state of its own name; an empty `indices` is dropped. Throws a `TypeError`/`RangeError`
 * naming the bad field.
 *
 * @example
 * normalizeState({ query: 'tv', facetRefinements: { brand: [] } }, 'products') // brand dropped
 */
export function normalizeState(partial: Partial<IndexState>, indexName: string, path = 'state'): IndexState {
  if (!partial || typeof partial !== 'object') fail(`${path} must be an object`);
  const state: IndexState = {
    ...emptyState(indexName),
    ...Object.fromEntries(Object.entries(partial).filter((entry) => entry[1] !== undefined)),
  };
  const lists = (field: 'facetRefinements' | 'disjunctiveFacetRefinements') =>
    Object.fromEntries(
      object(state[field], `${path}.${field}`)
        .filter(([attribute, values]) => strings(values, `${path}.${field}.${attribute}`).length)
        .map(([attribute, values]) => [attribute, [...new Set(values)]]),
    );
  const normalised: IndexState = {
    indexName: need(state.indexName, `${path}.indexName`),
    query: str(state.query, `${path}.query`),
    page: int(state.page, `${path}.page`),
    facetRefinements: lists('facetRefinements'),
    disjunctiveFacetRefinements: lists('disjunctiveFacetRefinements'),
    numericRefinements: Object.fromEntries(
      object(state.numericRefinements, `${path}.numericRefinements`)
        .filter(
          ([attribute, list]) =>
            (Array.isArray(list) ? list : fail(`${path}.numericRefinements.${attribute} must be an array`)).length,
        )
        .map(([attribute, list]) => [
          attribute,
          list.map((r) => {
            assertNumeric(r?.operator, r?.value);
            return { operator: r.operator, value: r.value };
          }),
        ]),
    ),
    tagRefinements: [...new Set(strings(state.tagRefinements, `${path}.tagRefinements`))],
    ruleContexts: [...strings(state.ruleContexts, `${path}.ruleContexts`)],
  };
  if (state.hitsPerPage !== undefined) normalised.hitsPerPage = int(state.hitsPerPage, `${path}.hitsPerPage`);
  const indices =
    state.indices &&
    object(state.indices, `${path}.indices`).map(([name, child]) => [
      need(name, `${path}.indices name`),
      normalizeState(child, name, `${path}.indices.${name}`),
    ]);
  if (indices?.length) normalised.indices = Object.fromEntries(indices);
  return normalised;
}
