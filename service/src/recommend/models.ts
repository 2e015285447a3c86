/**
 * The Recommend models of one index, trained from stored Insights events (Node only, no HTTP, no storage).
 *
 * Every model answers scores on one scale, 0 to 100, so that a request's `threshold` means the same thing on
 * every model ("how sure the model is", 100 = as sure as it gets):
 *
 * - **bought-together** — the shrunk confidence that B is converted in a session where A is converted:
 *   `100 × sessions(A and B converted) / (sessions(A converted) + prior)`. The prior (default 1) keeps a pair
 *   seen once from scoring as high as a pair seen in every one of many sessions.
 * - **related-products** — behaviour and content, each able to make two records related:
 *   `100 × (1 − (1 − content)·(1 − λ·cosine))` (a "noisy or": either signal raises the score, neither lowers
 *   it), where `cosine = co(A,B) / √(n(A)·n(B))` counts sessions in which the same user clicked or converted
 *   both (weights: conversion 1, click 0.5; a pair counts its weaker side), `λ = co(A,B) / (co(A,B) + evidence)`
 *   discounts pairs seen only once or twice, and `content` is the similarity of the two records (same
 *   subCategory, category, brand, shared name terms; see {@link contentSimilarity}). An item nobody has
 *   touched yet is recommended on content alone.
 * - **trending-items** — time-decayed popularity in the trending window: each click (0.5) or conversion (1)
 *   counts `2^(−age / halfLife)`; the score is `100 × decayed(item) / decayed(hottest item)` within the scope
 *   (the whole index, or the records whose `facetName` has `facetValue`).
 * - **trending-facets** — the same decayed sum over conversions only, per value of `facetName` of the
 *   converted records, `100 × decayed(value) / decayed(hottest value)`.
 *
 * A *session* is a run of one user's events on one index with no gap longer than `sessionGapMs`
 * (30 minutes, the usual web-analytics session); for the demo catalogue one order is one session.
 *
 * Updates are incremental: {@link IndexModels.add} takes new events; the users they touch have their
 * sessions recomputed from their own history (so events arriving out of order are placed right) and only
 * their contribution to the co-occurrence counts is replaced. Trending is computed at request time from the
 * events inside the window, cached until the next event or the next minute.
 */

export type ModelEventType = 'click' | 'view' | 'conversion';

/** The part of a stored Insights event the models read. */
export interface ModelEvent {
  eventType: ModelEventType | string;
  userToken: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  objectIDs?: string[];
}

export interface ModelOptions {
  /** Longest gap between two events of one session (ms). Default 30 minutes. */
  sessionGapMs: number;
  /** Half-life of the trending decay (ms). Default 7 days. */
  trendingHalfLifeMs: number;
  /** Events older than this are not read by trending (ms). Default 30 days. */
  trendingWindowMs: number;
  /** Weight of a click in related-products and trending-items (a conversion weighs 1). Default 0.5. */
  clickWeight: number;
  /** Added to the number of sessions of A in the bought-together confidence. Default 1. */
  boughtTogetherPrior: number;
  /** Co-interactions of a pair at which its cosine counts half (λ = ½) in related-products. Default 2. */
  relatedEvidence: number;
  /** Record attributes compared by the content similarity, with their weights; `name` is compared by terms. */
  contentAttributes: Record<string, number>;
  /**
   * A session with more distinct items than this (a bulk order, a bot, a load test) still counts each item
   * once but makes no pairs: it carries no basket signal, and its pairs would cost n² to count. Default 50.
   */
  maxSessionItems: number;
}

export const DEFAULT_MODEL_OPTIONS: ModelOptions = {
  sessionGapMs: 30 * 60 * 1000,
  trendingHalfLifeMs: 7 * 24 * 3600 * 1000,
  trendingWindowMs: 30 * 24 * 3600 * 1000,
  clickWeight: 0.5,
  boughtTogetherPrior: 1,
  relatedEvidence: 2,
  contentAttributes: { subCategory: 0.35, category: 0.15, brand: 0.2, name: 0.3 },
  maxSessionItems: 50,
};

/** A scored recommendation before it is joined with its record. */
export interface Scored {
  objectID: string;
  score: number;
}

interface CompactEvent {
  ts: number;
  /** 'c' conversion, 'k' click (views are not read by any model). */
  kind: 'c' | 'k';
  objectIDs: string[];
}

