/**
 * The Web Worker of `svc-search/local`: loads `.svcidx` bundles and answers the client's calls with the
 * engine ({@link LocalEngine}). Messages: `{ id, op: 'load', sources }` (URLs or bytes) and
 * `{ id, op: 'call', method, args }`; each is answered `{ id, ok: true, value }` or
 * `{ id, ok: false, status, message }` (the status the service would answer).
 */
import { LocalEngine, statusOf } from './engine-host.js';
import { readBundle } from '../engine/bundle-read.js';
import type { LocalLoad } from './client.js';
import type { WorkerRequest, WorkerResponse } from './messages.js';

const engine = new LocalEngine();

async function bytesOf(source: string | ArrayBuffer): Promise<Uint8Array> {
  if (typeof source !== 'string') return new Uint8Array(source);
  const response = await fetch(source);
  if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function load(sources: Array<string | ArrayBuffer>): Promise<LocalLoad> {
  const started = performance.now();
  const bundles = await Promise.all(sources.map(async (source) => readBundle(await bytesOf(source))));
  for (const bundle of bundles) await engine.load(bundle);
  return { indices: engine.names(), loadMs: performance.now() - started, rebuilt: Object.fromEntries(engine.rebuilt) };
}

/** The engine's methods the client calls (its `search` sends a multi-query of one request). */
const METHODS: readonly string[] = ['multiSearch', 'searchForFacetValues', 'getObjects', 'browse', 'recommend'];

async function call(method: string, args: unknown[]): Promise<unknown> {
  if (!METHODS.includes(method)) throw new Error(`Unknown method ${method}`);
  await engine.prepare(method, args);
  const answer = engine[method as 'multiSearch'] as (...given: unknown[]) => unknown;
  return answer.apply(engine, args);
}

self.addEventListener('message', async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  let answer: WorkerResponse;
  try {
    const value = request.op === 'load' ? await load(request.sources) : await call(request.method, request.args);
    answer = { id: request.id, ok: true, value };
  } catch (error) {
    answer = { id: request.id, ok: false, status: statusOf(error), message: (error as Error).message ?? String(error) };
  }
  self.postMessage(answer);
});
