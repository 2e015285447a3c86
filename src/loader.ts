/**
 * The loader behind `dist/svc-search.js` (as Shoelace's autoloader): each `svc-*` tag is registered on first
 * sight, in the document and in the shadow roots it is told about, by importing that element's chunk from beside
 * the loader. The chunks share Lit and the core (root, store, client), so a page pays for the elements it uses.
 *
 * The elements seen together are loaded together (every file requested at once, the roots' chunks included), and
 * the roots (`<svc-search>`) are registered after the others of their batch: by the time a root creates its store
 * and provides it, every element of the batch is upgraded and asks for its facets, hits per page… in the store's
 * first search (a root registered first would search before some elements exist, and search again when they
 * arrive).
 *
 * On a page it can reproduce, the first-paint script (src/prepaint) runs at once: it sends the first search and
 * paints the first hits without Lit, and the element chunks are requested once it has painted (see `prepaint`).
 *
 * A page rendered on a server (`svc-search/ssr`: a root with `server-state`) gets the hydration chunk before the
 * first element chunk: it must be in place before an element class is defined, so the elements adopt the server's
 * declarative shadow DOM rather than render again. Other pages never load it.
 *
 * @example
 * ```html
 * <script type="module" src="https://cdn.example/svc-search/dist/svc-search.js"></script>
 * <svc-search …><svc-search-box></svc-search-box><svc-hits></svc-hits></svc-search>
 * ```
 * ```ts
 * import { discover } from 'https://cdn.example/svc-search/dist/svc-search.js';
 * await discover(myElement.shadowRoot); // elements inside a shadow root
 * ```
 */

/** An element's chunk: importing it registers the tag. */
export type ElementChunk = () => Promise<unknown>;

/** What the build tells the loader about each tag: its chunk, whether it is a root, what its chunk imports. */
export interface ElementEntry {
  load: ElementChunk;
  /** A root provides the store (`<svc-search>`): registered after the other elements of its batch. */
  root?: boolean;
  /**
   * The chunks its chunk imports, directly or not (paths relative to `LoaderOptions.base`): fetched together
   * with it rather than once it has arrived. A root's list names its own chunk too, so it is fetched with the
   * rest of its batch although it is imported after the others.
   */
  preload?: readonly string[];
}

/** A document, a shadow root, or an element whose subtree (itself included) is looked at. */
export type DiscoverRoot = Document | ShadowRoot | Element;

export interface LoaderOptions {
  /**
   * The hydration chunk (`loader-hydrate.ts`: Lit's hydration support and the elements' own), loaded only on a
   * server-rendered page, before any element chunk (an element class must be defined after it).
   */
  hydrate?: ElementEntry;
  /** The URL the `preload` paths are relative to (the loader's own: `import.meta.url`); default the document's. */
  base?: string;
  /**
   * The first paint without Lit (src/prepaint): run at once on a page no server rendered; when it takes the page
   * (returns a promise), the elements' chunks are requested once it has painted (or given up), in a timer set from
   * the frame after, so that what the first results wait for is the loader and one search.
   */
  prepaint?: (document: Document) => Promise<void> | undefined;
}

export interface Loader {
  /**
   * Registers the `svc-*` elements not defined yet in `root` (and keeps watching it for new ones); resolves when
   * they are registered. The document is watched from the start; call it for a shadow root.
   */
  discover(root: DiscoverRoot): Promise<void>;
}

/** Resolves in a timer set from the next frame's callback (at once in a hidden page, which has no frames). */
const afterPaint = (): Promise<void> =>
  new Promise((resolve) => {
    if (document.visibilityState === 'hidden') resolve();
    else requestAnimationFrame(() => setTimeout(resolve));
  });

/**
 * Starts a loader for `elements` (tag → chunk), watching `document`.
 *
 * @example
 * const loader = startLoader({ 'svc-hits': { load: () => import('./elements/hits/define.js') } });
 * await loader.discover(shadowRoot);
 */
