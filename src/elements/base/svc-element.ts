import { isServer, LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ContextConsumer, ContextRoot } from '@lit/context';
import { searchContext, type SearchContextValue } from '../../controllers/context.js';
import type { SearchStore } from '../../store/types.js';
import type { InsightsLike } from '../../insights/types.js';
import { closestLang, documentLanguage } from './language.js';
import { translate, type Translations } from './translate.js';
import { type ServerState, serverRender } from './server-render.js';

/** Name of the internal event `<svc-search>` fires on `document` when its context value changes. */
export const SEARCH_CONTEXT_EVENT = 'svc-search-context';

/**
 * What the elements do on a page a server rendered (`hydration.ts`). Installed only there (`svc-search/hydrate`,
 * the loader on such a page, `svc-search.all.js`), so a page no server rendered carries none of it.
 */
export interface Hydration {
  /** The element connects: notes whether its shadow root came from the server (before its first update). */
  connected(element: SvcElement): void;
  /** Whether the element's first update must wait (a server-rendered element waits for its store). */
  waits(element: SvcElement, consumesContext: boolean): boolean;
  /** Runs the element's `update` (`update()`): hydrating a server-rendered element, or rendering it afresh. */
  update(element: SvcElement, update: () => void): void;
  /** The state and results a server rendered a root (`<svc-search server-state>`) with, the first time asked. */
  serverState(root: Element, indexName: string): ServerState | undefined;
}

let installed: Hydration | undefined;

/** The hydration of a server-rendered page, when installed. */
export const hydration = (): Hydration | undefined => installed;

/** Installs `value` as the elements' hydration (`installHydration()` of `hydration.ts`). */
export function setHydration(value: Hydration): void {
  installed = value;
}

/** Marks the document as having its `ContextRoot` (one per page, whatever copies of the library it loads). */
const CONTEXT_ROOT = Symbol.for('svc-search.context-root');

/**
 * Attaches one `@lit/context` `ContextRoot` to the document, the first time an element connects: it keeps the
 * context requests nobody answered (an element upgraded before its `<svc-search>` was defined, or before it
 * was in the page) and sends them again when a provider appears.
 */
function attachContextRoot(): void {
  const marked = document as Document & { [CONTEXT_ROOT]?: ContextRoot };
  if (marked[CONTEXT_ROOT]) return;
  marked[CONTEXT_ROOT] = new ContextRoot();
  marked[CONTEXT_ROOT].attach(document as unknown as HTMLElement);
}

/** The shape of an element that can be named by `search="id"` (`<svc-search>` implements it). */
export interface SearchContextSource extends Element {
  readonly context?: SearchContextValue;
}

/**
 * Base class of every svc element: finds the `SearchContextValue` of its `<svc-search>` and translates its
 * strings.
 *
 * The context is found through `@lit/context` (it crosses shadow roots; an element that connected before its
 * `<svc-search>` was defined is answered when the root connects, through the document's `ContextRoot`), or, when the element has a
 * `search="id"` attribute, from the `context` of the element with that id in the element's own root (a
 * shadow root or the document), else in the document — so an element placed anywhere on the page, or in the
 * same shadow root as its search, can name it. Subclasses read `this.store` / `this.insights` and pass `() => this.store` to
 * their controllers; a context change triggers an update.
 *
 * Strings: each subclass declares `static defaultTranslations` (English); `this.t(key, params)` looks a key
 * up in the element's own `translations`, then the root's `translations` — first as `'<tag>.<key>'`
 * (e.g. `'svc-pagination.label'`, for a key several elements share), then as `key` — then the defaults, and replaces
 * `{placeholders}`. With a numeric `count` parameter, a `key.one`/`key.other`… plural form (by
 * `Intl.PluralRules` of the element's language) is used when present.
 *
 * @example
 * ```ts
 * class MyElement extends SvcElement {
 *   static override defaultTranslations = { hello: 'Hello {name}' };
 *   private results = new HitsController(this, { store: () => this.store });
 *   override render() { return html`${this.t('hello', { name: 'you' })}`; }
 * }
 * ```
 */
export class SvcElement extends LitElement {
  static override properties: PropertyDeclarations = {
    search: { reflect: true },
    translations: { attribute: false },
  };

  /** English defaults of the element's strings (documented on each element). */
  static defaultTranslations: Translations = {};

  /** Whether the element looks for a `<svc-search>` context (`<svc-search>` itself does not). */
  protected static consumesContext = true;

  /** `id` of the `<svc-search>` this element belongs to, when it is not inside it. */
  declare search: string | undefined;
  /** Partial map of this element's strings; overlays the `<svc-search>`'s `translations` and the defaults. */
  declare translations: Translations | undefined;

