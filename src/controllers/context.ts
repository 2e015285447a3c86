import { createContext } from '@lit/context';
import type { SearchStore } from '../store/types.js';
import type { InsightsLike } from '../insights/types.js';

/** What `<svc-search>` provides to every descendant, across shadow roots. */
export interface SearchContextValue {
  store: SearchStore;
  /** Present while insights is on; elements report their hits and user actions to it. */
  insights?: InsightsLike;
  /** Merged translations of the root (`translations` property); elements overlay their own. */
  translations?: Record<string, string>;
}

export const searchContext = createContext<SearchContextValue | undefined>(Symbol.for('svc-search-context'));