interface Session {
  /** Index of the session's first event in its user's sorted events, and one past its last. */
  first: number;
  end: number;
  /** Timestamp of its last event. */
  lastTs: number;
  /** objectIDs converted in the session. */
  converted: Set<string>;
  /** objectID → interaction weight (max over its events: conversion 1, click `clickWeight`). */
  interacted: Map<string, number>;
}

interface UserHistory {
  events: CompactEvent[];
  sessions: Session[];
}

/** Symmetric sparse co-occurrence counts. */
class PairCounts {
  readonly single = new Map<string, number>();
  readonly pairs = new Map<string, Map<string, number>>();

  addSingle(a: string, w: number): void {
    const v = (this.single.get(a) ?? 0) + w;
    if (Math.abs(v) < 1e-9) this.single.delete(a);
    else this.single.set(a, v);
  }

  addPair(a: string, b: string, w: number): void {
    this.bump(a, b, w);
    this.bump(b, a, w);
  }

  private bump(a: string, b: string, w: number): void {
    let row = this.pairs.get(a);
    if (!row) {
      row = new Map();
      this.pairs.set(a, row);
    }
    const v = (row.get(b) ?? 0) + w;
    if (Math.abs(v) < 1e-9) {
      row.delete(b);
      if (row.size === 0) this.pairs.delete(a);
    } else row.set(b, v);
  }
}

/** Splits one user's events (sorted by time) from index `from` on into sessions. */
export function sessionize(events: CompactEvent[], gapMs: number, clickWeight: number, from = 0): Session[] {
  const sessions: Session[] = [];
  let current: Session | undefined;
  let last = -Infinity;
  for (let index = from; index < events.length; index++) {
    const e = events[index]!;
    if (!current || e.ts - last > gapMs) {
      current = { first: index, end: index, lastTs: e.ts, converted: new Set(), interacted: new Map() };
      sessions.push(current);
    }
    last = current.lastTs = e.ts;
    current.end = index + 1;
    const w = e.kind === 'c' ? 1 : clickWeight;
    for (const id of e.objectIDs) {
      if (e.kind === 'c') current.converted.add(id);
      if ((current.interacted.get(id) ?? 0) < w) current.interacted.set(id, w);
    }
  }
  return sessions;
}

const STOPWORDS = new Set(['a', 'an', 'and', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'w']);

/** Lower-cased name terms of at least two characters, stop words removed. */
export function nameTerms(name: unknown): Set<string> {
  const out = new Set<string>();
  if (typeof name !== 'string') return out;
  for (const t of name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)) {
    if (t.length >= 2 && !STOPWORDS.has(t)) out.add(t);
  }
  return out;
}

/** Values of an attribute (dotted path; arrays give several values), as strings. */
export function attributeValues(record: Record<string, unknown> | undefined, path: string): string[] {
  if (!record) return [];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return [];
    value = (value as Record<string, unknown>)[part];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean').map(String);
}

/** What the content similarity compares of a record: the values of each weighted attribute, and the name terms. */
export interface ContentFeatures {
  values: Map<string, string[]>;
  terms: Set<string>;
}

/** The content features of a record for the given attribute weights. */
export function contentFeatures(record: Record<string, unknown>, weights: Record<string, number>): ContentFeatures {
  const values = new Map<string, string[]>();
  for (const attribute of Object.keys(weights))
    if (attribute !== 'name') values.set(attribute, [...new Set(attributeValues(record, attribute))]);
  return { values, terms: 'name' in weights ? nameTerms(record.name) : new Set() };
}

/**
 * Content similarity of two records' features, 0 to 1: the weighted share of the compared attributes they
 * have in common (`name` by the Jaccard index of its terms, the others by a shared value). Attributes the
 * source record lacks are left out and the remaining weights rescaled, so a catalogue without brands still
 * reaches 1.
 */
