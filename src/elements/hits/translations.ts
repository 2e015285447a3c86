/** `<svc-hits>`' English strings, shared with the first-paint script (src/prepaint), which labels its list the same. */
export const HITS_TRANSLATIONS = {
  listLabel: 'Search results',
  noResults: 'No results for “{query}”.',
  noResultsNoQuery: 'No results.',
  error: 'The search is unavailable right now. Please try again.',
};
