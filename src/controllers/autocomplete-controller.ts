import type { Hit } from '../client/types.js';
import type { SearchStore } from '../store/types.js';
import { HIGHLIGHT_PARAMS } from './highlight-tags.js';
import { SearchBoxController } from './search-box-controller.js';

/** One query suggestion as shown: the record of the suggestions index, its highlighted query, its category. */
export interface Suggestion {
  /** The suggested query (the record's `query`). */
  query: string;
  /** `_highlightResult.query.value`: HTML-escaped text with the svc highlight tags (render it with `parseHighlight`). */
  highlighted: string;
  /** The top value of `categoryAttribute` among the suggestion's hits in the source index, when asked and known. */
  category: string | undefined;
  /** The whole record (`popularity`, `nb_words`, per source index `exact_nb_hits` and `facets`). */
  hit: Hit;
}

/** Where the suggestions stand: nothing asked (empty text), waiting, answered, or failed. */
export type SuggestionsStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A suggestion record's facets for one source index (document 2's Query Suggestions records). */
interface SourceFacets {
  facets?: { exact_matches?: Record<string, Array<{ value?: unknown }> | undefined> };
}

/**
 * Headless logic of `<svc-autocomplete>`: the text being typed, the query suggestions for it (one search of the
 * suggestions index per change of the text at most, through `store.searchIndex`: batched with the searches of
 * the same tick, cached, out-of-order answers ignored), whether the list is open, the active suggestion, and
 * the actions — `move` (wrapping), `select` (the main query becomes the suggestion: one search, first page),
 * `submit` (the typed text), `close`, `clear`. The main query changes only through `select`, `submit` and
 * `clear`: typing asks for suggestions, not for results.
 *
 * @example
 * ```ts
 * class MyAutocomplete extends LitElement {
 *   private ac = new AutocompleteController(this, { store });
 *   render() {
 *     return html`<input .value=${this.ac.input} @input=${(e) => this.ac.setInput(e.target.value)}>
 *       <ul>${this.ac.suggestions.map((s, i) => html`<li @click=${() => this.ac.select(i)}>${s.query}</li>`)}</ul>`;
 *   }
 * }
 * ```
 */
export class AutocompleteController extends SearchBoxController {
  /** The suggestions index (default: `<main index>_query_suggestions`, the Query Suggestions convention). */
  suggestionsIndex: string | undefined;
  /** Most suggestions shown (default 5). */
  maxSuggestions = 5;
  /** A facet of the suggestion records (`facets` of the configuration) whose top value is each suggestion's `category`. */
  categoryAttribute: string | undefined;
  /** The source index whose facets are read in the records (default: the store's main index). */
  sourceIndex: string | undefined;

  /** The text typed (what the suggestions are for). */
  input = '';
  /** The suggestions of the last answer for the current text. */
  suggestions: Suggestion[] = [];
  status: SuggestionsStatus = 'idle';
  error: Error | undefined;
  /** Index of the active suggestion (`aria-activedescendant`), -1 for none. */
  activeIndex = -1;
  /** The user wants the list (typed, or opened it with the arrows); `expanded` also needs suggestions. */
  open = false;

  #sequence = 0;
  #store: SearchStore | undefined;

  /** True when the list is shown: open and with suggestions. */
  get expanded(): boolean {
    return this.open && this.suggestions.length > 0;
  }

  /** The active suggestion, if any. */
  get active(): Suggestion | undefined {
    return this.expanded ? this.suggestions[this.activeIndex] : undefined;
  }

  /** The index searched for suggestions. */
  get indexName(): string | undefined {
    const base = this.store?.baseIndex;
    return this.suggestionsIndex || (base && `${base}_query_suggestions`);
  }

  override sync(): void {
    super.sync();
    // Another store (the root was rebuilt) or none: what was suggested belongs to the old one.
    if (this.store !== this.#store) {
      this.#store = this.store;
      this.#reset();
    }
  }

  /**
   * The user typed `text`: the list opens, no suggestion is active, and the suggestions for it are asked
   * (one search; nothing for blank text).
   */
  setInput(text: string): void {
    this.input = text;
    this.activeIndex = -1;
    this.open = true;
    this.#ask();
  }

