'use client';

import { useEffect } from 'react';

/**
 * Loads the elements in the browser, after React hydrated the page: Lit's hydration support first (it must be in
 * place before an element class is defined), then the elements, which adopt the server's declarative shadow DOM
 * and start from the state script without searching again. Nothing of it runs on the server.
 */
export function HydrateSearch() {
  useEffect(() => {
    import('svc-search/hydrate')
      .then(() => import('svc-search/define'))
      .catch((error: unknown) => console.error('svc-search: the elements could not be loaded', error));
  }, []);
  return null;
}
