/**
 * The conversion window store: which search led to an objectID, kept across page loads so a conversion
 * on the product page carries the queryID of the search (a click or conversion must fall within one hour
 * of its search event). Bounded in entries and in time.
 */
import { INSIGHTS_LIMITS } from './rules.js';
import type { safeStorage } from './user-token.js';

export const CONVERSION_WINDOW_KEY = 'svc-insights-conversion-window';

export interface ConversionWindowEntry {
  objectID: string;
  indexName: string;
  queryID: string;
  /** When the search answered (ms); the window closes one hour later. */
  searchedAt: number;
}

export class ConversionWindow {
  constructor(
    private readonly storage: ReturnType<typeof safeStorage>,
    private readonly maxEntries = 200,
  ) {}

  private read(now: number): ConversionWindowEntry[] {
    let entries: ConversionWindowEntry[] = [];
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(CONVERSION_WINDOW_KEY) ?? '[]');
      if (Array.isArray(parsed)) entries = parsed as ConversionWindowEntry[];
    } catch {
      entries = [];
    }
    return entries.filter(
      (e) =>
        e && typeof e.objectID === 'string' && typeof e.queryID === 'string' &&
        now - e.searchedAt < INSIGHTS_LIMITS.conversionWindowMs,
    );
  }

  /** Remembers that `objectID` was reached from the search `queryID` (latest wins). */
  remember(entry: ConversionWindowEntry, now = Date.now()): void {
    const entries = this.read(now).filter((e) => !(e.objectID === entry.objectID && e.indexName === entry.indexName));
    entries.push(entry);
    this.storage.setItem(CONVERSION_WINDOW_KEY, JSON.stringify(entries.slice(-this.maxEntries)));
  }

  /** The search that led to `objectID` within the last hour (most recent first), if any. */
  lookup(objectID: string, indexName?: string, now = Date.now()): ConversionWindowEntry | undefined {
    const entries = this.read(now);
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.objectID === objectID && (indexName === undefined || e.indexName === indexName)) return e;
    }
    return undefined;
  }

  clear(): void {
    this.storage.removeItem(CONVERSION_WINDOW_KEY);
  }
}
