/**
 * Personalization (document 2): the strategy, user profiles computed from the stored Insights events, and
 * what a personalised search needs. One {@link Personalizer} per service (`services.personalizer`).
 *
 * Profiles are derived state, like the Recommend models: built from every stored event on first use
 * (a profile read or a personalised search), then kept up to date incrementally — each batch the
 * Insights endpoint stores arrives through the `'insights:events'` event and is added at once. A new strategy
 * drops them; the next use rebuilds them from the event store with the new scoring. Deletions
 * (`deletedUntil`) and the strategy are durable (`storage/personalization.ts`).
 *
 * Formula (`docs/notes/personalization.md`), per user, over the events that count — an event
 * counts when its (eventName, eventType) is in eventsScoring and its timestamp is after the user's
 * `deletedUntil`:
 * - each distinct objectID of the event whose record exists in the event's index gives, for each
 *   facetsScoring facet and each distinct value the record has in it, `eventScore × facetScore` points;
 * - each distinct `attribute:value` of an event with filters (e.g. Filter Applied) whose attribute is a
 *   facetsScoring facet gives that value `eventScore × facetScore` points directly;
 * - the user's values are then scaled so the top value scores 20 (the document's bound):
 *   `score = max(1, round(20 × points / maxPoints))`, integers 1–20;
 * - `lastEventAt` is the latest timestamp of the events that count; a user has a profile once one event
 *   counts (its `scores` may be empty when no record value matched).
 */
import type { PersonalizationInput } from '../engine/index.js';
import type { Catalog } from '../indices/catalog.js';
import type { StoredEvent } from '../events.js';
import type { InsightsEvents } from '../insights/events.js';
import type { PersonalizationStore, PersonalizationStrategy } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';

export interface PersonalizerDependencies {
  /** The strategy and the profile deletions. */
  store: PersonalizationStore;
  /** Strategy changes and profile deletions are writes. */
  tasks: TaskQueue;
  /** The records whose facet values an event scores. */
  catalog: Catalog;
  /** The stored events profiles are computed from. */
  insights: InsightsEvents;
  now: () => number;
}

/** The document's bound on profile scores. */
export const PROFILE_SCORE_BOUND = 20;

/** `GET /1/profiles/personalization/{userToken}`. */
export interface UserProfile {
  userToken: string;
  /** ISO 8601. */
  lastEventAt: string;
  /** Facet name → facet value → score (1–20). */
  scores: Record<string, Record<string, number>>;
}

interface UserPoints {
  lastEventAt: number;
  /** facet → value → raw points. */
  points: Map<string, Map<string, number>>;
  /** The normalised scores, until the next change. */
  scores?: Record<string, Record<string, number>>;
}

/** The text of a record value as facets and filters read it (strings, finite numbers, booleans). */
function facetText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** Every value of a (dotted) attribute of a record, through arrays. */
function valuesAt(value: unknown, path: string[], i: number, out: Set<string>): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) valuesAt(item, path, i, out);
    return;
  }
  if (i === path.length) {
    const text = facetText(value);
    if (text !== undefined) out.add(text);
    return;
  }
  if (typeof value !== 'object' || !Object.hasOwn(value, path[i]!)) return;
  valuesAt((value as Record<string, unknown>)[path[i]!], path, i + 1, out);
}

export class Personalizer {
  private current: PersonalizationStrategy | undefined;
  private deletions = new Map<string, number>();
  /** `eventType \0 eventName` → score. */
  private eventScores = new Map<string, number>();
  /** facetName → score, in the strategy's order. */
  private facetScores = new Map<string, number>();
  /** userToken → points; undefined until built (first use, or after a strategy change). */
  private users: Map<string, UserPoints> | undefined;
  /** Figures of the last full build. */
  lastBuild: { events: number; users: number; ms: number } | undefined;

  readonly #catalog: Catalog;
  readonly #insights: InsightsEvents;
  readonly #tasks: TaskQueue;
  readonly #now: () => number;
  #building: Promise<unknown> | undefined;

