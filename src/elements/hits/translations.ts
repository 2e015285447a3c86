/**
 * `<svc-hits>`' English strings as the first-paint script (src/prepaint) labels its list: the element's own
 * `defaultTranslations`, written out there for its reference (test/prepaint/page.browser.test.ts checks both agree).
 */
export const HITS_TRANSLATIONS = {
  listLabel: 'Search results',
  noResults: 'No results for “{query}”.',
  noResultsNoQuery: 'No results.',
  error: 'The search is unavailable right now. Please try again.',
};