  #context: SearchContextValue | undefined;
  #provided: SearchContextValue | undefined;
  #store: SearchStore | undefined;
  #insights: InsightsLike | undefined;
  #consumes = (this.constructor as typeof SvcElement).consumesContext;
  /**
   * A root announced a new context (`SEARCH_CONTEXT_EVENT`, composed, on every change): take it when it is
   * the one named by `search` (the context of the surrounding root reaches the consumer by itself).
   */
  #onContext = (event: Event) => {
    // composedPath()[0]: a root inside a shadow root reaches `document` retargeted to its host.
    if (this.search && (event.composedPath()[0] as Element).id === this.search) this.#named();
  };

  constructor() {
    super();
    // The consumer adds itself to the host's controllers: it asks on every connect and follows the provider.
    if (this.#consumes) {
      new ContextConsumer(this, {
        context: searchContext,
        subscribe: true,
        callback: (value) => {
          this.#provided = value;
          if (!this.search) this.searchContext = value;
        },
      });
    }
  }

  /**
   * Whether a server can render this element as the browser will. A server sees no light DOM: an element that
   * renders from its children (`<option>`s, a facet inside a panel) says no unless its properties give what they
   * would, and is then rendered in the browser only. (Asked by the server render, `svc-search/ssr`.)
   */
  protected serverRenderable(): boolean {
    return true;
  }

  override connectedCallback(): void {
    // On a server there is no document: the context comes from the root rendered around the element (no
    // `search="id"` lookup, no document listeners, which nothing would ever remove).
    if (isServer) {
      super.connectedCallback();
      return;
    }
    installed?.connected(this);
    // Before the consumer's first request (sent by `super.connectedCallback()`), so it is kept if unanswered.
    if (this.#consumes) attachContextRoot();
    // A named root is looked up before the controllers connect (in `super.connectedCallback()`), so they bind to
    // its store at once and their needs are in its first search (not in a second one after the first update).
    if (this.#consumes && this.search) this.#named();
    super.connectedCallback();
    if (this.#consumes) document.addEventListener(SEARCH_CONTEXT_EVENT, this.#onContext);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener(SEARCH_CONTEXT_EVENT, this.#onContext);
  }

  /** On a server-rendered page, see `Hydration`. */
  protected override shouldUpdate(changed: PropertyValues): boolean {
    return !installed?.waits(this, this.#consumes) && super.shouldUpdate(changed);
  }

  protected override update(changed: PropertyValues): void {
    if (installed) installed.update(this, () => super.update(changed));
    else super.update(changed);
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('search') && this.isConnected) {
      if (this.search) this.#named();
      else this.searchContext = this.#provided;
    }
  }

  /** The context of the `<svc-search>` this element belongs to (undefined until found); a change updates. */
  protected get searchContext(): SearchContextValue | undefined {
    return this.#context;
  }
  protected set searchContext(value: SearchContextValue | undefined) {
    if (value !== this.#context) {
      this.#context = value;
      this.requestUpdate();
    }
  }

  /**
   * The store of the search this element belongs to. Setting it uses that store instead of the context's
   * (an element can then work without `<svc-search>`).
   */
  get store(): SearchStore | undefined {
    return this.#store ?? this.#context?.store;
  }
  set store(store: SearchStore | undefined) {
    this.#store = store;
    this.requestUpdate();
  }

  /** The insights module of the search (undefined when insights is off); settable like `store`. */
  get insights(): InsightsLike | undefined {
    return this.#insights ?? this.#context?.insights;
  }
  set insights(insights: InsightsLike | undefined) {
    this.#insights = insights;
    this.requestUpdate();
  }

  /** The element's language: the nearest `lang` (crossing shadow roots), else the document's, else `en`. */
  get language(): string {
    const lang = closestLang(this);
    if (lang) return lang;
    // A server sees no ancestors: the page's language is the render's.
    if (isServer) return serverRender()?.lang ?? 'en';
    return documentLanguage();
  }

  /**
   * The translated string of `key` with `{placeholders}` replaced (numbers formatted for the language).
   * @example this.t('noResults', { query: 'phone' }) // "No results for “phone”"
   */
  t(key: string, params?: Record<string, string | number>): string {
    const root = this.#context?.translations;
    // A root key written for this tag (`'svc-pagination.label'`) wins over the plain one: `label` is shared.
    return translate(
      [
        this.translations,
        (k) => root?.[`${this.localName}.${k}`],
        root,
        (this.constructor as typeof SvcElement).defaultTranslations,
      ],
      key,
      params,
      this.language,
    );
  }

  /** Fires a user-action event (`bubbles`, `composed`); returns false when a listener cancelled it. */
  protected emit<D>(type: string, detail: D, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent<D>(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  /**
   * Takes the context of the `<svc-search id=…>` named by `search`: first in this element's own root (its
   * shadow root, where ids are scoped), then in the document (none yet: its event calls again).
   */
  #named(): void {
    const id = this.search!;
    const found = (this.getRootNode() as Document | ShadowRoot).getElementById?.(id) ?? document.getElementById(id);
    this.searchContext = (found as SearchContextSource | null)?.context;
  }
}
