/**
 * The local service: an offline twin of the hosted APIs, with a real engine (`./engine/`), real HTTP (Hono,
 * `./http/`) and real storage (`./storage/`: better-sqlite3 by default, PostgreSQL for replicas). `createService` builds the services object
 * (`./services.ts`) and mounts the HTTP app (`./http/app.ts`) on a Node request handler.
 *
 * @example
 * const service = await createService({ dataDir: ':memory:' });
 * const { url } = await service.listen(0, '127.0.0.1');
 * // … fetch(`${url}/1/indexes/products/query`, …)
 * await service.close();
 */
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  STATUS_CODES,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { resolveConfig, type ServiceOptions } from './config.js';
import { DEMO_INDEX, installDemo } from './datasets/demo.js';
import { createApp } from './http/app.js';
import { BodyBudget } from './http/body-budget.js';
import { createDemoSuggestions } from './query-suggestions/demo.js';
import { seedRecommendDemo } from './recommend/demo.js';
import { closeServices, createServices, type Services } from './services.js';
import { PostgresStorage } from './storage/postgres/storage.js';
import { openDatabaseWhenUnlocked } from './storage/sqlite/open.js';
import { SqliteStorage } from './storage/sqlite/storage.js';

export { DEV_CREDENTIALS, type ServiceOptions } from './config.js';
export { ServiceError } from './errors.js';
export type { KeyInfo, Right } from './keys/types.js';
// Secured API keys are made on the server that holds the parent key (also the light subpath
// `@svc-search/service/secured-key`, which loads neither SQLite nor Hono).
export {
  generateSecuredApiKey,
  securedApiKeyRemainingValidity,
  serializeRestrictions,
  type SecuredKeyRestrictions,
} from './secured-key.js';
export type { Services } from './services.js';

export interface Service {
  /** Node request handler; answers `/1/…`, `/2/…` and `/api/1/…` (Crawler), calls `next()` for every other path. */
  handler(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  listen(port?: number, host?: string): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
  /** The parts of the service (`services.ts`): for tests and tools that reach past HTTP. */
  services: Services;
  /** The bytes request bodies hold in memory now, and have ever taken (`http/body-budget.ts`): for tests and monitoring. */
  bodyBudget: Pick<BodyBudget, 'held' | 'taken' | 'limit'>;
  /** Every route the service answers (method and Hono path pattern), for tests and tooling. */
  routes: ReadonlyArray<{ method: string; path: string }>;
}

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

function isServicePath(url: string | undefined): boolean {
  return /^\/(1|2|api\/1)\//.test(url ?? '');
}

/**
 * Brings the SQLite file of a data directory to this service's schema, then closes it: the primary of
 * `serve --workers N` does it once, before any worker opens the file. Each step waits for the file's write
 * lock on a timer (`openDatabaseWhenUnlocked`), for up to a minute, if another process holds it; `onWait` is
 * told when it starts waiting.
 *
 * @example
 * await prepareDataDir('.data');
 */
export async function prepareDataDir(dataDir: string, options: { onWait?: () => void } = {}): Promise<void> {
  (await openDatabaseWhenUnlocked(dataDir, options)).close();
}

/**
 * Creates the service (opens or creates the database, rebuilds the indices from it).
 *
 * @example
 * const service = await createService({ ...DEV_CREDENTIALS, dataDir: '.data', demo: true });
 */
export async function createService(options: ServiceOptions = {}): Promise<Service> {
  const config = resolveConfig(options);
  // The schema brought up to date first, waiting for the write lock on a timer if another process holds it
  // (the storage's own open then finds nothing to do; the primary of `serve --workers` did it already).
  if (!config.database && config.dataDir !== ':memory:') await prepareDataDir(config.dataDir);
  const storage = config.database
    ? await PostgresStorage.open(config.database, options.replicaId ? { id: options.replicaId } : {})
    : new SqliteStorage(config.dataDir, options.worker ? { worker: options.worker } : {});
  const services = await createServices(config, storage, options.now ?? Date.now);
  const bodyBudget = new BodyBudget(config.maxBodyBytesInFlight);
  const app = createApp(services, bodyBudget);

  if (options.demo) {
    await installDemo(services);
    // What the demo adds beyond the catalogue: the order history as Insights events (Recommend), and the
    // Query Suggestions configuration of the autocomplete.
    await seedRecommendDemo({ ...services, eventStore: services.storage.events }, DEMO_INDEX);
    await createDemoSuggestions(services, DEMO_INDEX);
  }

  // The app drains unread request bodies itself, bounded by each path's limit (`http/body.ts`), rather than
  // by the adapter's own clean-up (a 500 ms timer, then the connection closed under a client still sending).
  const listener = getRequestListener(app.fetch, {
    overrideGlobalObjects: options.ownsProcess === true,
    autoCleanupIncoming: false,
  });
  let server: Server | undefined;

  const service: Service = {
    services,
    bodyBudget,
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
      // Workers: which one answered (the port is shared; tests and operators tell them apart by this).
      if (options.worker) res.setHeader('X-Service-Worker', options.worker.id);
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
      // Background work stops; buffered writes (the Analytics and Usage logs) are written.
      await closeServices(services);
    },
  };
  return service;
}
