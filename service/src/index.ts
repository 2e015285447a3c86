/**
 * The local service: an offline twin of the search and indexing API (document 1), with a real engine
 * (`./engine/`), real HTTP (Hono) and real storage (better-sqlite3). Other areas add their router
 * modules to `./http/routes.ts`.
 *
 * @example
 * const service = await createService({ dataDir: ':memory:' });
 * const { url } = await service.listen(0, '127.0.0.1');
 * // … fetch(`${url}/1/indexes/products/query`, …)
 * await service.close();
 */
import { EventEmitter } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  STATUS_CODES,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { ServiceContext } from './context.js';
import { setCountryHeader } from './analytics/record.js';
import { setCrawlerOptions } from './crawler/options.js';
import { DEMO_INDEX, installDemo } from './datasets/demo.js';
import { createAuthorizer } from './http/auth.js';
import { readJson } from './http/body.js';
import { HttpError } from './http/errors.js';
import { attachInternals } from './http/internals.js';
import { registerGetObject } from './http/records.js';
import { routers } from './http/routes.js';
import { Catalog } from './storage/catalog.js';
import { openDatabase } from './storage/db.js';
import { DictionaryStore } from './storage/dictionaries.js';
import { KeyStore } from './storage/keys.js';
import { createSearchLog } from './storage/search-log.js';
import { setOperationalKeys } from './usage/keys.js';

export type { KeyInfo, Right, SearchLogEntry, ServiceContext } from './context.js';
export { HttpError } from './http/errors.js';
// Secured API keys are made on the server that holds the parent key (also the light subpath
// `@svc-search/service/secured-key`, which loads neither SQLite nor Hono).
export {
  generateSecuredApiKey,
  securedApiKeyRemainingValidity,
  serializeRestrictions,
  type SecuredKeyRestrictions,
} from './secured-key.js';

/** Credentials used everywhere in development: tests, Storybook, `npm start`. */
export const DEV_CREDENTIALS = {
  appId: 'SVCLOCAL',
  adminKey: 'local-admin-key',
  searchKey: 'local-search-key',
  /** HTTP Basic credentials of the Crawler API (document 3): `<crawlerUserId>:<crawlerApiKey>`. */
  crawlerUserId: 'local-crawler',
  crawlerApiKey: 'local-crawler-key',
} as const;

export interface ServiceOptions {
  /** Directory of the database (default `.data/`); `':memory:'` keeps nothing on disk. */
  dataDir?: string;
  appId?: string;
  adminKey?: string;
  searchKey?: string;
  /** Loads the demo catalogue into the index `products` when it is empty. */
  demo?: boolean;
  /** The service's clock (Unix ms) for Analytics: recorded search times, default dates, rate limit. Default `Date.now`. */
  now?: () => number;
  /**
   * Custom entries one dictionary may hold before a dictionary batch answers 403 (the document's quota,
   * whose size it does not give); default 100,000.
   */
  maxCustomDictionaryEntries?: number;
  /** The dedicated key of the Usage API (document 3, Authentication); the admin key is always accepted. */
  usageKey?: string;
  /** The dedicated key of the Monitoring API (document 3, Authentication); the admin key is always accepted. */
  monitoringKey?: string;
  /** Crawler API (document 3): the crawler user id of HTTP Basic authentication (default `local-crawler`). */
  crawlerUserId?: string;
  /** Crawler API: the crawler API key (default `local-crawler-key`). It lets its holder run code on this machine (record extractors). */
  crawlerApiKey?: string;
  /** Crawler API: registered (verified) domains besides `localhost`, `127.0.0.1`, `[::1]`; `*.example.com` for subdomains. */
  crawlerDomains?: string[];
  /**
   * The request header a proxy in front of the service sets with the client's country (ISO 3166-1 alpha-2),
   * read for Analytics' `/2/countries`; default `CF-IPCountry`, else `X-Country-Code`.
   */
  countryHeader?: string;
}

export interface Service {
  /** Node request handler; answers `/1/…`, `/2/…` and `/api/1/…` (Crawler), calls `next()` for every other path. */
  handler(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
  ctx: ServiceContext;
  /** Every route the service answers (method and Hono path pattern), for tests and tooling. */
  routes: ReadonlyArray<{ method: string; path: string }>;
}

/** Headers a browser may send cross-origin (preflight answer). */
const ALLOWED_HEADERS = [
  'Content-Type',
  'X-Service-Application-Id',
  'X-Service-API-Key',
  'X-Service-UserToken',
  'X-Service-User-ID',
  'X-Service-Agent',
];

/**
 * What Node's HTTP parser refuses before any handler runs (an over-long request line or headers, malformed
 * framing) gets a JSON `{message}` like every other answer, instead of Node's bare status line. Only when
 * the service owns the server (`listen`); mounted in another server, that server answers these.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  let status = 400;
  let message = `Bad request: malformed HTTP (${error.code ?? error.message})`;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = `Request header fields too large: the request line and headers must fit in ${maxHeaderSize} bytes (send long parameters in a POST body)`;
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'Request timeout: the request was not received in time';
  }
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=UTF-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Whether the path of a request URL percent-decodes to UTF-8 text. */
function wellEncodedPath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return true;
  } catch {
    return false;
  }
}

