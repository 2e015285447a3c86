/**
 * Store test helpers on top of `test/client/fixture.ts`: a proxy that also tells which requests the client
 * gave up (aborted before the answer), and settling helpers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SearchStore, StoreSnapshot } from '../../src/store/types.js';

export interface HeldRequest {
  url: string;
  json: any;
  /** True once the client closed the connection before the answer was sent. */
  aborted: boolean;
}

export interface HoldingProxy {
  url: string;
  requests: HeldRequest[];
  close(): Promise<void>;
}

/**
 * A loopback proxy to the real service that holds each request `hold(request)` ms before forwarding it, or
 * until the promise `hold` returns settles (a test that needs "answered after that other one" releases it
 * then, which no delay guarantees on a loaded machine); a request whose client goes away meanwhile is marked
 * `aborted` and never forwarded.
 */
export async function startHoldingProxy(
  target: string,
  hold: (request: HeldRequest) => number | Promise<unknown> = () => 0,
): Promise<HoldingProxy> {
  const requests: HeldRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const seen: HeldRequest = { url: req.url ?? '/', json: body ? JSON.parse(body) : undefined, aborted: false };
    requests.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) seen.aborted = true;
    });
    const held = hold(seen);
    if (typeof held !== 'number') await held;
    else if (held > 0) await new Promise((r) => setTimeout(r, held));
    if (seen.aborted) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(target + seen.url, { method: req.method, headers, body: body || undefined });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `store` is idle or in error (subscribing, which starts its search if one is due). */
export function settle<T>(store: SearchStore<T>, timeoutMs = 5000): Promise<StoreSnapshot<T>> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      const timer = setTimeout(
        () => reject(new Error(`store did not settle (status ${store.getSnapshot().status})`)),
        timeoutMs,
      );
      const unsubscribe = store.subscribe((snapshot) => {
        if (snapshot.status === 'idle' || snapshot.status === 'error') {
          clearTimeout(timer);
          queueMicrotask(() => unsubscribe());
          resolve(snapshot);
        }
      });
    });
  });
}

/** The queries of a multi-query body, params decoded to strings. */
export function queriesOf(json: any): Array<{ indexName: string } & Record<string, string>> {
  return (json.requests as Array<{ indexName: string; params: string }>).map((r) => ({
    ...Object.fromEntries(new URLSearchParams(r.params)),
    indexName: r.indexName,
  }));
}
