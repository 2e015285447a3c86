import { html, isServer, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ContextProvider } from '@lit/context';
import { searchContext, type SearchContextValue } from '../../controllers/context.js';
import type { IndexState, SearchStore } from '../../store/types.js';
import { SvcElement } from '../base/svc-element.js';
import { styles } from './styles.js';

/**
 * @tagname svc-index
 * @summary Searches another index with its `<svc-search>`: the elements inside it show that index.
 *
 * @slot - The elements of that index: `<svc-hits>`, `<svc-refinement-list>`, `<svc-pagination>`, … (any markup).
 *
 * Takes the store of its `<svc-search>` (or of an enclosing `<svc-index>`), adds `index-name` to it
 * (`store.addIndex`) and provides that index's store to the elements inside, across shadow roots, as
 * `<svc-search>` does. Both indices are searched in one request per state; the index follows the query of its
 * `<svc-search>` (a search box inside `<svc-index>` sets its own query, until the outer query changes again).
 * With routing, its state is in the URL under keys prefixed with its id (`articles.page=2`). Removing the
 * element removes the index (its searches stop); moving it keeps it. `display: contents`: it adds no box.
 *
 * `index-id` (InstantSearch's `indexId`, default: the index name) searches the same index twice under one
 * parent, each with its own refinements and URL keys (`<svc-index index-name="products" index-id="deals">`).
 * A `<svc-configure>` of the parent applies inside too (its own `<svc-configure>` wins, parameter by
 * parameter). When the service refuses this index (missing, or not allowed by the key), only the elements
 * inside show the error: the other indices of the page show their results.
 *
 * @example
 * ```html
 * <svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="products">
 *   <svc-search-box></svc-search-box>
 *   <svc-hits></svc-hits>
 *   <svc-index index-name="articles">
 *     <svc-refinement-list attribute="author"></svc-refinement-list>
 *     <svc-hits></svc-hits>
 *   </svc-index>
 * </svc-search>
 * ```
 */
export class SvcIndex extends SvcElement {
  static override styles = styles;
  static override properties: PropertyDeclarations = {
    indexName: { attribute: 'index-name', reflect: true },
    indexId: { attribute: 'index-id', reflect: true },
    initialState: { attribute: false },
  };

  /** The index searched by the elements inside. */
  declare indexName: string | undefined;
  /** The id of the index among its parent's (default: `index-name`): the same index added twice needs two ids. */
  declare indexId: string | undefined;
  /** Initial state of the index (a partial `IndexState` or its query string); a state from the URL wins. */
  declare initialState: Partial<IndexState> | string | undefined;

  #provider = new ContextProvider(this, { context: searchContext });
  #parent: SearchStore | undefined;
  #name: string | undefined;
  #id: string | undefined;
  #index: SearchStore | undefined;
  #value: SearchContextValue | undefined;
  #removeTimer: ReturnType<typeof setTimeout> | undefined;

  /** The store of this index (the one the elements inside use); undefined until the element has a parent store and an `index-name`. */
  get indexStore(): SearchStore | undefined {
    return this.#index;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    clearTimeout(this.#removeTimer);
    // The properties Lit declares set before the element was defined (`initialState`, `indexName`…) are restored by
    // Lit at the first update only: the index would be added without them (`initialState` is read only when it is
    // added), or added and replaced. The first update runs now (`performUpdate`, Lit's synchronous update), so they
    // are back before the index is added, as they would be on an element defined before it was connected.
    if (!this.hasUpdated && this.isUpdatePending && !isServer) this.performUpdate();
    // At once (not at the first update), so the elements inside, connected next, get this index's context.
    this.#sync();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moving the element (disconnect + connect in one task) keeps its index; removing it removes the index.
    this.#removeTimer = setTimeout(() => this.isConnected || this.#release());
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (this.isConnected) this.#sync();
  }

  /** Adds the index to the current parent store (again when the parent or the name changed) and provides it. */
  #sync(): void {
    const parent = this.store;
    if (parent !== this.#parent || this.indexName !== this.#name || this.indexId !== this.#id) {
      this.#release();
      this.#parent = parent;
      this.#name = this.indexName;
      this.#id = this.indexId;
      try {
        if (parent && this.indexName) {
          this.#index = parent.addIndex(this.indexName, {
            initialState: this.initialState,
            indexId: this.indexId || undefined,
          });
        }
      } catch (error) {
        console.error(`<svc-index>: ${(error as Error).message}`);
      }
    }
    const context = this.searchContext;
    const value = this.#index && { ...context, store: this.#index };
    // A new value only when something in it changed (the elements inside re-render on each new value).
    if (
      value?.store !== this.#value?.store ||
      value?.insights !== this.#value?.insights ||
      value?.translations !== this.#value?.translations
    ) {
      this.#value = value;
      this.#provider.setValue(value);
    }
  }

  #release(): void {
    this.#index?.dispose();
    this.#index = undefined;
    this.#parent = undefined;
    this.#name = undefined;
    this.#id = undefined;
    if (this.#value) {
      this.#value = undefined;
      this.#provider.setValue(undefined);
    }
  }

  override render() {
    return html`<slot></slot>`;
  }
}
