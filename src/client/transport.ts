/**
 * The retry strategy: which host a call goes to, when it moves on, and how long it waits.
 *
 * - Reads try the read hosts, writes the write hosts, in the order given (computed hosts: DSN or main
 *   host first, then the three fallback hosts shuffled once per client).
 * - A network error, a timeout or a 5xx moves the call to the next host and marks the failed host down
 *   for `hostDownMs`; down hosts are skipped until then (when every host is down, all are tried again).
 * - A 4xx ends the call with an {@link ApiError} (never retried); an aborted signal ends it with the
 *   signal's reason (an `AbortError`), and does not mark the host down.
 * - Timeouts grow with each retry: attempt n waits n × the base timeouts.
 */
import { ApiError, RetryError, abortError, type HostAttempt } from './errors.js';
import type { HostDescriptor } from './types.js';

export type CallKind = 'read' | 'write';

export interface Timeouts {
  /** Time to connect and get the answer's headers is bounded by `connect` + `read`/`write`. */
  connect: number;
  /** Bound for reads (searches…): headers within connect + read, body within read. */
  read: number;
  /** Bound for writes (indexing…): headers within connect + write, body within write. */
  write: number;
}

/** Default base timeouts, ms (the values of the hosted API's official clients). */
export const DEFAULT_TIMEOUTS: Timeouts = { connect: 2_000, read: 5_000, write: 30_000 };
/** Default time a failed host is skipped, ms. */
export const DEFAULT_HOST_DOWN_MS = 2 * 60_000;

export interface TransportCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with its query string, starting with `/`. */
  path: string;
  body?: unknown;
  kind: CallKind;
  signal?: AbortSignal;
  /** Send the credentials as URL parameters instead of headers (Insights `keepalive`). */
  credentialsInUrl?: boolean;
  keepalive?: boolean;
  /** Use these hosts instead of the client's (the Insights host). */
  hosts?: HostDescriptor[];
}

export interface TransportOptions {
  appId: string;
  apiKey: string;
  hosts: HostDescriptor[];
  timeouts: Timeouts;
  hostDownMs: number;
}

const TIMEOUT = Symbol('timeout');
/** Browsers cap the bodies of in-flight keepalive requests at 64 KiB in total. */
const KEEPALIVE_MAX_BYTES = 64 * 1024;

/**
 * Sends calls with retries across hosts. One per client; remembers which hosts are down.
 *
 * @example
 * const t = new Transport({ appId, apiKey, hosts: [{ url: 'http://127.0.0.1:8787' }], timeouts: DEFAULT_TIMEOUTS, hostDownMs: 120000 });
 * await t.send({ method: 'GET', path: '/1/keys', kind: 'read' });
 */
export class Transport {
  readonly options: TransportOptions;
  /** host url → time until which it is skipped. */
  #downUntil = new Map<string, number>();

  constructor(options: TransportOptions) {
    this.options = options;
  }

  /** Hosts a call of `kind` tries, in order, skipping those still marked down. */
  hostsFor(kind: CallKind, hosts: HostDescriptor[] = this.options.hosts): HostDescriptor[] {
    const eligible = hosts.filter((h) => (h.accept ?? 'readWrite') === 'readWrite' || h.accept === kind);
    const now = Date.now();
    const up = eligible.filter((h) => (this.#downUntil.get(h.url) ?? 0) <= now);
    // Every host down: try them all again rather than failing without a request (as the official clients do).
    return up.length ? up : eligible;
  }

  /** True while `url` is remembered as down. */
  isDown(url: string): boolean {
    return (this.#downUntil.get(url) ?? 0) > Date.now();
  }

  async send<R>(call: TransportCall): Promise<R> {
    const { signal } = call;
    if (signal?.aborted) throw abortError(signal);
    const hosts = this.hostsFor(call.kind, call.hosts);
    if (!hosts.length) throw new RetryError([{ host: '(none)', reason: 'network', message: `no host accepts ${call.kind} calls` }]);
    const attempts: HostAttempt[] = [];
    for (let i = 0; i < hosts.length; i++) {
      const host = hosts[i]!;
      const outcome = await this.#attempt(host.url, call, i + 1);
      if (outcome.ok) return outcome.value as R;
      attempts.push(outcome.attempt);
      this.#downUntil.set(host.url, Date.now() + this.options.hostDownMs);
    }
    throw new RetryError(attempts);
  }

  async #attempt(
    hostUrl: string,
    call: TransportCall,
    attemptNumber: number,
  ): Promise<{ ok: true; value: unknown } | { ok: false; attempt: HostAttempt }> {
    const { appId, apiKey, timeouts } = this.options;
    const base = call.kind === 'write' ? timeouts.write : timeouts.read;
    const headersTimeout = (timeouts.connect + base) * attemptNumber;
    const bodyTimeout = base * attemptNumber;

    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(TIMEOUT), ms);
    };

    let url = hostUrl + call.path;
    const headers: Record<string, string> = {};
    if (call.credentialsInUrl) {
      url += `${call.path.includes('?') ? '&' : '?'}x-service-application-id=${encodeURIComponent(appId)}&x-service-api-key=${encodeURIComponent(apiKey)}`;
    } else {
      headers['X-Service-Application-Id'] = appId;
      headers['X-Service-API-Key'] = apiKey;
    }
    let body: string | undefined;
    if (call.body !== undefined && call.method !== 'GET' && call.method !== 'DELETE') {
      body = JSON.stringify(call.body);
      // keepalive calls avoid a CORS preflight (like sendBeacon): a safelisted content type, no custom headers.
      headers['Content-Type'] = call.credentialsInUrl ? 'text/plain; charset=UTF-8' : 'application/json; charset=UTF-8';
    }

    const failed = (reason: HostAttempt['reason'], message: string, status?: number) =>
      ({ ok: false as const, attempt: { host: hostUrl, reason, message, ...(status !== undefined ? { status } : {}) } });

    try {
      arm(headersTimeout);
      let response: Response;
      try {
        // Browsers refuse keepalive bodies over 64 KiB; such a batch goes as an ordinary request.
        const keepalive = call.keepalive === true && (body === undefined || new TextEncoder().encode(body).length <= KEEPALIVE_MAX_BYTES);
        response = await fetch(url, { method: call.method, headers, body, signal: controller.signal, keepalive });
      } catch (error) {
        if (call.signal?.aborted) throw abortError(call.signal);
        if (controller.signal.reason === TIMEOUT) return failed('timeout', `no answer within ${headersTimeout} ms`);
        return failed('network', describe(error));
      }
      arm(bodyTimeout);
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (call.signal?.aborted) throw abortError(call.signal);
        if (controller.signal.reason === TIMEOUT) return failed('timeout', `answer body not read within ${bodyTimeout} ms`);
        return failed('network', describe(error));
      }
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        json = undefined;
      }
      const message =
        json && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
          ? (json as { message: string }).message
          : text.slice(0, 200) || response.statusText;
      if (response.status >= 200 && response.status < 300) {
        if (json === undefined) return failed('network', `answer is not JSON: ${text.slice(0, 80)}`);
        return { ok: true, value: json };
      }
      if (response.status >= 400 && response.status < 500) throw new ApiError(message, response.status);
      return failed('status', message, response.status);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' ? (cause as { code?: string }).code : undefined;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
