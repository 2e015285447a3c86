/**
 * Shared by the client and store Node tests (and the store bench): the real local service on a loopback
 * port with a temp data dir, a small product catalogue indexed through the API, and tiny real network
 * peers for the failure cases (a closed port, a socket that never answers, a server answering 500, and a
 * loopback proxy that counts and can delay chosen requests on their way to the real service).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/client/index.js';
import type { SearchClient } from '../../src/client/types.js';

export interface Product {
  objectID: string;
  name: string;
  brand: string;
  color: string;
  kind: string;
  category: string;
  price: number;
  _tags: string[];
}

const BRANDS = ['Acme', 'Bolt', 'Crest', 'Delta', 'Echo'];
const COLORS = ['red', 'green', 'blue', 'black'];
const KINDS = ['laptop', 'phone', 'speaker', 'camera'];
const MODELS = ['pro', 'mini', 'max', 'air', 'plus', 'lite', 'neo'];

/** 120 products, deterministic; each kind appears once per 4 records, brands and colours spread across. */
export function catalogue(size = 120): Product[] {
  return Array.from({ length: size }, (_, i) => {
    const kind = KINDS[i % 4]!;
    const brand = BRANDS[Math.floor(i / 4) % 5]!;
    const color = COLORS[(i * 7 + Math.floor(i / 20)) % 4]!;
    return {
      objectID: `p${i}`,
      name: `${brand} ${kind} ${MODELS[i % 7]} ${i}`,
      brand,
      color,
      kind,
      category: kind === 'laptop' || kind === 'phone' ? 'computing' : 'media',
      price: 50 + ((i * 37) % 900),
      _tags: i % 3 === 0 ? ['sale'] : [],
    };
  });
}

export interface RunningService {
  url: string;
  appId: string;
  adminKey: string;
  searchKey: string;
  admin: SearchClient;
  close(): Promise<void>;
}

/** Starts the real service on 127.0.0.1:0 with a temp data dir. */
export async function startService(): Promise<RunningService> {
  const { createService, DEV_CREDENTIALS } = await import('../../service/src/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-client-store-'));
  const service = await createService({ dataDir });
  const { url } = await service.listen(0, '127.0.0.1');
  const admin = createClient({
    appId: DEV_CREDENTIALS.appId,
    apiKey: DEV_CREDENTIALS.adminKey,
    hosts: [url],
    cache: false,
  });
  return {
    url,
    appId: DEV_CREDENTIALS.appId,
    adminKey: DEV_CREDENTIALS.adminKey,
    searchKey: DEV_CREDENTIALS.searchKey,
    admin,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sets faceting settings and adds `records` through the API, then waits for the task. */
export async function indexProducts(
  admin: SearchClient,
  indexName: string,
  records: Product[] = catalogue(),
): Promise<void> {
  const path = `/1/indexes/${encodeURIComponent(indexName)}`;
  const settings = await admin.request<{ taskID: number }>('PUT', `${path}/settings`, {
    searchableAttributes: ['name', 'brand', 'kind'],
    attributesForFaceting: ['brand', 'color', 'kind', 'searchable(category)', 'price'],
    customRanking: ['asc(price)'],
  });
  await waitTask(admin, indexName, settings.taskID);
  const { taskID } = await admin.request<{ taskID: number }>('POST', `${path}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  await waitTask(admin, indexName, taskID);
}

export async function waitTask(admin: SearchClient, indexName: string, taskID: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const task = await admin.request<{ status: string }>(
      'GET',
      `/1/indexes/${encodeURIComponent(indexName)}/task/${taskID}`,
    );
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskID} of ${indexName} not published`);
}

export interface SeenRequest {
  method: string;
  url: string;
  body: string;
  json: unknown;
  /** The request's headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
}

export interface Proxy {
  url: string;
  /** Every request that reached the proxy, in arrival order. */
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy to the real service. `delay(request)` returns the ms to hold that request before
 * forwarding it (0 for none) — how the tests make answers arrive out of order.
 */
export async function startProxy(target: string, delay: (request: SeenRequest) => number = () => 0): Promise<Proxy> {
  const requests: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/', body, json, headers: { ...req.headers } };
    requests.push(seen);
    const ms = delay(seen);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    }
    try {
      const answer = await fetch(target + seen.url, { method: seen.method, headers, body: body || undefined });
      const text = await answer.text();
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    }
  });
  const url = await listen(server);
  return { url, requests, close: () => closeServer(server) };
}

/** A port nothing listens on (connections are refused). */
export async function closedPort(): Promise<string> {
  const server = net.createServer();
  const url = await listen(server);
  await closeServer(server);
  return url;
}

export interface HangingServer {
  url: string;
  /** Arrival times of the requests received (first bytes of each connection). */
  requests: number[];
  /** How long each request waited before the client gave up and closed the connection, ms. */
  closedAfter: number[];
  close(): Promise<void>;
}

/** Accepts connections, reads the requests and never answers. */
export async function startHangingServer(): Promise<HangingServer> {
  const sockets = new Set<net.Socket>();
  const requests: number[] = [];
  const closedAfter: number[] = [];
  const server = net.createServer((socket) => {
    let received: number | undefined;
    sockets.add(socket);
    socket.on('data', () => {
      if (received !== undefined) return;
      received = Date.now();
      requests.push(received);
    });
    socket.on('close', () => {
      if (received !== undefined) closedAfter.push(Date.now() - received);
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
  });
  const url = await listen(server);
  return {
    url,
    requests,
    closedAfter,
    async close() {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

/** Answers every request with `status` and a JSON `message`; `hits` counts them. */
export async function startStatusServer(status = 500): Promise<{ url: string; hits: number; close(): Promise<void> }> {
  const state = { hits: 0 };
  const server = http.createServer((_req, res) => {
    state.hits++;
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ message: `answering ${status} on purpose` }));
  });
  const url = await listen(server);
  return {
    url,
    get hits() {
      return state.hits;
    },
    close: () => closeServer(server),
  };
}

function listen(server: net.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      resolve(`http://127.0.0.1:${address.port}`);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  (server as http.Server).closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}
