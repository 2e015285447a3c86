/**
 * Request bodies: read only once the call is authorised, bounded per request (413) and across requests
 * (503), drained after an early answer; UTF-8 and JSON checks (400) with messages that say what is wrong.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { ServiceError } from '../errors.js';
import { EVENT_LIMITS } from '../insights/validate.js';
import type { BodyBudget } from './body-budget.js';

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
    /** The body of the request, not read yet (`bodies`): a route reads it with `readJson` once it has checked the call. */
    requestBody: RequestBody;
  }
}

/** The request and the response of Node's server (`@hono/node-server` passes them as the context's env). */
interface NodeExchange {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** The body limit of a path: Insights events have their own (document 1, "Events"), every other route 10 MB. */
function bodyLimitOf(path: string): number {
  return path === '/1/events' ? EVENT_LIMITS.bodyBytes - 1 : DEFAULT_MAX_BODY_BYTES;
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError(413, `Request body too large: more than ${maxBytes} bytes, the limit is ${maxBytes} bytes`);
}

/** The announced `Content-Length`, if any. */
function declaredLength(c: Context): number | undefined {
  const declared = Number(c.req.header('content-length'));
  return Number.isFinite(declared) && c.req.header('content-length') !== undefined ? declared : undefined;
}

/** A body whose announced length is above the limit: 413 before reading it. */
function refuseDeclaredLength(c: Context, maxBytes: number): void {
  const declared = declaredLength(c);
  if (declared !== undefined && declared > maxBytes) {
    throw new ServiceError(413, `Request body too large: ${declared} bytes, the limit is ${maxBytes} bytes`);
  }
}

/** Whether the client asked for the connection to be closed after this exchange (HTTP/1.1 `close`, HTTP/1.0 without `keep-alive`). */
function wantsClose(incoming: IncomingMessage): boolean {
  const connection = (incoming.headers.connection ?? '').toLowerCase();
  if (incoming.httpVersion === '1.0') return !/\bkeep-alive\b/.test(connection);
  return /\bclose\b/.test(connection);
}

/**
 * The body of one request, read on demand: nothing is read before a route asks for it, which it does once
 * it has checked the credentials and rights of the call (an unauthorised call costs no buffering). The
 * bytes it holds count against the service's {@link BodyBudget} until the answer is written.
 */
class RequestBody {
  readonly #c: Context;
  readonly #node: NodeExchange | undefined;
  readonly #budget: BodyBudget;
  /** The limit of the path: the most a request may send, read or drained. */
  readonly pathLimit: number;
  #bytes: Promise<Uint8Array> | undefined;
  /** Bytes of the budget this request holds. */
  #held = 0;
  /** Bytes taken off the connection by the reader. */
  consumed = 0;

  constructor(c: Context, node: NodeExchange | undefined, budget: BodyBudget) {
    this.#c = c;
    this.#node = node;
    this.#budget = budget;
    this.pathLimit = bodyLimitOf(c.req.path);
  }

  /** Reads the whole body, at most `maxBytes` (and the path's limit); the first call reads, later ones share it. */
  read(maxBytes: number): Promise<Uint8Array> {
    this.#bytes ??= this.#read(Math.min(maxBytes, this.pathLimit));
    return this.#bytes;
  }

  /**
   * Counts `bytes` more against the budget: a 503 when they do not fit (the hosted API's answer when it is
   * over capacity; the official clients retry a 5xx).
   */
  hold(bytes: number): void {
    if (!this.#budget.take(bytes)) {
      throw new ServiceError(
        503,
        `Service busy: request bodies being received already hold ${this.#budget.held} of the ${this.#budget.limit} bytes allowed in memory at once; retry in a moment`,
        { headers: { 'Retry-After': '1' } },
      );
    }
    this.#held += bytes;
  }

  /** Gives the budget back (the answer is written, or the body was dropped). */
  release(): void {
    this.#budget.release(this.#held);
    this.#held = 0;
  }

