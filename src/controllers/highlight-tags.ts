/**
 * Highlight tags the controllers ask the store for (InstantSearch does the same): unlike `<em>`, they cannot be
 * confused with markup in a record's own text, and the value stays plain text — it is never parsed as HTML.
 */
export const HIGHLIGHT_PRE_TAG = '__svc-highlight__';
export const HIGHLIGHT_POST_TAG = '__/svc-highlight__';

/** Search parameters that make the service wrap matches in the tags above. */
export const HIGHLIGHT_PARAMS = { highlightPreTag: HIGHLIGHT_PRE_TAG, highlightPostTag: HIGHLIGHT_POST_TAG };
