/** Request bodies: size limit (413), UTF-8 and JSON checks (400) with messages that say what is wrong. */
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { ServiceError } from '../errors.js';
import { EVENT_LIMITS } from '../insights/validate.js';

/** Default body limit of the service (writes and searches). */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The content encodings accepted (a Map: a header value such as `constructor` must not find Object.prototype's). */
const DECODERS = new Map([
  ['gzip', gunzipSync],
  ['deflate', inflateSync],
  ['br', brotliDecompressSync],
]);

declare module 'hono' {
  interface ContextVariableMap {
    /** The decoded body text of a request read through `readJson` (for the call log and Usage, without a second read). */
    bodyText: string;
    /** The body as received (`readBody`, before any route runs), at most the limit of its path. */
    bodyBytes: Uint8Array;
  }
}

/** The body limit of a path: Insights events have their own (document 1, "Events"), every other route 10 MB. */
function bodyLimitOf(path: string): number {
  return path === '/1/events' ? EVENT_LIMITS.bodyBytes - 1 : DEFAULT_MAX_BODY_BYTES;
}

/**
 * Middleware: reads the whole request body, up to the limit of its path, before any route runs — as the
 * hosted API's front end does: a body above the limit is a 413 on every route, and no route answers while
 * the client is still sending. (A route that answered without reading the body — one that needs none, like
 * `POST …/clear`, or one that refused the call first — left the body unread on the connection; Node then
 * closed it under the client still writing, whose kernel answered with a reset that could drop the answer
 * before the client read it.) `readJson` then parses these bytes with the route's own, smaller limit.
 *
 * @example
 * app.use('*', readBody);
 */
export async function readBody(c: Context, next: () => Promise<void>): Promise<void> {
  // GET and HEAD carry no body (and asking the request for its body stream would build one for nothing).
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    await next();
    return;
  }
  const maxBytes = bodyLimitOf(c.req.path);
  // Before the body stream is touched: once opened, the HTTP layer can no longer drain what is left of it.
  refuseDeclaredLength(c, maxBytes);
  const incoming = nodeRequestOf(c);
  if (incoming) c.set('bodyBytes', await readNodeRequest(incoming, maxBytes));
  else {
    const body = c.req.raw.body;
    if (body) c.set('bodyBytes', await readAtMost(body, maxBytes));
  }
  await next();
}

/** The Node request under the Hono one when the app runs in a Node server (`@hono/node-server`). */
function nodeRequestOf(c: Context): Readable | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof Readable ? incoming : undefined;
}

/**
 * {@link readAtMost} on the Node request itself: asking Hono's request for its `body` would build a
 * fetch `Request` and a web stream over the Node one (a large share of the HTTP layer's cost per small
 * search). Above the limit it stops reading and leaves the request paused: the Node adapter drains a
 * bounded amount once the answer is sent, then closes the connection, as with the web stream.
 */
function readNodeRequest(incoming: Readable, maxBytes: number): Promise<Uint8Array> {
  // A server in front that read the body already (`rawBody`, as the Node adapter also honours), or drained it.
  const { rawBody } = incoming as Readable & { rawBody?: unknown };
  if (rawBody instanceof Buffer) {
    if (rawBody.byteLength > maxBytes) {
      return Promise.reject(
        new ServiceError(413, `Request body too large: more than ${maxBytes} bytes, the limit is ${maxBytes} bytes`),
      );
    }
    return Promise.resolve(rawBody);
  }
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onFailure);
      incoming.off('close', onFailure);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        incoming.pause();
        reject(
          new ServiceError(413, `Request body too large: more than ${maxBytes} bytes, the limit is ${maxBytes} bytes`),
        );
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // An error, or the connection closed before the end of the body (the client went away).
    const onFailure = () => {
      stop();
      reject(new ServiceError(400, 'The request body could not be read'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onFailure);
    incoming.on('close', onFailure);
  });
}

/** A body whose announced length is above the limit: 413 before reading it. */
function refuseDeclaredLength(c: Context, maxBytes: number): void {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new ServiceError(413, `Request body too large: ${declared} bytes, the limit is ${maxBytes} bytes`);
  }
}

/**
 * Reads a body stream up to `maxBytes`: one byte more is a 413 at once, and nothing more is read (a body
 * sent with `Transfer-Encoding: chunked` announces no length, so the limit must hold while reading; the
 * HTTP layer then drains a bounded amount and closes the connection).
 */
async function readAtMost(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        throw new ServiceError(
          413,
          `Request body too large: more than ${maxBytes} bytes, the limit is ${maxBytes} bytes`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError(400, 'The request body could not be read');
  } finally {
    reader.releaseLock();
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/**
 * Reads and parses the JSON body. An empty body reads as `{}`.
 *
 * @example
 * const body = await readJson<{ requests: unknown[] }>(c);
 */
export async function readJson<T = unknown>(c: Context, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<T> {
  refuseDeclaredLength(c, maxBytes);
  const bytes = c.get('bodyBytes') ?? (await readAtMost(c.req.raw.body, maxBytes));
  if (bytes.byteLength > maxBytes) {
    throw new ServiceError(413, `Request body too large: more than ${maxBytes} bytes, the limit is ${maxBytes} bytes`);
  }
  let body: Uint8Array = bytes;
  const encoding = (c.req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && bytes.byteLength > 0) {
    const inflate = DECODERS.get(encoding);
    if (!inflate) throw new ServiceError(415, `Unsupported Content-Encoding ${encoding} (gzip, deflate or br)`);
    try {
      // The limit applies to the decompressed body too.
      body = inflate(body, { maxOutputLength: maxBytes + 1 });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ServiceError(413, `Request body too large once decompressed: the limit is ${maxBytes} bytes`);
      }
      throw new ServiceError(400, `The body is not valid ${encoding} data`);
    }
    if (body.byteLength > maxBytes)
      throw new ServiceError(413, `Request body too large once decompressed: the limit is ${maxBytes} bytes`);
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ServiceError(400, 'Invalid JSON: the body is not valid UTF-8');
  }
  c.set('bodyText', text);
  if (text.trim() === '') return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ServiceError(400, `Invalid JSON: ${(error as Error).message}`);
  }
}
