/**
 * A small static site for the crawler tests, served by node:http on a loopback port: pages with links,
 * robots.txt, a 404, a page that can be held back (to keep a crawl running) and switches to make every
 * page fail. Every request is logged with its time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteRequest {
  path: string;
  /** performance.now() at arrival. */
  at: number;
  userAgent: string;
}

export interface Site {
  origin: string;
  requests: SiteRequest[];
  pages: Map<string, string>;
  /** Every page answers 500 while true (robots.txt too). */
  down: boolean;
  /** Paths whose answer waits until `release()`. */
  held: Set<string>;
  release(): void;
  close(): Promise<void>;
}

export function page(title: string, body: string, links: string[] = [], articleClass = ''): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
  return (
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>` +
    `<article${articleClass ? ` class="${articleClass}"` : ''}><p>${body}</p></article><nav>${anchors}</nav></body></html>`
  );
}

export async function startSite(host: string, pages: Record<string, string>, robots?: string): Promise<Site> {
  let waiting: Array<() => void> = [];
  const site: Site = {
    origin: '',
    requests: [],
    pages: new Map(Object.entries(pages)),
    down: false,
    held: new Set(),
    release() {
      site.held.clear();
      for (const wake of waiting.splice(0)) wake();
    },
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    site.requests.push({ path, at: performance.now(), userAgent: req.headers['user-agent'] ?? '' });
    if (site.held.has(path)) await new Promise<void>((resolve) => waiting.push(resolve));
    if (site.down) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
      return;
    }
    if (path === '/robots.txt' && robots !== undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      return;
    }
    const html = site.pages.get(path);
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  site.origin = `http://${host}:${port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      site.release();
      waiting = [];
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return site;
}