function isServicePath(url: string | undefined): boolean {
  return /^\/(1|2|api\/1)\//.test(url ?? '');
}

/**
 * Creates the service (opens or creates the database, rebuilds the indices from it).
 *
 * @example
 * const service = await createService({ ...DEV_CREDENTIALS, dataDir: '.data', demo: true });
 */
export async function createService(options: ServiceOptions = {}): Promise<Service> {
  const appId = options.appId ?? DEV_CREDENTIALS.appId;
  const adminKey = options.adminKey ?? DEV_CREDENTIALS.adminKey;
  const searchKey = options.searchKey ?? DEV_CREDENTIALS.searchKey;
  if (adminKey === searchKey) throw new Error('The admin key and the search key must differ');

  const db = openDatabase(options.dataDir ?? '.data');
  // Dictionaries first: the indices are built with their compound words.
  const dictionaries = new DictionaryStore(db, undefined, options.maxCustomDictionaryEntries);
  dictionaries.load();
  const catalog = new Catalog(db, dictionaries.dictionaries);
  catalog.load();
  const keys = new KeyStore(db);
  const events = new EventEmitter();
  events.setMaxListeners(0);

  const ctx: ServiceContext = {
    appId,
    adminKey,
    searchKey,
    db,
    indices: {
      get: (name) => catalog.get(name),
      require: (name) => catalog.require(name),
      names: () => catalog.names(),
    },
    authorize: createAuthorizer({ appId, adminKey, searchKey, keys }),
    readJson,
    searchLog: createSearchLog(db),
    now: options.now ?? Date.now,
    emit(type, payload) {
      events.emit(type, payload);
    },
    on(type, listener) {
      events.on(type, listener);
      return () => events.off(type, listener);
    },
  };
  attachInternals(ctx, { catalog, keys, dictionaries });
  setOperationalKeys(ctx, { usageKey: options.usageKey, monitoringKey: options.monitoringKey });
  setCountryHeader(ctx, options.countryHeader);
  setCrawlerOptions(ctx, {
    userId: options.crawlerUserId ?? DEV_CREDENTIALS.crawlerUserId,
    apiKey: options.crawlerApiKey ?? DEV_CREDENTIALS.crawlerApiKey,
    domains: options.crawlerDomains ?? [],
  });

  const app = new Hono();
  // CORS for the browser-facing APIs only. The Crawler API (`/api/1/`) is for servers and scripts: no page of
  // another origin may call it (its key runs record extractors on this machine), so it gets no CORS headers.
  app.use(
    '/:version{1|2}/*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ALLOWED_HEADERS,
      maxAge: 86400,
    }),
  );
  // A path with a malformed percent-escape (`%ZZ`) or bytes that are not UTF-8 (`%ff%fe`) names nothing:
  // 400 before anything else reads it (authentication, the call log, the routers).
  app.use('*', async (c, next) => {
    if (!wellEncodedPath(c.req.raw.url)) {
      return c.json(
        { message: 'Malformed path: a percent-escape is not valid (or does not decode to UTF-8 text)' },
        400,
      );
    }
    await next();
  });
  // Document 1, wire rule 2: answers are JSON objects with `application/json; charset=UTF-8`.
  app.use('*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('application/json')) {
      c.res.headers.set('content-type', 'application/json; charset=UTF-8');
    }
  });
  app.onError((error, c) => {
    const status = error instanceof HttpError ? error.status : (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const body: Record<string, unknown> = { message: error.message };
      // Insights answers carry `status` too (document 2, Errors).
      if (c.req.path.startsWith('/1/events')) body.status = status;
      return c.json(body, status as 400);
    }
    console.error('[svc-search]', c.req.method, c.req.path, error);
    return c.json({ message: 'Internal error of the local service' }, 500);
  });
  app.notFound((c) => c.json({ message: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  for (const router of routers) router.register(app, ctx);
  registerGetObject(app, ctx);

  if (options.demo) {
    installDemo(catalog);
    // Areas that add to the demo (Recommend seeds the order history as events, once) listen for this.
    ctx.emit('demo', { indexName: DEMO_INDEX });
  }

  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  let server: Server | undefined;

  const service: Service = {
    ctx,
    routes: app.routes.filter((route) => route.method !== 'ALL').map(({ method, path }) => ({ method, path })),
    handler(req, res, next) {
      if (!isServicePath(req.url)) {
        if (next) next();
        else {
          res.statusCode = 404;
          res.setHeader('content-type', 'application/json; charset=UTF-8');
          res.end(JSON.stringify({ message: `Not found: ${req.method} ${req.url}` }));
        }
        return;
      }
      void listener(req, res);
    },
    listen(port = 8787, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server = createServer((req, res) => service.handler(req, res));
        server.on('clientError', answerClientError);
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server!.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ url: `http://${shownHost}:${address.port}`, port: address.port });
        });
      });
    },
    async close() {
      if (server) {
        const closing = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          closing.close(() => resolve());
          closing.closeAllConnections();
        });
      }
      // Areas that buffer writes (the Analytics search log) write them now.
      ctx.emit('close');
      if (db.open) db.close();
    },
  };
  return service;
}
