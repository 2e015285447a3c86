/**
 * Helpers of the service's Node tests: a real service on a loopback port with a temporary data
 * directory, and a small HTTP caller that returns status, headers and the parsed JSON body.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService, DEV_CREDENTIALS, type Service, type ServiceOptions } from '../../src/service/index.js';

export const APP_ID: string = DEV_CREDENTIALS.appId;
export const ADMIN_KEY: string = DEV_CREDENTIALS.adminKey;
export const SEARCH_KEY: string = DEV_CREDENTIALS.searchKey;

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  key?: string | null;
  appId?: string | null;
  headers?: Record<string, string>;
  /** Raw body text (sent as is). */
  raw?: string | Buffer;
}

export interface Running {
  service: Service;
  url: string;
  dataDir: string;
  call<T = any>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  /** Admin call that must answer 200; returns the body. */
  ok<T = any>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<T>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

export function caller(url: string) {
  return async function call<T = any>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const appId = options.appId === undefined ? APP_ID : options.appId;
    const key = options.key === undefined ? ADMIN_KEY : options.key;
    if (appId !== null) headers['X-Service-Application-Id'] = appId;
    if (key !== null) headers['X-Service-API-Key'] = key;
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json; charset=UTF-8';
    const response = await fetch(`${url}${path}`, { method, headers, body: typeof payload === 'string' || payload === undefined ? payload : new Uint8Array(payload) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  };
}

export async function startService(options: ServiceOptions = {}): Promise<Running> {
  const dataDir = options.dataDir ?? tempDir();
  const service = await createService({ ...options, dataDir });
  const { url } = await service.listen(0, '127.0.0.1');
  const call = caller(url);
  return {
    service,
    url,
    dataDir,
    call,
    async ok(method, path, body, callOptions) {
      const answer = await call(method, path, body, callOptions);
      if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async stop({ keepData = false } = {}) {
      await service.close();
      if (!keepData && dataDir !== ':memory:') rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A secured API key exactly as document 1 describes it (hex HMAC-SHA256 + restrictions, Base64). */
export function securedKey(parentKey: string, restrictions: Record<string, unknown>): string {
  const query = Object.entries(restrictions)
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : Array.isArray(value) || typeof value === 'object' ? JSON.stringify(value) : String(value);
      return `${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
    })
    .join('&');
  const digest = createHmac('sha256', parentKey).update(query).digest('hex');
  return Buffer.from(digest + query).toString('base64');
}

/** Indexes records through the batch endpoint and returns the taskID. */
export async function index(running: Running, indexName: string, records: Array<Record<string, unknown>>, settings?: Record<string, unknown>) {
  if (settings) await running.ok('PUT', `/1/indexes/${encodeURIComponent(indexName)}/settings`, settings);
  const answer = await running.ok('POST', `/1/indexes/${encodeURIComponent(indexName)}/batch`, {
    requests: records.map((body) => ({ action: 'addObject', body })),
  });
  return answer.taskID as number;
}