export function startLoader(elements: Record<string, ElementEntry>, options: LoaderOptions = {}): Loader {
  const registered = new Map<string, Promise<void>>();
  const watched = new WeakSet<Node>();
  const preloaded = new Set<string>();
  const nonce = scriptNonce(options.base);

  /**
   * Starts fetching each chunk of `entry.preload` once (`<link rel="modulepreload">`, with the loader's CSP nonce).
   * Without it the browser would find a chunk's imports only once the chunk has arrived: a round trip more for each
   * level.
   */
  function preload(entry: ElementEntry): void {
    for (const file of entry.preload ?? []) {
      const href = new URL(file, options.base ?? document.baseURI).href;
      if (preloaded.has(href)) continue;
      preloaded.add(href);
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.nonce = nonce;
      link.href = href;
      document.head.append(link);
    }
  }

  // Module scripts run once the document is parsed: a server-rendered root is there by now.
  const hydrate = document.querySelector('svc-search[server-state]') ? options.hydrate : undefined;
  if (hydrate) preload(hydrate);
  const hydration = hydrate
    ? hydrate.load().catch((error: unknown) => console.error('svc-search: hydration support not loaded', error))
    : Promise.resolve();

  /** Imports the chunk of `tag` (which registers it), after the hydration support; a failure is reported, not thrown. */
  function importChunk(tag: string): Promise<void> {
    const entry = elements[tag]!;
    preload(entry);
    return hydration.then(entry.load).then(
      () => undefined,
      (error: unknown) => console.error(`svc-search: the chunk of <${tag}> could not be loaded`, error),
    );
  }

  /** The tags below `root` (and `root` itself) that the loader knows and has not started loading. */
  function unseenTags(root: DiscoverRoot): string[] {
    const candidates = [...root.querySelectorAll(':not(:defined)')];
    if (root instanceof Element && !root.matches(':defined')) candidates.push(root);
    const tags = new Set<string>();
    for (const element of candidates) {
      const tag = element.localName;
      if (Object.hasOwn(elements, tag) && !registered.has(tag)) tags.add(tag);
    }
    return [...tags];
  }

  async function register(tags: string[]): Promise<void> {
    const roots = tags.filter((tag) => elements[tag]!.root);
    const others = tags.filter((tag) => !elements[tag]!.root);
    // Every file of the batch is requested now, the roots' own chunks among them (a root's preload list names
    // its chunk): waiting for the others before even requesting a root's chunk cost a round trip before the
    // first search. A preloaded module is fetched, not run; the roots' chunks are imported (run) once the others
    // are registered.
    for (const tag of roots) preload(elements[tag]!);
    for (const tag of others) registered.set(tag, importChunk(tag));
    const early = Promise.all(others.map((tag) => registered.get(tag)));
    for (const tag of roots)
      registered.set(
        tag,
        early.then(() => importChunk(tag)),
      );
    await Promise.all(tags.map((tag) => registered.get(tag)));
  }

  function watch(root: Document | ShadowRoot): void {
    if (watched.has(root)) return;
    watched.add(root);
    new MutationObserver((records) => {
      const tags = new Set<string>();
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element) for (const tag of unseenTags(node)) tags.add(tag);
        }
      }
      if (tags.size) void register([...tags]);
    }).observe(root, { childList: true, subtree: true });
  }

  function discover(root: DiscoverRoot): Promise<void> {
    if (!(root instanceof Element)) watch(root);
    return register(unseenTags(root));
  }

  watch(document);
  const painted = hydrate ? undefined : options.prepaint?.(document);
  if (painted) void painted.then(afterPaint).then(() => discover(document));
  else void discover(document);
  return { discover };
}

/**
 * The CSP nonce of the `<script>` that loaded the loader (its `src` is `base`), else of the page's first script
 * with one (the loader imported by an inline module), else ''. Under a Content-Security-Policy with
 * `script-src 'nonce-…'` a `<link rel="modulepreload">` without it is refused, while the chunks themselves load
 * (an import inherits its importer's nonce). `document.currentScript` is null in a module, hence the search; the
 * browser empties the `nonce` attribute once parsed, so the value is read from the property.
 */
function scriptNonce(base: string | undefined): string {
  const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[nonce]')];
  return (scripts.find((script) => script.src === base) ?? scripts[0])?.nonce ?? '';
}
