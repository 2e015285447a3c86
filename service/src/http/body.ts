/** Request bodies: size limit (413), UTF-8 and JSON checks (400) with messages that say what is wrong. */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { HttpError } from './errors.js';

/** Default body limit of the service (writes and searches). */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The decoded body text of each request read through `readJson` (for the call log, without a second read). */
export const bodyTexts = new WeakMap<Request, string>();

/**
 * Reads and parses the JSON body. An empty body reads as `{}`.
 *
 * @example
 * const body = await readJson<{ requests: unknown[] }>(c);
 */
export async function readJson<T = unknown>(c: Context, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<T> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new HttpError(413, `Request body too large: ${declared} bytes, the limit is ${maxBytes} bytes`);
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    throw new HttpError(400, 'The request body could not be read');
  }
  if (bytes.byteLength > maxBytes) {
    throw new HttpError(413, `Request body too large: ${bytes.byteLength} bytes, the limit is ${maxBytes} bytes`);
  }
  let body: Uint8Array = new Uint8Array(bytes);
  const encoding = (c.req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && bytes.byteLength > 0) {
    const inflate = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync }[encoding];
    if (!inflate) throw new HttpError(415, `Unsupported Content-Encoding ${encoding} (gzip, deflate or br)`);
    try {
      // The limit applies to the decompressed body too.
      body = inflate(body, { maxOutputLength: maxBytes + 1 });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new HttpError(413, `Request body too large once decompressed: the limit is ${maxBytes} bytes`);
      }
      throw new HttpError(400, `The body is not valid ${encoding} data`);
    }
    if (body.byteLength > maxBytes)
      throw new HttpError(413, `Request body too large once decompressed: the limit is ${maxBytes} bytes`);
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new HttpError(400, 'Invalid JSON: the body is not valid UTF-8');
  }
  bodyTexts.set(c.req.raw, text);
  if (text.trim() === '') return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new HttpError(400, `Invalid JSON: ${(error as Error).message}`);
  }
}

/**
 * The body must be a JSON object (not an array, not a scalar).
 *
 * @example
 * const record = asObject(await readJson(c), 'The record'); // 400 "The record must be a JSON object" for `[1]`
 */
export function asObject(value: unknown, what = 'The body'): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, `${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * A `requests` list of a batch or multi-query body.
 *
 * @example
 * requestsOf({ requests: [{ action: 'clear' }] }) // [{ action: 'clear' }]
 */
export function requestsOf(body: unknown): unknown[] {
  const object = asObject(body);
  if (!Array.isArray(object.requests)) throw new HttpError(400, '`requests` must be an array');
  return object.requests;
}
