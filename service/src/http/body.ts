/** Request bodies: size limit (413), UTF-8 and JSON checks (400) with messages that say what is wrong. */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { ServiceError } from '../errors.js';

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
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new ServiceError(413, `Request body too large: ${declared} bytes, the limit is ${maxBytes} bytes`);
  }
  const bytes = await readAtMost(c.req.raw.body, maxBytes);
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