export function featureSimilarity(a: ContentFeatures, b: ContentFeatures, weights: Record<string, number>): number {
  let total = 0;
  let got = 0;
  for (const attribute in weights) {
    const weight = weights[attribute]!;
    if (attribute === 'name') {
      if (a.terms.size === 0) continue;
      total += weight;
      let shared = 0;
      for (const t of a.terms) if (b.terms.has(t)) shared++;
      const union = a.terms.size + b.terms.size - shared;
      if (union > 0) got += (weight * shared) / union;
      continue;
    }
    const va = a.values.get(attribute)!;
    if (va.length === 0) continue;
    total += weight;
    const vb = b.values.get(attribute)!;
    if (va.some((v) => vb.includes(v))) got += weight;
  }
  return total > 0 ? got / total : 0;
}

/**
 * Content similarity of two records, 0 to 1 (see {@link featureSimilarity}).
 *
 * @example
 * contentSimilarity({ category: 'A', name: 'red pen' }, { category: 'A', name: 'blue pen' }, { category: 0.5, name: 0.5 })
 * // 0.5·1 + 0.5·(1/3) = 0.6667
 */
export function contentSimilarity(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  weights: Record<string, number>,
): number {
  return featureSimilarity(contentFeatures(a, weights), contentFeatures(b, weights), weights);
}

/** Looks records up by objectID; the models only need the records, not the engine. */
export interface RecordSource {
  get(objectID: string): Record<string, unknown> | undefined;
  objects(): Iterable<Record<string, unknown> & { objectID: string }>;
  /** Changes whenever records change (used to invalidate the content index). */
  version(): string | number;
}

interface ContentIndex {
  version: string | number;
  features: Map<string, ContentFeatures>;
  /** feature (`attr\u0000value` or `\u0001term`) → objectIDs */
  postings: Map<string, string[]>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Recommend models of one index. */
export class IndexModels {
  readonly options: ModelOptions;
  private readonly users = new Map<string, UserHistory>();
  /** Sessions with a conversion: bought-together. */
  private readonly conversions = new PairCounts();
  /** Sessions with a click or conversion (weighted): related-products. */
  private readonly interactions = new PairCounts();
  /** Clicks and conversions, sorted by time, for trending. */
  private recent: Array<{ ts: number; kind: 'c' | 'k'; objectIDs: string[] }> = [];
  private recentSorted = true;
  private trendingCache = new Map<string, { at: number; map: Map<string, number> }>();
  private content?: ContentIndex;
  private eventCount = 0;
  private pairUpdateCount = 0;

  constructor(options: Partial<ModelOptions> = {}) {
    this.options = { ...DEFAULT_MODEL_OPTIONS, ...options };
  }

  /** Number of click and conversion events read so far. */
  get size(): number {
    return this.eventCount;
  }

  /**
   * Pair counts changed so far by {@link IndexModels.add} (one per pair of a session counted or uncounted, per
   * model): the work of training, the part that grows as n² in a session's items, measured without a clock.
   *
   * @example
   * models.add(events);
   * models.pairUpdates // 0 when every session is a single item or larger than `maxSessionItems`
   */
  get pairUpdates(): number {
    return this.pairUpdateCount;
  }

  /**
   * Adds events (any order; views are ignored). For each user they touch, the sessions the new events can
   * change — from the last session that ends within `sessionGapMs` of the earliest new event on — are
   * recomputed and their share of the co-occurrence counts replaced; older sessions are left as they are.
   */
  add(events: Iterable<ModelEvent>): void {
    /** Each touched user → the earliest timestamp among its new events. */
    const touched = new Map<UserHistory, number>();
    const unsorted = new Set<UserHistory>();
    for (const e of events) {
      if (e.eventType !== 'conversion' && e.eventType !== 'click') continue;
      if (!e.objectIDs?.length || !Number.isFinite(e.timestamp)) continue;
      const compact: CompactEvent = {
        ts: e.timestamp,
        kind: e.eventType === 'conversion' ? 'c' : 'k',
        objectIDs: [...new Set(e.objectIDs)],
      };
      let user = this.users.get(e.userToken);
      if (!user) {
        user = { events: [], sessions: [] };
        this.users.set(e.userToken, user);
      }
      const prev = user.events[user.events.length - 1];
      if (prev && prev.ts > compact.ts) unsorted.add(user);
      user.events.push(compact);
      touched.set(user, Math.min(touched.get(user) ?? Infinity, compact.ts));
      if (this.recentSorted && this.recent.length && this.recent[this.recent.length - 1].ts > compact.ts)
        this.recentSorted = false;
      this.recent.push(compact);
      this.eventCount++;
    }
    if (touched.size === 0) return;
    for (const user of unsorted) user.events.sort((a, b) => a.ts - b.ts);
    const gap = this.options.sessionGapMs;
    for (const [user, earliest] of touched) {
      // Sessions ending more than `gap` before the earliest new event cannot change, and (the events being
      // sorted by time) neither can the positions of their events.
      let kept = user.sessions.length;
      while (kept > 0 && !(earliest - user.sessions[kept - 1]!.lastTs > gap)) kept--;
      const changed = user.sessions.splice(kept);
      this.applySessions(changed, -1);
      const next = sessionize(user.events, gap, this.options.clickWeight, kept > 0 ? user.sessions[kept - 1]!.end : 0);
      this.applySessions(next, +1);
      user.sessions.push(...next);
    }
    this.trendingCache.clear();
  }

