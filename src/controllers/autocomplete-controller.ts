import { initialState, Task, TaskStatus } from '@lit/task';
import type { ReactiveControllerHost } from 'lit';
import type { Hit } from '../client/types.js';
import type { SearchStore } from '../store/types.js';
import { HIGHLIGHT_PARAMS } from './highlight-tags.js';
import { SearchBoxController } from './search-box-controller.js';
import type { StoreControllerOptions } from './store-controller.js';

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
 * suggestions index per change of the text at most, through `store.searchIndex` — batched with the searches of
 * the same tick, cached — run by a `@lit/task`, which drops an answer to an older text), whether the list is
 * open, the active suggestion, and the actions — `move` (wrapping), `select` (the main query becomes the
 * suggestion: one search, first page), `submit` (the typed text), `close`, `clear`.
 *
 * The field and the results never disagree silently:
 * - with `searchAsYouType`, typing is also the main query (one search per change, as `<svc-search-box>`), the
 *   list offering suggestions meanwhile;
 * - without it (the default), typing asks for suggestions only, and when the list closes without a choice or
 *   a submit (Escape, Tab, a click elsewhere) the text goes back to the query the results show.
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
  /** Typing is also the main query (the results follow the text); else only a choice or a submit searches. */
  searchAsYouType = false;

  /** The text typed (what the suggestions are for). */
  input = '';
  /** Index of the active suggestion (`aria-activedescendant`), -1 for none. */
  activeIndex = -1;
  /** The user wants the list (typed, or opened it with the arrows); `expanded` also needs suggestions. */
  open = false;

  #store: SearchStore | undefined;
  /** What the suggestions are asked for now (undefined: nothing, e.g. an empty text). */
  #asked: SuggestionRequest | undefined;
  readonly #suggest: Task<[SearchStore | undefined, SuggestionRequest | undefined], Suggestion[]>;

  constructor(host: ReactiveControllerHost, options?: StoreControllerOptions) {
    super(host, options);
    this.#suggest = new Task(host, {
      autoRun: false,
      task: async ([store, request]) => {
        if (!store || !request) return initialState;
        const answer = await store.searchIndex({
          indexName: request.indexName,
          params: {
            query: request.query,
            hitsPerPage: request.max,
            attributesToHighlight: ['query'],
            ...HIGHLIGHT_PARAMS,
          },
        });
        return suggestionsOf(answer.hits, request);
      },
      onComplete: () => {
        if (this.activeIndex >= this.suggestions.length) this.activeIndex = -1;
      },
    });
  }

  /** The suggestions of the last answer for the current text (kept while the next text's are loading). */
  get suggestions(): Suggestion[] {
    const { status, value } = this.#suggest;
    if (!this.#asked || status === TaskStatus.INITIAL || status === TaskStatus.ERROR) return [];
    return value ?? [];
  }

  /** Where the suggestions stand: `idle` (no text), `loading`, `ready` or `error`. */
  get status(): SuggestionsStatus {
    return STATUSES[this.#suggest.status];
  }

  /** Why the last suggestions request failed (status `error`). */
  get error(): Error | undefined {
    const error = this.#suggest.status === TaskStatus.ERROR ? this.#suggest.error : undefined;
    return error === undefined || error instanceof Error ? error : new Error(String(error));
  }

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
   * (one search; nothing for blank text). With `searchAsYouType`, the text is also the main query.
   */
  setInput(text: string): void {
    this.input = text;
    this.activeIndex = -1;
    this.open = true;
    if (this.searchAsYouType) this.refine(text);
    this.#ask();
  }

  /** Moves the active suggestion by `delta` (wrapping at both ends); opens a closed list first. */
  move(delta: number): void {
    const count = this.suggestions.length;
    if (!count) return;
    if (!this.open) {
      this.open = true;
      this.activeIndex = delta > 0 ? 0 : count - 1;
    } else if (this.activeIndex < 0 && delta < 0) {
      this.activeIndex = count - 1;
    } else {
      this.activeIndex = (((this.activeIndex + delta) % count) + count) % count;
    }
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

  /**
   * Closes the list (Escape, Tab, the focus leaving); the suggestions are kept for the arrows to open it
   * again. Without `searchAsYouType`, the text goes back to the query the results show: a text that was never
   * searched does not stay over results of another query.
   */
  close(): void {
    if (!this.open && this.activeIndex < 0) return;
    this.open = false;
    this.activeIndex = -1;
    // The store's own state: the snapshot may lag an action of this tick (a choice just made).
    const query = this.store?.getSnapshot().state.query ?? this.query;
    if (!this.searchAsYouType && this.input !== query) {
      this.input = query;
      // The arrows open the list again: with the suggestions of the text shown.
      this.#ask();
    }
    this.host.requestUpdate();
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
    this.open = false;
    this.activeIndex = -1;
    this.#asked = undefined;
    void this.#suggest.run([undefined, undefined]);
  }

  #ask(): void {
    const indexName = this.indexName;
    const query = this.input;
    const request =
      indexName && query.trim()
        ? {
            indexName,
            query,
            max: this.maxSuggestions,
            source: this.sourceIndex || this.store?.baseIndex || '',
            categoryAttribute: this.categoryAttribute,
          }
        : undefined;
    this.#asked = request;
    void this.#suggest.run([this.store, request]);
  }
}

/** What one suggestions search asks (the task's argument). */
interface SuggestionRequest {
  indexName: string;
  query: string;
  max: number;
  /** The source index whose facets the records hold. */
  source: string;
  categoryAttribute: string | undefined;
}

const STATUSES: Record<TaskStatus, SuggestionsStatus> = {
  [TaskStatus.INITIAL]: 'idle',
  [TaskStatus.PENDING]: 'loading',
  [TaskStatus.COMPLETE]: 'ready',
  [TaskStatus.ERROR]: 'error',
};

/** The suggestions of an answer: records with a string `query`, their highlighted query and category. */
function suggestionsOf(hits: Hit[], request: SuggestionRequest): Suggestion[] {
  const attribute = request.categoryAttribute;
  return hits
    .filter((hit) => typeof hit.query === 'string')
    .slice(0, request.max)
    .map((hit) => {
      const facets = (hit[request.source] as SourceFacets | undefined)?.facets;
      const value = attribute && facets?.exact_matches?.[attribute]?.[0]?.value;
      const highlighted = (hit._highlightResult as { query?: { value?: unknown } } | undefined)?.query?.value;
      return {
        query: hit.query as string,
        highlighted: typeof highlighted === 'string' ? highlighted : escapeQuery(hit.query as string),
        category: typeof value === 'string' || typeof value === 'number' ? String(value) : undefined,
        hit,
      };
    });
}

/** Escapes a raw query for the highlighted form (where no highlight result was answered). */
const escapeQuery = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
