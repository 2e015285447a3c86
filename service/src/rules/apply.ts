/**
 * Applying the rules of an index to a search (document 1, Rules). A rule applies when one of its conditions
 * matches (pattern with anchoring `is`/`startsWith`/`endsWith`/`contains` on the normalised query words,
 * and/or a `context` among the query's `ruleContexts`; no conditions = always), it is enabled, within its
 * validity, and the query has not turned rules off (`enableRules=false`). Consequences: `params` (filters
 * ANDed, filter lists concatenated, a `query` string or `edits` replacing the query, other parameters
 * replacing the query's), `promote` (pinned positions, `pins.ts`), `hide`, `userData` (returned in
 * `userData`); `appliedRules` lists the rules used. A consequence's `params.renderingContent` replaces the
 * query's and the index's (the answer's `renderingContent`, `search/search.ts`).
 *
 * The code is the engine's (`svc-search/engine`, `src/engine/rules.ts`), so the browser worker of
 * `svc-search/local` applies rules exactly as the service does.
 */
import { tokenize } from '../engine/index.js';

export { applyRules } from '../engine/index.js';

/** The normalised words of a text, as rule patterns are matched. */
export function words(text: string): string[] {
  return tokenize(text);
}
