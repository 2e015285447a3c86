/**
 * The English label of `<svc-hits>`' list, as the first-paint script (src/prepaint) labels the list it paints: the
 * element's own `defaultTranslations.listLabel`, written out here for the script (which paints no other string of
 * the element: no hits means nothing painted), and checked against it by test/prepaint/page.browser.test.ts.
 */
export const HITS_LIST_LABEL = 'Search results';
