/**
 * The conversion window across page loads: each hit click remembers objectID → the search that led to it (index,
 * queryID, time of the search) in local storage, so a conversion on another page (the product page) carries the
 * queryID of that search. The API document's window is one hour from the search; at most 200 entries are kept.
 */
import { INSIGHTS_LIMITS } from '../protocol/insights-limits.js';
import type { KeptValues } from './storage.js';

/** Storage key of the conversion window (objectID → the search that led to it). */
export const WINDOW_KEY = 'svc-insights-conversion-window';

/** Entries the window keeps (the oldest go first). */
export const WINDOW_ENTRIES = 200;

/** The search that led to an objectID. */
export interface Source {
  objectID?: string;
  indexName: string;
  queryID?: string;
  /** When the search was answered (ms); the window runs one hour from it. */
  searchedAt?: number;
}

/**
 * The entries still within the window (one hour from their search), oldest first.
 *
 * @example
 * windowEntries(keptValues()).findLast((entry) => entry.objectID === '42')?.queryID
 */
export function windowEntries(kept: KeptValues): Source[] {
  return [kept.read<Source | Source[]>(WINDOW_KEY)]
    .flat()
    .filter(
      (entry): entry is Source =>
        typeof entry?.queryID === 'string' &&
        Date.now() - (entry.searchedAt ?? Number.NaN) < INSIGHTS_LIMITS.conversionWindowMs,
    );
}

/**
 * Remembers that `objectID` of `indexName` was clicked in the answer `queryID` (searched at `searchedAt`):
 * replaces an older entry of the same objectID and index, keeps the newest 200.
 *
 * @example
 * rememberClick(keptValues(), { objectID: '42', indexName: 'products', queryID, searchedAt: Date.now() });
 */
export function rememberClick(kept: KeptValues, source: Required<Source>): void {
  const others = windowEntries(kept).filter(
    (entry) => entry.objectID !== source.objectID || entry.indexName !== source.indexName,
  );
  kept.write(WINDOW_KEY, [...others, source].slice(-WINDOW_ENTRIES));
}
