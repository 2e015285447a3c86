/**
 * A plain Node server (`node:http`) rendering the search page on the server with `svc-search/ssr`:
 *
 *   npm run build   # the example uses the built package, as an app would (dist/ssr and the loader)
 *   npm run example:ssr -- --port 3000 --hosts http://127.0.0.1:8787 --app-id SVCLOCAL --api-key local-search-key [--index-name products]
 *
 * `--hosts` are the search hosts of the page (the browser's); `--server-hosts` (default: the same) those the server
 * searches from, when it reaches the service another way (an internal address).
 *
 * - `GET /search?q=chair&refinementList[brand]=Global&page=2` (and `/`): the page rendered on the server with the
 *   results of that state; 503 (with the elements' error state) when the search host does not answer.
 * - `GET /client/search?…`: the same page without server rendering (the browser searches): what the benchmark
 *   compares it with.
 * - `GET /svc-search/…`: the library's `dist/` (the loader and its chunks).
 *
 * Prints `listening on http://HOST:PORT` once it accepts connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { renderSearch } from 'svc-search/ssr';
import { pageDocument, searchUi, type PageConfig } from './page.js';

/** The `_svc_insights_token` cookie (`<svc-search insights-cookie>`): the visitor's Insights token. */
function insightsToken(req: IncomingMessage): string | undefined {
  const cookie = /(?:^|;\s*)_svc_insights_token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  if (!cookie) return undefined;
  try {
    return decodeURIComponent(cookie);
  } catch {
    return undefined;
  }
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

export interface ExampleOptions extends PageConfig {
  port: number;
  host?: string;
  /** The hosts the server searches (default: `hosts`, the browser's). */
  serverHosts?: string;
}

/**
 * Starts the example server; resolves with its URL once it listens.
 *
 * @example
 * const { url, close } = await startExample({ port: 0, appId, apiKey, hosts, indexName: 'products' });
 */
export async function startExample(options: ExampleOptions): Promise<{ url: string; close(): Promise<void> }> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('svc-search/package.json')), 'dist');
  const config: PageConfig = options;

  async function page(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const query = url.searchParams.get('q') ?? '';
    const title = query ? `“${query}” — Search` : 'Search';
    if (url.pathname.startsWith('/client/')) {
      // The same tags without server rendering: no element renderer, so no shadow DOM and no search.
      const body = collectResultSync(render(searchUi(config), { elementRenderers: [] }));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(pageDocument(body, { title, script: '/svc-search/svc-search.js' }));
      return;
    }
    const rendered = await renderSearch(searchUi(config), {
      url: url.pathname + url.search,
      appId: options.appId,
      apiKey: options.apiKey,
      hosts: options.serverHosts ?? options.hosts,
      userToken: insightsToken(req),
      lang: 'en',
    });
    res.writeHead(rendered.status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The search host did not answer: crawlers come back later rather than index an error page.
      ...(rendered.status === 503 ? { 'retry-after': '30' } : {}),
    });
    res.end(pageDocument(rendered.html, { title, script: '/svc-search/svc-search.js' }));
  }

  async function file(res: ServerResponse, path: string): Promise<void> {
    const target = normalize(join(dist, path.slice('/svc-search/'.length)));
    if (!target.startsWith(dist + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(target);
      res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://example');
    const done = (error: unknown) => {
      console.error('example:ssr:', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    };
    if (url.pathname.startsWith('/svc-search/')) file(res, url.pathname).catch(done);
    else if (/^\/(client\/)?(search)?$/.test(url.pathname)) page(req, res, url).catch(done);
    else if (url.pathname === '/favicon.ico') res.writeHead(204).end();
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      hosts: { type: 'string' },
      'server-hosts': { type: 'string' },
      'app-id': { type: 'string' },
      'api-key': { type: 'string' },
      'index-name': { type: 'string', default: 'products' },
    },
  });
  if (!values.hosts || !values['app-id'] || !values['api-key']) {
    console.error(
      'usage: npm run example:ssr -- --port P --hosts URL --app-id ID --api-key KEY [--index-name products]',
    );
    process.exit(2);
  }
  const { url } = await startExample({
    port: Number(values.port),
    host: values.host,
    hosts: values.hosts,
    serverHosts: values['server-hosts'],
    appId: values['app-id'],
    apiKey: values['api-key'],
    indexName: values['index-name']!,
  });
  console.log(`listening on ${url}`);
}