  private constructor({ catalog, insights, tasks, now }: PersonalizerDependencies) {
    this.#catalog = catalog;
    this.#insights = insights;
    this.#tasks = tasks;
    this.#now = now;
  }

  /** The personalizer with the stored strategy and deletions (profiles are built on first use). */
  static async load(dependencies: PersonalizerDependencies): Promise<Personalizer> {
    const personalizer = new Personalizer(dependencies);
    await personalizer.reload(dependencies.store);
    return personalizer;
  }

  /** Reads the strategy and the deletions from storage again (a replica applying another replica's write). */
  async reload(store: PersonalizationStore): Promise<void> {
    this.deletions = await store.deletions();
    this.useStrategy(await store.strategy());
  }

  /** Events just stored (`'insights:events'`): added to their users' points (nothing to do before the first build). */
  addStoredEvents(events: readonly StoredEvent[]): void {
    if (!this.users) return;
    for (const event of events) this.apply(event);
  }

  /** Drops a user's profile (their events are gone: `'insights:usertoken-deleted'`). */
  forget(userToken: string): void {
    this.users?.delete(userToken);
  }

  /** The strategy, or undefined before one was set. */
  strategy(): PersonalizationStrategy | undefined {
    return this.current;
  }

  /** Stores a new strategy (durably); profiles are recomputed with it on their next use. */
  async setStrategy(strategy: PersonalizationStrategy): Promise<void> {
    await this.#tasks.run({ indexName: '*', kind: 'personalization:strategy' }, (write) => {
      write.change({ area: 'personalization', type: 'strategy', strategy, at: this.#now() });
      write.afterCommit(() => this.useStrategy(strategy));
    });
  }

  /** The user's profile, or undefined when none of the user's events counts. */
  async profile(userToken: string): Promise<UserProfile | undefined> {
    const user = (await this.usersMap()).get(userToken);
    if (!user) return undefined;
    return { userToken, lastEventAt: new Date(user.lastEventAt).toISOString(), scores: this.scoresOf(user) };
  }