  async #read(maxBytes: number): Promise<Uint8Array> {
    const declared = declaredLength(this.#c);
    if (declared !== undefined && declared > maxBytes) throw tooLarge(maxBytes);
    // A declared length is taken from the budget at once: a body that cannot fit is refused before it is read.
    if (declared !== undefined) this.hold(declared);
    const onChunk = (chunkBytes: number, totalBytes: number) => {
      this.consumed += chunkBytes;
      // One byte more than the limit is a 413 at once (a chunked body announces no length).
      if (totalBytes > maxBytes) throw tooLarge(maxBytes);
      if (totalBytes > this.#held) this.hold(totalBytes - this.#held);
    };
    try {
      if (this.#node) return await readIncoming(this.#node.incoming, onChunk);
      return await readStream(this.#c.req.raw.body, onChunk);
    } catch (error) {
      // Nothing of a refused body is kept.
      this.release();
      throw error;
    }
  }
}

/** Called for each chunk read, before it is kept: throws (413 at the limit, the budget's 503) to stop the read. */
type OnChunk = (chunkBytes: number, totalBytes: number) => void;

/**
 * Reads Node's request stream to its end unless `onChunk` refuses a chunk: then the stream is paused where
 * it stopped and what is left is drained after the answer (`drainAfterAnswer`). Node's stream rather than
 * the web stream over it: a web stream keeps what arrives in its own queue, and cancelling it destroys the
 * connection before the answer is written.
 */
function readIncoming(incoming: IncomingMessage, onChunk: OnChunk): Promise<Uint8Array> {
  // A server in front that read the body already keeps it as `rawBody` (Express' raw parser, a cloud
  // function's host; the Node adapter honours it too): those bytes are the body, under the same limit and budget.
  const { rawBody } = incoming as IncomingMessage & { rawBody?: unknown };
  if (rawBody instanceof Buffer) {
    try {
      onChunk(rawBody.byteLength, rawBody.byteLength);
    } catch (error) {
      return Promise.reject(error);
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
      incoming.pause();
    };
    const fail = (error: unknown) => {
      stop();
      chunks.length = 0;
      reject(error);
    };
    function onData(chunk: Buffer): void {
      size += chunk.byteLength;
      try {
        onChunk(chunk.byteLength, size);
      } catch (error) {
        fail(error);
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    }
    // The client went away (or the connection failed) before the end of the body.
    function onFailure(): void {
      fail(new ServiceError(400, 'The request body could not be read'));
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onFailure);
    incoming.on('close', onFailure);
  });
}

/** {@link readIncoming} for a web stream (the app called without Node's server, e.g. `app.request`). */
async function readStream(stream: ReadableStream<Uint8Array> | null, onChunk: OnChunk): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      onChunk(value.byteLength, size);
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
 * After an answer written before the end of its request's body (a call refused before its body was read,
 * a route that needs none, a body refused at its limit or by the budget): what is left of the body is read
 * and dropped as it arrives, up to the path's limit, so a client still sending reads its answer instead of
 * meeting a closed connection (whose reset can drop the answer before the client reads it). A client that
 * sends more than the limit has its connection closed.
 */
function drainAfterAnswer(incoming: IncomingMessage, allowance: number, close: boolean): void {
  const socket = incoming.socket;
  if (incoming.complete) {
    if (close) socket.destroySoon();
    return;
  }
  let drained = 0;
  function onData(chunk: Buffer): void {
    drained += chunk.byteLength;
    if (drained > allowance) {
      incoming.off('data', onData);
      socket.destroy();
    }
  }
  incoming.on('data', onData);
  incoming.once('end', () => {
    incoming.off('data', onData);
    if (close) socket.destroySoon();
  });
  // A client that goes away mid-body: nothing more to drain.
  incoming.on('error', () => incoming.off('data', onData));
  incoming.resume();
}

/**
 * Middleware: makes the request's body available to the routes without reading it. A route reads it with
 * `readJson` once it has checked the credentials and rights of the call (every router authorises first), so
 * an unauthenticated or forbidden call is refused without its body being buffered; a body announcing more
 * than its path's limit (10 MB, 2 MB for `/1/events`) is a 413 before anything else. Whatever the answer
 * leaves unread is drained after the answer is written (`drainAfterAnswer`), and the budget the body held
 * is given back once the answer is done.
 *
 * @example
 * app.use('*', bodies(new BodyBudget(services.config.maxBodyBytesInFlight)));
 */
export function bodies(budget: BodyBudget) {
  return async function bodiesOf(c: Context, next: () => Promise<void>): Promise<void> {
    // GET and HEAD carry no body.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      await next();
      return;
    }
    const node = nodeExchangeOf(c);
    const body = new RequestBody(c, node, budget);
    c.set('requestBody', body);
    if (!node) {
      try {
        refuseDeclaredLength(c, body.pathLimit);
        await next();
      } finally {
        body.release();
      }
      return;
    }
    const { incoming, outgoing } = node;
    outgoing.once('close', () => body.release());
    try {
      refuseDeclaredLength(c, body.pathLimit);
      await next();
    } finally {
      // The answer is about to be written while the body is still arriving: the connection must stay open
      // for the drain even if the client asked to close it (Node would close it right after the answer);
      // the drain closes it once the body has ended.
      const close = wantsClose(incoming);
      const keptOpen = close && !incoming.complete;
      if (keptOpen && !outgoing.headersSent) outgoing.setHeader('Connection', 'keep-alive');
      // Before Node's own 'finish' listener, which would otherwise dump the rest of the body unbounded.
      outgoing.prependOnceListener('finish', () => {
        if (incoming.complete && !keptOpen) return;
        drainAfterAnswer(incoming, body.pathLimit - body.consumed, keptOpen);
      });
    }
  };
}

function nodeExchangeOf(c: Context): NodeExchange | undefined {
  const env = c.env as Partial<NodeExchange> | undefined;
  return env?.incoming && env.outgoing ? { incoming: env.incoming, outgoing: env.outgoing } : undefined;
}

/**
 * Reads and parses the JSON body, at most `maxBytes` (413 above, also once decompressed). An empty body
 * reads as `{}`. Call it after the call's credentials and rights are checked: reading is what costs memory.
 *
 * @example
 * authorize(services, c, 'addObject', indexName);
 * const body = await readJson<{ requests: unknown[] }>(c);
 */
export async function readJson<T = unknown>(c: Context, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<T> {
  refuseDeclaredLength(c, maxBytes);
  const requestBody = c.get('requestBody') as RequestBody | undefined;
  const bytes = requestBody ? await requestBody.read(maxBytes) : new Uint8Array(0);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
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
    // The decompressed body is held too, until the answer is written.
    requestBody?.hold(body.byteLength);
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
