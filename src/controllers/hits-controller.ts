import type { Hit } from '../client/types.js';
import type { Needs } from '../store/types.js';
import type { HitRef } from '../insights/types.js';
import { StoreController } from './store-controller.js';
import { hitListNeeds } from './first-search-needs.js';

/** A hit with where it stands in the results (for rendering and Insights). */
export interface HitItem<T = Record<string, unknown>> {
  hit: Hit<T>;
  /** Index within the page, 0-based. */
  index: number;
  /** What Insights needs: objectID, queryID, absolute 1-based position, index name. */
  ref: HitRef;
}

/**
 * Headless logic of `<svc-hits>`: the hits of the current page with their absolute positions and the
 * search's queryID, the empty and error states. Asks the store for highlight tags it can parse safely.
 *
 * @example
 * ```ts
 * import { createClient } from 'svc-search/client';
 * import { createStore } from 'svc-search/store';
 * const store = createStore({ client: createClient({ appId, apiKey }), indexName: 'products' });
 * class ResultList extends LitElement {
 *   private results = new HitsController(this, { store });
 *   render() {
 *     return html`<ul>${this.results.items.map(({ hit, ref }) => html`<li>${ref.position}. ${hit.name}</li>`)}</ul>`;
 *   }
 * }
 * ```
 */
export class HitsController<T = Record<string, unknown>> extends StoreController {
  /** Snippets to ask for, as `attribute` or `attribute:words` (the element fills it from its template). */
  attributesToSnippet: string[] = [];
  /**
   * The attributes of each hit to ask for: `['*']` (the default) is whatever the index returns; an element that
   * knows what it shows narrows it (the store asks for what all the lists on the page need together).
   */
  attributesToRetrieve: string[] = ['*'];
  /** The attributes to highlight: `['*']` (the default) is the index's setting. */
  attributesToHighlight: string[] = ['*'];

  protected override needs(): Needs {
    return hitListNeeds(this);
  }

  /** The hits of the current page (empty before the first answer). */
  get hits(): Array<Hit<T>> {
    return (this.snapshot?.results?.hits ?? []) as Array<Hit<T>>;
  }

  /** The hits with their index, absolute position (`page × hitsPerPage + index + 1`) and queryID. */
  get items(): Array<HitItem<T>> {
    const results = this.snapshot?.results;
    if (!results) return [];
    const { page, hitsPerPage, queryID } = results;
    const indexName = results.index ?? this.snapshot!.state.indexName;
    return this.hits.map((hit, index) => ({
      hit,
      index,
      ref: { objectID: hit.objectID, queryID, position: page * hitsPerPage + index + 1, indexName },
    }));
  }

  /** The query of the results shown. */
  get query(): string {
    return this.snapshot?.results?.query ?? this.snapshot?.state.query ?? '';
  }

  /** True when a search answered with no hits. */
  get isEmpty(): boolean {
    return this.snapshot?.results?.hits.length === 0;
  }

  /** The store's error, when the last search failed. */
  get error(): Error | null {
    return this.snapshot?.status === 'error' ? this.snapshot.error : null;
  }

  /** True while a search is running (`loading` or `stalled`). */
  get isLoading(): boolean {
    return /^(loading|stalled)$/.test(this.snapshot?.status ?? '');
  }
}
