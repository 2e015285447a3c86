/**
 * `/search?q=chair&refinementList[brand]=Global&page=2`: a Server Component that renders the search UI with
 * `renderSearch` (the first results of the URL's state, in declarative shadow DOM, and the state script) and hands
 * the HTML to React as it is. React streams it into the document, where the browser's parser attaches the shadow
 * roots; in the browser, `HydrateSearch` loads the elements, which hydrate without searching again.
 *
 * An App Router page cannot choose its status (only `notFound()` and redirects): when the search host does not
 * answer, the page is a 200 holding the elements' error state (the plain Node example answers 503).
 */
import { cookies } from 'next/headers';
import { renderSearch } from 'svc-search/ssr';
import { HydrateSearch } from './hydrate';
import { searchUi } from './search-ui';

// Every request renders the results of its own URL.
export const dynamic = 'force-dynamic';

const STYLE = `
  body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem; }
  .bar { display: flex; gap: 1rem; align-items: center; }
  .bar svc-search-box { flex: 1; }
  .layout { display: grid; grid-template-columns: 14rem 1fr; gap: 2rem; margin-block-start: 1rem; }
  h2 { font-size: 1rem; margin: 1rem 0 .5rem; }
`;

type SearchParams = Record<string, string | string[] | undefined>;

/** The query string of the request, rebuilt from Next's parsed parameters (repeated keys kept). */
function queryString(params: SearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined) query.append(key, one);
    }
  }
  return query.toString();
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const env = process.env;
  const config = {
    appId: env.SVC_APP_ID ?? '',
    apiKey: env.SVC_API_KEY ?? '',
    hosts: env.SVC_HOSTS ?? '',
    indexName: env.SVC_INDEX_NAME || 'products',
  };
  const { html } = await renderSearch(searchUi(config), {
    url: `/search?${queryString(await searchParams)}`,
    appId: config.appId,
    apiKey: config.apiKey,
    hosts: env.SVC_SERVER_HOSTS || config.hosts,
    // `<svc-search insights-cookie>` keeps the visitor's Insights token there (renderSearch checks it).
    userToken: (await cookies()).get('_svc_insights_token')?.value,
    lang: 'en',
  });
  return (
    <>
      <style>{STYLE}</style>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: renderSearch's HTML, where Lit SSR escaped every value and the state script is escaped for a script (record data never reaches it raw) */}
      <div className="search" dangerouslySetInnerHTML={{ __html: html }} />
      <HydrateSearch />
    </>
  );
}
