/** The pages of the first-paint test and of `bench/size.ts`: the loader and the tags, nothing else. */

export const FIRST_PAINT_INDEX = 'first_paint_products';

/** A page with the loader and `elements` inside `<svc-search>` (`{{service}}` is the service origin). */
export const loaderPage = (elements: string, index = FIRST_PAINT_INDEX): string => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>svc-search</title><script type="module" src="/dist/svc-search.js"></script></head>
<body>
<svc-search app-id="SVCLOCAL" api-key="local-search-key" index-name="${index}" hosts="{{service}}">
${elements}
</svc-search>
</body>
</html>`;

/** The six mission elements (with `<svc-search>`, seven tags). */
export const SIX_ELEMENTS = `<svc-search-box placeholder="Search products"></svc-search-box>
<svc-refinement-list attribute="brand" searchable></svc-refinement-list>
<svc-hits></svc-hits>
<svc-pagination></svc-pagination>
<svc-recommendations object-id="p1"></svc-recommendations>
<svc-trending></svc-trending>`;

/** `<svc-search>`, `<svc-search-box>` and `<svc-hits>`. */
export const THREE_ELEMENTS = `<svc-search-box placeholder="Search products"></svc-search-box>
<svc-hits></svc-hits>`;
