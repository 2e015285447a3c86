/**
 * `POST /1/indexes/{indexName}/rules/search`: the rules whose objectID, description or patterns hold every
 * query word as a word prefix, filtered by `anchoring`, `context` and `enabled`, with their highlights.
 */
import { escapeHtml, normalizeText } from '../engine/index.js';
import type { Rule } from '../storage/types.js';
import { words } from './apply.js';

export interface RuleSearch {
  query: string;
  page: number;
  hitsPerPage: number;
  anchoring?: string | undefined;
  context?: string | undefined;
  enabled?: boolean | null | undefined;
}

function highlight(
  text: string,
  queryWords: string[],
): { value: string; matchLevel: 'none' | 'partial' | 'full'; matchedWords: string[] } {
  const matched: string[] = [];
  const value = text
    .split(/(\s+)/)
    .map((part) => {
      const word = normalizeText(part);
      const hit = queryWords.find((queryWord) => word.startsWith(queryWord) && queryWord !== '');
      if (!hit) return escapeHtml(part);
      if (!matched.includes(hit)) matched.push(hit);
      return `<em>${escapeHtml(part)}</em>`;
    })
    .join('');
  const matchLevel = matched.length === 0 ? 'none' : matched.length === queryWords.length ? 'full' : 'partial';
  return { value, matchLevel, matchedWords: matched };
}

/**
 * @example
 * searchRules(catalog.rules('products'), { query: 'cheap', page: 0, hitsPerPage: 20 })
 */
export function searchRules(rules: Rule[], search: RuleSearch) {
  const queryWords = words(search.query);
  const matching = rules.filter((rule) => {
    if (typeof search.enabled === 'boolean' && (rule.enabled !== false) !== search.enabled) return false;
    if (
      search.anchoring !== undefined &&
      !rule.conditions?.some((condition) => condition.anchoring === search.anchoring)
    )
      return false;
    if (search.context !== undefined && !rule.conditions?.some((condition) => condition.context === search.context))
      return false;
    if (queryWords.length === 0) return true;
    const text = [
      rule.objectID,
      rule.description ?? '',
      ...(rule.conditions ?? []).map((condition) => condition.pattern ?? ''),
    ].join(' ');
    const ruleWords = words(text);
    return queryWords.every((queryWord) => ruleWords.some((word) => word.startsWith(queryWord)));
  });
  const from = search.page * search.hitsPerPage;
  const hits = matching.slice(from, from + search.hitsPerPage).map((rule) => ({
    ...rule,
    _highlightResult: {
      objectID: highlight(rule.objectID, queryWords),
      ...(rule.description !== undefined ? { description: highlight(rule.description, queryWords) } : {}),
      ...(rule.conditions
        ? {
            conditions: rule.conditions.map((condition) =>
              condition.pattern !== undefined ? { pattern: highlight(condition.pattern, queryWords) } : {},
            ),
          }
        : {}),
    },
  }));
  return {
    hits,
    nbHits: matching.length,
    page: search.page,
    nbPages: Math.ceil(matching.length / search.hitsPerPage),
  };
}
