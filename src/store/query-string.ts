/**
 * The URL form of an {@link IndexState}. Readable keys in the spirit of InstantSearch's URLs, repeated
 * keys for lists (so order survives), 1-based `page`:
 *
 * | key | state |
 * |---|---|
 * | `q` | query (omitted when empty) |
 * | `page` | page + 1 (omitted on the first page) |
 * | `hitsPerPage` | hitsPerPage (omitted when unset) |
 * | `sortBy` | indexName (omitted when it is the base index) |
 * | `refinementList[attr]` | one per disjunctive (OR) value |
 * | `facets[attr]` | one per conjunctive (AND) value |
 * | `numeric[attr]` | one per numeric refinement, operator then number, e.g. `>=10` |
 * | `tags` | one per tag |
 * | `ruleContexts` | one per rule context |
 * | `<index>.<key>` | a key of an added index's state (`state.indices`), e.g. `articles.q=tv`, `articles.refinementList[author]=Ann` |
 *
 * An added index always writes its `q` (also when empty: `articles.q=`), which marks it present; its other
 * keys follow the table, its own added indices nest (`articles.comments.q=`). In the name, `%`, `.`, `[` and
 * `]` are escaped as `%25`, `%2E`, `%5B`, `%5D` (so the key of any name is read back unambiguously; usual
 * names such as `articles` or `products_price_asc` stay readable).
 *
 * `fromQueryString(toQueryString(s))` equals `s` for every normalised state; unknown keys and invalid
 * values in a hand-edited URL are ignored rather than thrown on (a bad link still opens the page), and so are
 * the keys of an added index without its `q`.
 *
 * The reading is a module of its own (`parse-query-string.ts`): the first-paint script (src/prepaint) reads a
 * routed URL with it before any chunk loads, and carries none of the writing.
 */
import { BRACKETED } from './parse-query-string.js';
import type { IndexState } from './types.js';

const enc = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

/**
 * Serialises `state`; `baseIndex` is the index whose name is left out of the URL.
 *
 * @example
 * stateToQueryString({ ...emptyState('products'), query: 'tv', page: 1 }, 'products') // 'q=tv&page=2'
 */
export function stateToQueryString(state: IndexState, baseIndex: string, added = false): string {
  const parts: string[] = [];
  const add = (key: string, values: unknown[]) => {
    for (const value of values) parts.push(`${key}=${enc(String(value))}`);
  };
  add('q', state.query || added ? [state.query] : []);
  add('page', state.page ? [state.page + 1] : []);
  add('hitsPerPage', state.hitsPerPage === undefined ? [] : [state.hitsPerPage]);
  add('sortBy', state.indexName !== baseIndex ? [state.indexName] : []);
  for (const [key, field] of Object.entries(BRACKETED)) {
    for (const [attribute, values] of Object.entries(state[field])) {
      // `-0` would print as `0`; kept so the round trip is exact.
      add(
        `${key}[${enc(attribute)}]`,
        (values as Array<string | { operator: string; value: number }>).map((v) =>
          typeof v === 'object' ? v.operator + (Object.is(v.value, -0) ? '-0' : v.value) : v,
        ),
      );
    }
  }
  add('tags', state.tagRefinements);
  add('ruleContexts', state.ruleContexts);
  for (const [name, child] of Object.entries(state.indices ?? {})) {
    const prefix = `${enc(name.replace(/[%.[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))}.`;
    parts.push(
      ...stateToQueryString(child, name, true)
        .split('&')
        .map((part) => prefix + part),
    );
  }
  return parts.join('&');
}