  /**
   * Deletes the user's profile: the events stored so far (up to `deletedUntil`, the later of now and the
   * user's latest event) are ignored from now on; later events start a new profile. Undefined when the
   * service holds no event of that user after the previous deletion (404).
   */
  async deleteProfile(userToken: string): Promise<{ userToken: string; deletedUntil: string } | undefined> {
    const previous = this.deletions.get(userToken);
    const events = await this.#insights.latestOf(userToken, previous ?? Number.MIN_SAFE_INTEGER);
    if (events.count === 0) return undefined;
    // A later deletion never moves `deletedUntil` back.
    const until = Math.max(previous ?? Number.MIN_SAFE_INTEGER, this.#now(), events.latest ?? 0);
    await this.#tasks.run({ indexName: '*', kind: 'personalization:deleteProfile' }, (write) => {
      write.change({ area: 'personalization', type: 'deleted', userToken, until });
      write.afterCommit(() => {
        this.deletions.set(userToken, until);
        this.users?.delete(userToken);
      });
    });
    return { userToken, deletedUntil: new Date(until).toISOString() };
  }

  /**
   * What `Index.search` needs to personalise a query of `userToken`: undefined when there is no strategy,
   * the impact is 0, or the user has no profile scores (the ranking is then everyone's).
   * @param impact the query's `personalizationImpact` (else the strategy's)
   */
  async forSearch(userToken: string, impact?: number): Promise<PersonalizationInput | undefined> {
    if (!this.current) return undefined;
    const effective = impact ?? this.current.personalizationImpact;
    if (!(effective > 0)) return undefined;
    const user = (await this.usersMap()).get(userToken);
    if (!user) return undefined;
    const scores = this.scoresOf(user);
    if (Object.keys(scores).length === 0) return undefined;
    return { impact: effective, scores };
  }

  /** Reads every stored event and recomputes every profile. */
  async rebuild(): Promise<{ events: number; users: number; ms: number }> {
    const started = performance.now();
    const fresh = (read: readonly StoredEvent[]) => {
      this.users = new Map();
      for (const event of read) this.apply(event);
    };
    // Events stored while reading count once (`buildFrom`); without a strategy nothing is read.
    let events = 0;
    if (this.current) events = await this.#insights.buildFrom(fresh);
    else fresh([]);
    this.lastBuild = { events, users: this.users!.size, ms: performance.now() - started };
    return this.lastBuild;
  }

  private async usersMap(): Promise<Map<string, UserPoints>> {
    if (!this.users) {
      // One build at a time: concurrent first uses wait for the same one.
      this.#building ??= this.rebuild().finally(() => {
        this.#building = undefined;
      });
      await this.#building;
    }
    return this.users!;
  }

  private useStrategy(strategy: PersonalizationStrategy | undefined): void {
    this.current = strategy;
    this.eventScores = new Map(
      (strategy?.eventsScoring ?? []).map((entry) => [`${entry.eventType}\u0000${entry.eventName}`, entry.score]),
    );
    this.facetScores = new Map((strategy?.facetsScoring ?? []).map((entry) => [entry.facetName, entry.score]));
    this.users = undefined;
  }

  /** Adds one stored event to its user's points (when it counts). */
  private apply(event: StoredEvent): void {
    const eventScore = this.eventScores.get(`${event.eventType}\u0000${event.eventName}`);
    if (eventScore === undefined) return;
    const deletedUntil = this.deletions.get(event.userToken);
    if (deletedUntil !== undefined && event.timestamp <= deletedUntil) return;
    const users = this.users!;
    let user = users.get(event.userToken);
    if (!user) {
      user = { lastEventAt: event.timestamp, points: new Map() };
      users.set(event.userToken, user);
    }
    user.lastEventAt = Math.max(user.lastEventAt, event.timestamp);
    user.scores = undefined;

    const add = (facet: string, value: string, points: number) => {
      let values = user.points.get(facet);
      if (!values) {
        values = new Map();
        user.points.set(facet, values);
      }
      values.set(value, (values.get(value) ?? 0) + points);
    };
    if (event.objectIDs) {
      const index = this.#catalog.get(event.index);
      if (!index) return;
      for (const objectID of new Set(event.objectIDs)) {
        const record = index.getObject(objectID);
        if (!record) continue;
        for (const [facet, facetScore] of this.facetScores) {
          const values = new Set<string>();
          valuesAt(record, facet.split('.'), 0, values);
          for (const value of values) add(facet, value, eventScore * facetScore);
        }
      }
    } else if (event.filters) {
      for (const filter of new Set(event.filters)) {
        const colon = filter.indexOf(':');
        if (colon <= 0) continue;
        const facetScore = this.facetScores.get(filter.slice(0, colon));
        if (facetScore !== undefined) add(filter.slice(0, colon), filter.slice(colon + 1), eventScore * facetScore);
      }
    }
  }

  /** Points scaled so the user's top value scores 20; facets in the strategy's order, values best first. */
  private scoresOf(user: UserPoints): Record<string, Record<string, number>> {
    if (user.scores) return user.scores;
    let max = 0;
    for (const values of user.points.values()) for (const points of values.values()) max = Math.max(max, points);
    const scores: Record<string, Record<string, number>> = {};
    if (max > 0) {
      for (const facet of this.facetScores.keys()) {
        const values = user.points.get(facet);
        if (!values || values.size === 0) continue;
        const entries = [...values]
          .map(([value, points]) => [value, Math.max(1, Math.round((PROFILE_SCORE_BOUND * points) / max))] as const)
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        const out: Record<string, number> = {};
        for (const [value, score] of entries)
          Object.defineProperty(out, value, { value: score, enumerable: true, writable: true, configurable: true });
        Object.defineProperty(scores, facet, { value: out, enumerable: true, writable: true, configurable: true });
      }
    }
    user.scores = scores;
    return scores;
  }
}