  private applySessions(sessions: Session[], sign: 1 | -1): void {
    const max = this.options.maxSessionItems;
    for (const s of sessions) {
      const converted = [...s.converted];
      const convertedPairs = converted.length <= max;
      for (let i = 0; i < converted.length; i++) {
        this.conversions.addSingle(converted[i], sign);
        if (convertedPairs)
          for (let j = i + 1; j < converted.length; j++) {
            this.conversions.addPair(converted[i], converted[j], sign);
            this.pairUpdateCount++;
          }
      }
      const interacted = [...s.interacted];
      const interactedPairs = interacted.length <= max;
      for (let i = 0; i < interacted.length; i++) {
        this.interactions.addSingle(interacted[i][0], sign * interacted[i][1]);
        if (interactedPairs)
          for (let j = i + 1; j < interacted.length; j++) {
            // A pair counts as much as its weaker side: two clicks 0.5, a click and a conversion 0.5, two conversions 1.
            this.interactions.addPair(
              interacted[i][0],
              interacted[j][0],
              sign * Math.min(interacted[i][1], interacted[j][1]),
            );
            this.pairUpdateCount++;
          }
      }
    }
  }

  /** bought-together for `objectID`, best first, scores 0–100 (unrounded). */
  boughtTogether(objectID: string): Scored[] {
    const n = this.conversions.single.get(objectID) ?? 0;
    const row = this.conversions.pairs.get(objectID);
    if (!row || n <= 0) return [];
    const out: Scored[] = [];
    for (const [id, co] of row) out.push({ objectID: id, score: (100 * co) / (n + this.options.boughtTogetherPrior) });
    return sortScored(out);
  }

  /** related-products for `objectID`: behaviour blended with content similarity over `records`. */
  relatedProducts(objectID: string, records: RecordSource): Scored[] {
    const source = records.get(objectID);
    const nA = this.interactions.single.get(objectID) ?? 0;
    const evidence = this.options.relatedEvidence;
    // λ·cosine per co-interacted record.
    const behaviour = new Map<string, number>();
    const row = this.interactions.pairs.get(objectID);
    if (row) {
      for (const [id, co] of row) {
        const nB = this.interactions.single.get(id) ?? 0;
        if (nA > 0 && nB > 0) behaviour.set(id, (co / (co + evidence)) * Math.min(1, co / Math.sqrt(nA * nB)));
      }
    }
    const content = source ? this.contentNeighbours(objectID, source, records) : new Map<string, number>();
    const out: Scored[] = [];
    for (const id of new Set([...behaviour.keys(), ...content.keys()])) {
      if (id === objectID) continue;
      const score = 100 * (1 - (1 - (content.get(id) ?? 0)) * (1 - (behaviour.get(id) ?? 0)));
      if (score > 0) out.push({ objectID: id, score });
    }
    return sortScored(out);
  }

  private contentNeighbours(
    objectID: string,
    source: Record<string, unknown>,
    records: RecordSource,
  ): Map<string, number> {
    const index = this.contentIndex(records);
    const weights = this.options.contentAttributes;
    const features = index.features.get(objectID) ?? contentFeatures(source, weights);
    const candidates = new Set<string>();
    for (const t of features.terms) for (const id of index.postings.get(`\u0001${t}`) ?? []) candidates.add(id);
    for (const [attribute, values] of features.values) {
      for (const v of values) for (const id of index.postings.get(`${attribute}\u0000${v}`) ?? []) candidates.add(id);
    }
    candidates.delete(objectID);
    const out = new Map<string, number>();
    for (const id of candidates) {
      const other = index.features.get(id);
      if (!other) continue;
      const sim = featureSimilarity(features, other, weights);
      if (sim > 0) out.set(id, sim);
    }
    return out;
  }

