/**
 * `GET /1/logs` (the "logs" right of document 1): the latest calls the service answered, newest first,
 * kept in memory (the last 1,000). Parameters `offset` (default 0), `length` (default 10, at most 1,000),
 * `indexName`, `type` (`all`, `query` for searches, `build` for writes, `error` for 4xx/5xx answers).
 * API keys are masked in the logged headers; bodies are cut at 1,000 characters.
 */
import { type Context, Hono, type Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Services } from '../services.js';
import { authorize, clientIp } from './request.js';
import { queryOf } from './validate.js';

const KEEP = 1000;

const integerText = (error: string, min: number, max: number) =>
  z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const LOGS_QUERY = z.object({
  offset: integerText('offset must be a non-negative integer', 0, Number.MAX_SAFE_INTEGER).default(0),
  length: integerText('length must be an integer from 1 to 1000', 1, 1000).default(10),
  type: z.enum(['all', 'query', 'build', 'error'], { error: 'type must be all, query, build or error' }).default('all'),
});
/** Read before the credentials are checked (a key restricted to indices may list its indices' logs): text only. */
const INDEX_QUERY = z.looseObject({ indexName: z.string().optional() });
const BODY_CHARS = 1000;

interface LogEntry {
  timestamp: string;
  method: string;
  answer_code: string;
  query_body: string;
  answer: string;
  url: string;
  ip: string;
  query_headers: string;
  sha1: string;
  nb_api_calls: string;
  processing_time_ms: string;
  index?: string;
  kind: 'query' | 'build' | 'other';
}

const QUERY_PATH = /^\/1\/indexes\/[^/]+(\/(query|queries|browse|objects|facets\/[^/]+\/query))?$/;

function kindOf(method: string, path: string): LogEntry['kind'] {
  if (method === 'GET' && /^\/1\/indexes\/[^/]+$/.test(path)) return 'query';
  if (method === 'POST' && QUERY_PATH.test(path) && !/^\/1\/indexes\/[^/]+$/.test(path)) return 'query';
  if (path.startsWith('/1/indexes/') && method !== 'GET') return 'build';
  return 'other';
}

function cut(text: string): string {
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
}

/** The start of a body: reads chunks only until BODY_CHARS bytes are there, then cancels the rest. */
async function head(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= BODY_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return cut(Buffer.concat(chunks).toString('utf8'));
}

/** A path segment decoded, or as it is when it is not valid percent-encoded UTF-8 (never throws). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Wraps the call's `c.json` so that the text it sends is kept for the log; returns a reader of that text
 * (undefined when the answer was not made by `c.json`). Reading the answer back from the response instead
 * (`c.res.clone()`) tees its body into web streams: the answer then leaves as a stream, read chunk by chunk,
 * instead of one string written at once, a large share of the HTTP layer's time per search.
 */
function rememberJsonAnswer(c: Context): () => string | undefined {
  let text: string | undefined;
  const json = (object: unknown, arg?: unknown, headers?: Record<string, string | string[]>) => {
    text = JSON.stringify(object);
    // As Hono's own `c.json`: the JSON content type unless the route gave one.
    return c.body(text, arg as ContentfulStatusCode | undefined, { 'Content-Type': 'application/json', ...headers });
  };
  c.json = json as unknown as Context['json'];
  return () => text;
}

/** A call as the middleware keeps it (the log entry is made from it when read). */
interface Call {
  ts: number;
  method: string;
  status: number;
  /** At most BODY_CHARS characters (`cut`). */
  requestBody: string;
  answer: string;
  url: string;
  path: string;
  ip: string;
  appId: string;
  /** Already masked. */
  apiKey: string;
  userAgent: string;
  ms: number;
}

function entryOf(call: Call): LogEntry {
  const url = new URL(call.url);
  // A key given in the URL (Insights beacons; refused elsewhere, still secret) is never logged, whatever its case.
  for (const name of [...url.searchParams.keys()])
    if (name.toLowerCase() === 'x-service-api-key') url.searchParams.delete(name);
  const index = /^\/1\/indexes\/([^/]+)/.exec(call.path)?.[1];
  const entry: LogEntry = {
    timestamp: new Date(call.ts).toISOString(),
    method: call.method,
    answer_code: String(call.status),
    query_body: call.requestBody,
    answer: call.answer,
    url: `${url.pathname}${url.search}`,
    ip: call.ip,
    query_headers: [
      `X-Service-Application-Id: ${call.appId}`,
      `X-Service-API-Key: ${call.apiKey}`,
      `User-Agent: ${call.userAgent}`,
    ].join('\n'),
    sha1: '',
    nb_api_calls: '1',
    processing_time_ms: String(Math.round(call.ms)),
    kind: kindOf(call.method, call.path),
  };
  if (index !== undefined && index !== '*') entry.index = safeDecode(index);
  return entry;
}

function mask(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 8 ? '***' : `${key.slice(0, 4)}…${key.slice(-4)}`;
}

/**
 * Records the calls and serves `GET /1/logs`. Register it before the other routers (its middleware
 * must wrap them).
 *
 * @example
 * app.route('/', logRoutes(services)); // then GET /1/logs?type=error&length=20 with a key holding the logs right
 */
export function logRoutes(services: Services): Hono {
  const app = new Hono();
  const calls: Call[] = [];

  app.use('/1/*', async (c: Context, next: Next) => {
    if (c.req.path === '/1/logs' || c.req.method === 'OPTIONS') return next();
    const started = performance.now();
    const jsonAnswer = rememberJsonAnswer(c);
    await next();
    // The body as the handler read it (readJson keeps the decoded text); never a second read of the stream.
    const requestBody = cut(c.get('bodyText') ?? '');
    let answer = '';
    const text = jsonAnswer();
    if (text !== undefined) answer = cut(text);
    else {
      try {
        answer = await head(c.res.clone().body);
      } catch {
        answer = '';
      }
    }
    // What the answer needs now, kept raw; the entry is formatted when `GET /1/logs` reads it.
    calls.push({
      ts: Date.now(),
      method: c.req.method,
      status: c.res.status,
      requestBody,
      answer,
      url: c.req.url,
      path: c.req.path,
      ip: clientIp(c) ?? '',
      appId: c.req.header('x-service-application-id') ?? '',
      // Masked at once: the key itself is never kept.
      apiKey: mask(c.req.header('x-service-api-key')),
      userAgent: c.req.header('user-agent') ?? '',
      ms: performance.now() - started,
    });
    // Oldest first; cut back to the last KEEP every KEEP / 10 calls (not a shift per call).
    if (calls.length >= KEEP + KEEP / 10) calls.splice(0, calls.length - KEEP);
  });

  app.get('/1/logs', (c) => {
    const { indexName } = queryOf(c, INDEX_QUERY);
    authorize(services, c, 'logs', indexName);
    const { offset, length, type } = queryOf(c, LOGS_QUERY);
    const entries: LogEntry[] = [];
    for (let i = calls.length - 1; i >= 0 && entries.length < KEEP; i--) entries.push(entryOf(calls[i]!));
    const selected = entries.filter(
      (entry) =>
        (indexName === undefined || entry.index === indexName) &&
        (type === 'all' || (type === 'error' ? Number(entry.answer_code) >= 400 : entry.kind === type)),
    );
    return c.json({ logs: selected.slice(offset, offset + length).map(({ kind: _kind, ...entry }) => entry) });
  });
  return app;
}