  /** Moves the active suggestion by `delta` (wrapping at both ends); opens a closed list first. */
  move(delta: number): void {
    const count = this.suggestions.length;
    if (!count) return;
    if (!this.open) {
      this.open = true;
      this.activeIndex = delta > 0 ? 0 : count - 1;
    } else
      this.activeIndex =
        this.activeIndex < 0 && delta < 0 ? count - 1 : (((this.activeIndex + delta) % count) + count) % count;
    this.host.requestUpdate();
  }

  /**
   * Makes suggestion `index` (default: the active one) the main query: one search, back to the first page.
   * Returns its query, or undefined when there is no such suggestion.
   */
  select(index = this.activeIndex): string | undefined {
    const suggestion = this.expanded ? this.suggestions[index] : undefined;
    if (!suggestion) return undefined;
    this.#search(suggestion.query);
    return suggestion.query;
  }

  /** Searches the typed text (Enter without an active suggestion). */
  submit(): string {
    this.#search(this.input);
    return this.input;
  }

  /** Closes the list (Escape, Tab, blur); the suggestions are kept for the arrows to open it again. */
  close(): void {
    if (this.open || this.activeIndex >= 0) {
      this.open = false;
      this.activeIndex = -1;
      this.host.requestUpdate();
    }
  }

  /** Empties the text and the main query. */
  override clear(): void {
    this.input = '';
    this.#reset();
    // The store action itself (an unchanged state makes no search): the snapshot may lag an action of this tick.
    this.store?.setQuery('');
  }

  /** Shows `query` in the field without asking anything (the main query changed elsewhere). */
  showQuery(query: string): void {
    this.input = query;
  }

  #search(query: string): void {
    this.input = query;
    this.open = false;
    this.activeIndex = -1;
    // Always the store action, even for the query already searched: it goes back to the first page.
    this.store?.setQuery(query);
    this.host.requestUpdate();
  }

  #reset(): void {
    this.#sequence++;
    this.suggestions = [];
    this.status = 'idle';
    this.error = undefined;
    this.open = false;
    this.activeIndex = -1;
  }

  #ask(): void {
    const store = this.store;
    const indexName = this.indexName;
    const query = this.input;
    const sequence = ++this.#sequence;
    if (!store || !indexName || !query.trim()) {
      this.suggestions = [];
      this.status = 'idle';
      this.host.requestUpdate();
      return;
    }
    this.status = 'loading';
    this.host.requestUpdate();
    store
      .searchIndex({
        indexName,
        params: { query, hitsPerPage: this.maxSuggestions, attributesToHighlight: ['query'], ...HIGHLIGHT_PARAMS },
      })
      .then(
        (answer) => {
          if (sequence !== this.#sequence) return; // an older text's answer
          const source = this.sourceIndex || store.baseIndex;
          const attribute = this.categoryAttribute;
          this.suggestions = answer.hits
            .filter((hit) => typeof hit.query === 'string')
            .slice(0, this.maxSuggestions)
            .map((hit) => {
              const value =
                attribute && (hit[source] as SourceFacets | undefined)?.facets?.exact_matches?.[attribute]?.[0]?.value;
              const highlighted = (hit._highlightResult as { query?: { value?: unknown } } | undefined)?.query?.value;
              return {
                query: hit.query as string,
                highlighted: typeof highlighted === 'string' ? highlighted : escape(hit.query as string),
                category: typeof value === 'string' || typeof value === 'number' ? String(value) : undefined,
                hit,
              };
            });
          this.status = 'ready';
          this.error = undefined;
          if (this.activeIndex >= this.suggestions.length) this.activeIndex = -1;
          this.host.requestUpdate();
        },
        (error: unknown) => {
          if (sequence !== this.#sequence) return;
          this.suggestions = [];
          this.status = 'error';
          this.error = error instanceof Error ? error : new Error(String(error));
          this.host.requestUpdate();
        },
      );
  }
}

/** Escapes a raw query for the highlighted form (where no highlight result was answered). */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
