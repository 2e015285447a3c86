/**
 * The stores of one tree (a root store and the indices added to it) and how their searches travel: the
 * shapes a store and its tree share, one tick's multi-query (the searches of every store due, split back per
 * store, a refused combined request retried store by store), and when a tick runs (the next animation frame
 * in a visible page, the next task in a hidden one, a microtask in Node).
 */
import type { LruCache } from '../client/cache.js';
import type { MultiSearchRequest, SearchClient, SearchResponse } from '../client/types.js';
import type { IndexState, Needs, RequestLogEntry, SearchStore } from './types.js';

/** The kinds of requests sent in batches, named as the client's methods. */
export type Batched = 'recommend' | 'multiSearch';

/** What the stores of one tree (a root and the indices added to it, at any depth) share. */
export interface Tree {
  client: SearchClient;
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  cache: false | LruCache<any>;
  requestLog: RequestLogEntry[];
  stalledDelayMs: number;
  /** The root's node; the tick walks the tree from it. */
  root?: Node;
  /** A tick is queued (see {@link whenDue}). */
  ticking: boolean;
  /**
   * Searches outside the stores' states (`searchIndex`) asked while a tick was queued: they go in that tick's
   * multi-query rather than in a request of their own (an autocomplete's suggestions with the main search it
   * starts by typing: one request per keystroke, not two).
   */
  riders: Part[];
  log(kind: RequestLogEntry['kind'], body: unknown, cached?: boolean): void;
  /** A cached answer (a copy), logged as such. */
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  fromCache(kind: RequestLogEntry['kind'], key: string, body: unknown): any;
}

/** The queries of one store in a tick's multi-query; `answer` gets its slice of the results, or the error. */
export interface Part {
  requests: MultiSearchRequest[];
  /** Sent in a request of its own: the store was refused on its own last time. */
  alone: boolean;
  /** `single`: the request carried this store's queries only. */
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  answer(results?: SearchResponse<any>[], error?: unknown, single?: boolean): void;
  /** Set when the store gave up on the answer (no listener left, disposed). */
  dropped?: boolean;
  /** Given by the tick: counts the part out; the HTTP request is aborted when every part is. */
  drop?(): void;
}

/** A store's inner side, as its tree and its parent use it. */
export interface Node {
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  store: SearchStore<any>;
  /** A search (or notification) is due this tick. */
  due: boolean;
  /** The added indices by id, in order: a live store's node, or a state kept for a store not added yet. */
  indices: Map<string, { live?: Node; state?: IndexState }>;
  prepare(): Part | undefined;
  follow(query: string): void;
  /** The store's state with its added indices' in `indices`. */
  routeState(): IndexState;
  force(): void;
  /** Needs with `inherit` changed above: searches again if its requests changed (and its added indices). */
  rescan(): void;
}

/** What an added index asks of its parent. */
export interface Up {
  // biome-ignore lint/suspicious/noExplicitAny: the stores of a tree hold records of any type; answers are typed by their store
  store: SearchStore<any>;
  /** The added index's id among the parent's indices. */
  id: string;
  /** Its state changed (the parent's URL state with it). */
  changed(): void;
  /** It was disposed. */
  removed(): void;
  /** The root's URL state, and the root's index, with the added index's state replaced by `state`. */
  withIndex(state: IndexState): [IndexState, string];
  /** The needs registered with `inherit` on the parent and its ancestors (outermost first). */
  inherited(): Needs[];
}

/** `state` with its query (and its added indices' queries) set to `query`, page 0. */
export const followed = (state: IndexState, query: string): IndexState => ({
  ...state,
  query,
  page: 0,
  ...(state.indices && {
    indices: Object.fromEntries(Object.entries(state.indices).map(([name, child]) => [name, followed(child, query)])),
  }),
});

/**
 * Whether a failed combined request may be split: the service refused it (a 4xx: a missing index, a key
 * restricted to other indices, a bad parameter of one index), which one store's queries can cause alone.
 * Network errors, timeouts and 5xx fail every store the same way.
 */
export const refused = (error: unknown) => {
  const { name, status } = (error ?? {}) as { name?: string; status?: number };
  return name === 'ApiError' && typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * Sends `parts` in one multi-query and splits the answer back. When the service refuses a request of several
 * stores, each store's part is sent again on its own, so one refused index does not blank the others.
 */
export function send(tree: Tree, parts: Part[]) {
  const live = parts.filter((part) => !part.dropped);
  if (!live.length) return;
  const requests = live.flatMap((part) => part.requests);
  tree.log('search', { requests });
  const controller = new AbortController();
  let open = live.length;
  for (const part of live) {
    part.drop = () => {
      open -= 1;
      if (!open) controller.abort();
    };
  }
  tree.client.multiSearch(requests, { signal: controller.signal, cache: false }).then(
    ({ results }) => {
      let at = 0;
      for (const part of live) {
        part.answer(results.slice(at, at + part.requests.length), undefined, live.length === 1);
        at += part.requests.length;
      }
    },
    (error: unknown) => {
      if (live.length > 1 && refused(error)) {
        for (const part of live) send(tree, [part]);
        return;
      }
      for (const part of live) part.answer(undefined, error, live.length === 1);
    },
  );
}

/**
 * One tick of a tree: the searches of every store due, and the {@link Tree.riders} queued meanwhile, go in one
 * multi-query, the answer split back — except the stores refused on their own last time, each sent in a request
 * of its own (until it succeeds).
 */
export function tick(tree: Tree) {
  tree.ticking = false;
  const parts: Part[] = [];
  const walk = (node: Node) => {
    if (node.due) {
      node.due = false;
      const part = node.prepare();
      if (part) parts.push(part);
    }
    for (const entry of node.indices.values()) if (entry.live) walk(entry.live);
  };
  walk(tree.root!);
  parts.push(...tree.riders.splice(0));
  // A listener notified during the walk may have left (its store dropped its part at once).
  const live = parts.filter((part) => !part.dropped);
  send(
    tree,
    live.filter((part) => !part.alone),
  );
  for (const part of live) if (part.alone) send(tree, [part]);
}

/** The longest a tick waits for an animation frame (a tab hidden meanwhile has none). */
const FRAME_FALLBACK_MS = 100;

/**
 * Runs `tick` at the next animation frame when the page is visible, else (a hidden page, which paints no frame) in
 * the next task, and in a microtask where there is no page (Node). Frames batch the actions of one frame (fast
 * typing, a burst of changes from a framework's renders) into one request, and the request still leaves before
 * the frame is painted; a timer stands in when the tab is hidden before the frame. The next task of a hidden page
 * (a `MessageChannel` message) comes after every microtask of this one: the searches asked there (`searchIndex`:
 * an autocomplete's suggestions for the text that also changed the query) ride in the tick's multi-query.
 */
export function whenDue(tick: () => void): void {
  if (typeof document !== 'object' || typeof requestAnimationFrame !== 'function') {
    queueMicrotask(tick);
    return;
  }
  if (document.visibilityState !== 'visible') {
    // A message rather than a timer: a hidden page runs its timers once a second at most, its messages at once.
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      tick();
    };
    port2.postMessage(0);
    return;
  }
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    clearTimeout(fallback);
    tick();
  };
  const fallback = setTimeout(once, FRAME_FALLBACK_MS);
  requestAnimationFrame(once);
}