  private contentIndex(records: RecordSource): ContentIndex {
    const version = records.version();
    if (this.content && this.content.version === version) return this.content;
    const weights = this.options.contentAttributes;
    const features = new Map<string, ContentFeatures>();
    const postings = new Map<string, string[]>();
    const push = (key: string, id: string) => {
      const list = postings.get(key);
      if (list) list.push(id);
      else postings.set(key, [id]);
    };
    for (const record of records.objects()) {
      const id = record.objectID;
      const f = contentFeatures(record, weights);
      features.set(id, f);
      for (const term of f.terms) push(`\u0001${term}`, id);
      for (const [attribute, values] of f.values) for (const v of values) push(`${attribute}\u0000${v}`, id);
    }
    this.content = { version, features, postings };
    return this.content;
  }

  /** Decayed click/conversion weight per objectID in the trending window (cached per minute). */
  private trendingWeights(now: number, conversionsOnly: boolean): Map<string, number> {
    const key = conversionsOnly ? 'c' : 'ck';
    const minute = Math.floor(now / 60000);
    const cached = this.trendingCache.get(key);
    if (cached && cached.at === minute) return cached.map;
    if (!this.recentSorted) {
      this.recent.sort((a, b) => a.ts - b.ts);
      this.recentSorted = true;
    }
    const { trendingHalfLifeMs: half, trendingWindowMs: window, clickWeight } = this.options;
    const from = now - window;
    // Events are sorted by time: binary search for the first one inside the window.
    let lo = 0;
    let hi = this.recent.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.recent[mid].ts < from) lo = mid + 1;
      else hi = mid;
    }
    const map = new Map<string, number>();
    for (let i = lo; i < this.recent.length; i++) {
      const e = this.recent[i];
      if (e.ts > now) break;
      if (conversionsOnly && e.kind !== 'c') continue;
      const w = (e.kind === 'c' ? 1 : clickWeight) * 2 ** (-(now - e.ts) / half);
      for (const id of e.objectIDs) map.set(id, (map.get(id) ?? 0) + w);
    }
    this.trendingCache.set(key, { at: minute, map });
    return map;
  }

  /**
   * trending-items at `now`, globally or within the records whose `facetName` has `facetValue`.
   * Items whose record is missing are left out (they cannot be shown).
   */
  trendingItems(now: number, records: RecordSource, facet?: { facetName: string; facetValue: string }): Scored[] {
    const weights = this.trendingWeights(now, false);
    const out: Scored[] = [];
    let max = 0;
    for (const [id, w] of weights) {
      const record = records.get(id);
      if (!record) continue;
      if (facet && !attributeValues(record, facet.facetName).includes(facet.facetValue)) continue;
      out.push({ objectID: id, score: w });
      if (w > max) max = w;
    }
    for (const s of out) s.score = (100 * s.score) / max;
    return sortScored(out);
  }

  /** trending-facets at `now`: values of `facetName` of the recently converted records. */
  trendingFacets(now: number, records: RecordSource, facetName: string): Array<{ facetValue: string; score: number }> {
    const weights = this.trendingWeights(now, true);
    const values = new Map<string, number>();
    for (const [id, w] of weights) {
      for (const v of new Set(attributeValues(records.get(id), facetName))) values.set(v, (values.get(v) ?? 0) + w);
    }
    let max = 0;
    for (const w of values.values()) if (w > max) max = w;
    return [...values]
      .map(([facetValue, w]) => ({ facetValue, score: (100 * w) / max }))
      .sort((a, b) => b.score - a.score || (a.facetValue < b.facetValue ? -1 : a.facetValue > b.facetValue ? 1 : 0));
  }
}

function sortScored(list: Scored[]): Scored[] {
  // Scores compare at the precision they are shown with (two decimals), then objectID, for a stable order.
  return list.sort(
    (a, b) => round2(b.score) - round2(a.score) || (a.objectID < b.objectID ? -1 : a.objectID > b.objectID ? 1 : 0),
  );
}

export { round2 as roundScore };
