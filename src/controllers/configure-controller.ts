import type { SearchParams } from '../client/types.js';
import { SEARCH_PARAMETERS } from '../protocol/search-parameters.js';
import type { Needs } from '../store/types.js';
import { StoreController } from './store-controller.js';

/**
 * Headless logic of `<svc-configure>`: extra search parameters sent with every search of the store (for
 * example `filters`, `hitsPerPage`, `distinct`, `ruleContexts`), registered as a need and removed when the
 * host goes away. Setting `params` again replaces them (one new search when they differ).
 *
 * As InstantSearch's `configure` in a parent index, the parameters also apply to every index added under the
 * store (`addIndex`, `<svc-index>`, at any depth), under the added index's own parameters (its own
 * `<svc-configure>` wins, parameter by parameter); `inherit = false` keeps them to this store.
 *
 * @example
 * ```ts
 * class InStockOnly extends LitElement {
 *   private configure = new ConfigureController(this, { store });
 *   constructor() {
 *     super();
 *     this.configure.params = { filters: 'stock > 0', hitsPerPage: 12 };
 *   }
 * }
 * ```
 */
export class ConfigureController extends StoreController {
  /** The parameters added to every search. */
  params: SearchParams = {};
  /** Whether the parameters also apply to the indices added under the store (default true, as InstantSearch). */
  inherit = true;
  /** The parameters last registered (JSON; '' when none). */
  private applied = '';

  protected override needs(): Needs | undefined {
    return Object.keys(this.params).length > 0 ? { params: { ...this.params }, inherit: this.inherit } : undefined;
  }

  override hostUpdate(): void {
    super.hostUpdate();
    this.searchAgainIfDropped();
  }

  override hostDisconnected(): void {
    const store = this.store;
    super.hostDisconnected();
    // The store does not search again when needs go (other widgets' results stay valid), but dropped
    // parameters such as `filters` change the results: ask for them.
    if (this.applied && store) store.refresh();
    this.applied = '';
  }

  /** Re-registers the parameters now (for use without an element; an element updates on its own). */
  apply(): void {
    this.sync();
    this.searchAgainIfDropped();
  }

  private searchAgainIfDropped(): void {
    const key = Object.keys(this.params).length > 0 ? JSON.stringify(this.params) : '';
    if (this.applied && !key) this.store?.refresh();
    this.applied = this.store ? key : '';
  }
}

const BY_LOWER_CASE = new Map(Object.keys(SEARCH_PARAMETERS).map((name) => [name.toLowerCase(), name]));

/**
 * The search parameter named by an attribute: kebab-case (`hits-per-page`) or the parameter's own name,
 * which HTML lower-cases (`hitsperpage`), both give `hitsPerPage`.
 *
 * @example parameterName('attributes-to-snippet') // 'attributesToSnippet'
 */
export function parameterName(attribute: string): string {
  const lower = attribute.toLowerCase();
  const known = BY_LOWER_CASE.get(lower) ?? BY_LOWER_CASE.get(lower.replace(/-/g, ''));
  return known ?? lower.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseBoolean(name: string, text: string): boolean {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'true') return true; // a present boolean attribute is on
  if (value === 'false') return false;
  throw new TypeError(`svc-configure: ${name}="${text}" is not a boolean (use true or false)`);
}

function parseNumber(name: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value))
    throw new TypeError(`svc-configure: ${name}="${text}" is not a number`);
  return value;
}

function parseList(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    const json = parseJson(trimmed);
    if (Array.isArray(json)) return json.map(String);
  }
  return trimmed === ''
    ? []
    : trimmed
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/**
 * Reads one search parameter from an attribute string, by the parameter's type: numbers, booleans
 * (`"true"`/`"false"`, or present), lists (a JSON array or comma-separated), filter arrays (JSON or the
 * string form), `typoTolerance` (`true`/`false`/`min`/`strict`). Unknown parameters are read as JSON when
 * they parse, else as the string. Throws a `TypeError` naming the attribute for a value of the wrong type.
 *
 * @example
 * ```ts
 * parseParameter('hits-per-page', '5')                 // ['hitsPerPage', 5]
 * parseParameter('attributes-to-snippet', 'name:10,description') // ['attributesToSnippet', ['name:10', 'description']]
 * parseParameter('facet-filters', '[["brand:Acme"]]')  // ['facetFilters', [['brand:Acme']]]
 * ```
 */
export function parseParameter(attribute: string, text: string): [string, unknown] {
  const name = parameterName(attribute);
  // By the parameter's type in the protocol's table (the one the service validates requests with).
  switch (SEARCH_PARAMETERS[name]) {
    case 'string':
      return [name, text];
    case 'integer':
    case 'number':
      return [name, parseNumber(attribute, text)];
    case 'boolean':
      return [name, parseBoolean(attribute, text)];
    case 'strings':
      return [name, parseList(text)];
    case 'numberOrAll':
      return [name, text.trim() === 'all' ? 'all' : parseNumber(attribute, text)];
    case 'typoTolerance': {
      const value = text.trim();
      return [name, value === 'min' || value === 'strict' ? value : parseBoolean(attribute, value)];
    }
    case 'booleanOrStrings': {
      const value = text.trim().toLowerCase();
      return [name, value === '' || value === 'true' || value === 'false' ? value !== 'false' : parseList(text)];
    }
    case 'booleanOrInteger': {
      const value = text.trim().toLowerCase();
      return [
        name,
        value === '' || value === 'true' || value === 'false' ? value !== 'false' : parseNumber(attribute, text),
      ];
    }
    case 'filters': {
      const trimmed = text.trim();
      if (trimmed.startsWith('[')) {
        const json = parseJson(trimmed);
        if (!Array.isArray(json))
          throw new TypeError(`svc-configure: ${attribute}="${text}" is not a JSON array of filters`);
        return [name, json];
      }
      return [name, trimmed];
    }
    default: {
      const json = parseJson(text);
      return [name, json === undefined ? text : json];
    }
  }
}
