/**
 * One crawl with Node's `fetch`: which URLs are fetched (the actions' `pathsToMatch` globs,
 * `exclusionPatterns`, registered domains, robots.txt), at what pace (`rateLimit` requests per second,
 * robots.txt included), what a page yields (links; records of the actions whose `selectorsToMatch` and
 * `fileTypesToMatch` match it) and what each URL's statistics line says. Writing the records is the
 * caller's (`onUrl`), so the test endpoint reuses `visit` and writes nothing.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { load, type CheerioAPI } from 'cheerio';
import picomatch from 'picomatch';
import robotsModule from 'robots-parser';
import type { UrlOutcome, UrlStatus } from '../storage/types.js';
import { DEFAULT_MAX_URLS, targetIndexName, type CrawlerAction, type CrawlerConfig } from './config.js';
import { ExtractorError, runExtractor } from './extractor.js';

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
/** robots-parser is CommonJS whose typings declare an ES default export; at run time the default import is the function. */
const robotsParser = robotsModule as unknown as (url: string, contents: string) => Robots;

/** The User-Agent of the local crawler (also the robots.txt agent it obeys, besides `*`). */
export const USER_AGENT = 'SvcSearchCrawler/1.0 (local svc-search)';
const ROBOTS_AGENT = 'SvcSearchCrawler';
export const FETCH_TIMEOUT_MS = 15_000;
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** Requests per second, shared by everything one crawler fetches; waits while the crawler is paused. */
export class Pace {
  #next = 0;
  #paused = false;
  #waiters: Array<() => void> = [];
  /** Settles when the caller before the last one has started (callers take their turn one after another). */
  #turn: Promise<void> = Promise.resolve();

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves when the next request may start (at most `rate` starts per second). */
  async acquire(rate: number, signal: AbortSignal): Promise<void> {
    // One caller at a time, each counting from the previous caller's actual start: a timer that fires late
    // (a busy event loop) delays the callers after it instead of letting them start in a burst.
    const previous = this.#turn;
    let done!: () => void;
    this.#turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      await previous;
      signal.throwIfAborted();
      while (this.#paused) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal.removeEventListener('abort', wake);
            resolve();
          };
          this.#waiters.push(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
        signal.throwIfAborted();
      }
      // Checked again after each sleep: a timer counts from the event loop's cached clock, so after a busy
      // turn it can fire before its delay has passed on `performance.now()`.
      for (let wait = this.#next - performance.now(); wait > 0; wait = this.#next - performance.now()) {
        await sleep(wait, signal);
        signal.throwIfAborted();
      }
      signal.throwIfAborted();
      this.#next = performance.now() + 1000 / rate;
    } finally {
      done();
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Registered domains: a host is allowed when it equals a domain or, for `*.example.com`, is a subdomain of it.
 *
 * @example
 * domainMatcher(['localhost', '*.example.com'])('www.example.com') // true
 */
export function domainMatcher(domains: string[]): (hostname: string) => boolean {
  const exact = new Set(domains.filter((domain) => !domain.startsWith('*.')).map((domain) => domain.toLowerCase()));
  const suffixes = domains.filter((domain) => domain.startsWith('*.')).map((domain) => domain.slice(1).toLowerCase());
  return (hostname) => {
    const host = hostname.toLowerCase();
    return exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix) && host.length > suffix.length);
  };
}

/**
 * The objectID of a record its extractor left without one: stable from the URL and the record's position.
 *
 * @example
 * objectIdFor('http://localhost:3000/docs/', 0) // sha256 of the URL, first 24 hex digits, + '-0'
 */
export function objectIdFor(url: string, position: number): string {
  return `${createHash('sha256').update(url).digest('hex').slice(0, 24)}-${position}`;
}

function urlMatcher(patterns: string[]): (url: string) => boolean {
  return patterns.length === 0 ? () => false : picomatch(patterns, { dot: true });
}

/** Records of one action on one page. */
export interface Extraction {
  /** Position of the action in `config.actions`. */
  actionIndex: number;
  /** The action's live index (`indexPrefix + indexName`). */
  indexName: string;
  records: Array<Record<string, unknown> & { objectID: string }>;
}

export interface Visit {
  url: string;
  status: UrlStatus;
  reason: string;
  category: string;
  readable: string;
  extractions: Extraction[];
  /** Links of the page (absolute, without fragment), before any filter. */
  links: string[];
  /** Where a 3xx answer pointed. */
  redirect?: string;
  logs: string[][];
  /** Whether the URL was requested. */
  fetched: boolean;
}

type Verdict = Pick<Visit, 'status' | 'reason' | 'category' | 'readable'>;

const VERDICTS = {
  success: { status: 'DONE', reason: 'success', category: 'success', readable: 'Success' },
  excluded: {
    status: 'SKIPPED',
    reason: 'excluded_by_pattern',
    category: 'filter',
    readable: 'The URL matches exclusionPatterns',
  },
  noAction: {
    status: 'SKIPPED',
    reason: 'no_matching_action',
    category: 'filter',
    readable: "No action's pathsToMatch matches the URL",
  },
  noActionApplied: {
    status: 'SKIPPED',
    reason: 'no_action_applied',
    category: 'filter',
    readable: "Fetched, but no action's selectorsToMatch and fileTypesToMatch match the page",
  },
  fileType: {
    status: 'SKIPPED',
    reason: 'unsupported_file_type',
    category: 'filter',
    readable: 'Not an HTML page (the local crawler extracts HTML only)',
  },
  domain: {
    status: 'SKIPPED',
    reason: 'domain_not_registered',
    category: 'domain',
    readable: "The URL's host is not a registered domain",
  },
  robots: {
    status: 'SKIPPED',
    reason: 'forbidden_by_robotstxt',
    category: 'robots',
    readable: 'Disallowed by robots.txt',
  },
  redirect: {
    status: 'SKIPPED',
    reason: 'redirect',
    category: 'fetch',
    readable: 'Redirected (the target is crawled as its own URL)',
  },
  network: {
    status: 'FAILED',
    reason: 'network_error',
    category: 'fetch',
    readable: 'The request failed (network error or timeout)',
  },
  tooBig: {
    status: 'FAILED',
    reason: 'too_big',
    category: 'fetch',
    readable: `The page is larger than ${MAX_PAGE_BYTES} bytes`,
  },
  extractor: {
    status: 'FAILED',
    reason: 'extractor_error',
    category: 'extraction',
    readable: 'A recordExtractor threw, timed out or returned no array of objects',
  },
} satisfies Record<string, Verdict>;

function httpVerdict(status: number): Verdict {
  return {
    status: 'FAILED',
    reason: `http_${status}`,
    category: 'fetch',
    readable: `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim(),
  };
}

/** What a crawl knows once per configuration: the matchers, the registered domains, robots.txt per origin. */
export class CrawlScope {
  readonly config: CrawlerConfig;
  readonly #actionMatchers: Array<(url: string) => boolean>;
  readonly #excluded: (url: string) => boolean;
  readonly #domainAllowed: (hostname: string) => boolean;
  readonly #robots = new Map<string, Promise<Robots | null>>();
  readonly #pace: Pace;
  readonly #signal: AbortSignal;

  constructor(config: CrawlerConfig, domains: string[], pace: Pace, signal: AbortSignal) {
    this.config = config;
    this.#actionMatchers = config.actions.map((item) => urlMatcher(item.pathsToMatch));
    this.#excluded = urlMatcher(config.exclusionPatterns ?? []);
    this.#domainAllowed = domainMatcher(domains);
    this.#pace = pace;
    this.#signal = signal;
  }

  /** Whether a URL is worth queueing: some action's pathsToMatch matches it and no exclusion pattern does. */
  wanted(url: string): boolean {
    return !this.#excluded(url) && this.#actionMatchers.some((matches) => matches(url));
  }

  /** Fetches with the crawler's pace, timeout and abort signal; `redirect: 'manual'`. */
  async fetch(url: string): Promise<Response> {
    await this.#pace.acquire(this.config.rateLimit, this.#signal);
    return fetch(url, {
      redirect: 'manual',
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      signal: AbortSignal.any([this.#signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]),
    });
  }

  /** robots.txt of the URL's origin (fetched once per crawl); any answer but 2xx allows everything. */
  async #robotsOf(url: URL) {
    let robots = this.#robots.get(url.origin);
    if (!robots) {
      const robotsUrl = `${url.origin}/robots.txt`;
      robots = (async () => {
        try {
          const response = await this.fetch(robotsUrl);
          if (!response.ok) {
            await response.body?.cancel();
            return null;
          }
          return robotsParser(robotsUrl, (await readText(response)) ?? '');
        } catch {
          this.#signal.throwIfAborted();
          return null;
        }
      })();
      this.#robots.set(url.origin, robots);
    }
    return robots;
  }

  /**
   * Everything about one URL: the checks before fetching (exclusion, actions, domain, robots.txt), the
   * fetch, links and the records of every action that applies. Throws only when the crawl is aborted.
   */
  async visit(href: string): Promise<Visit> {
    const url = new URL(href);
    const result = (verdict: Verdict, rest: Partial<Visit> = {}): Visit => ({
      url: href,
      ...verdict,
      extractions: [],
      links: [],
      logs: [],
      fetched: false,
      ...rest,
    });
    if (this.#excluded(href)) return result(VERDICTS.excluded);
    const matching = this.config.actions.map((_, i) => i).filter((i) => this.#actionMatchers[i]!(href));
    if (matching.length === 0) return result(VERDICTS.noAction);
    if (!this.#domainAllowed(url.hostname)) return result(VERDICTS.domain);
    if (this.config.ignoreRobotsTxtRules !== true) {
      const robots = await this.#robotsOf(url);
      if (robots && robots.isAllowed(href, ROBOTS_AGENT) === false) return result(VERDICTS.robots);
    }

    let response: Response;
    try {
      response = await this.fetch(href);
    } catch {
      this.#signal.throwIfAborted();
      return result(VERDICTS.network, { fetched: true });
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      let redirect: string | undefined;
      try {
        const target = new URL(response.headers.get('location')!, href);
        target.hash = '';
        if (target.protocol === 'http:' || target.protocol === 'https:') redirect = target.href;
      } catch {
        // an unusable Location: nothing to follow
      }
      return result(VERDICTS.redirect, { fetched: true, ...(redirect ? { redirect } : {}) });
    }
    if (!response.ok) {
      await response.body?.cancel();
      return result(httpVerdict(response.status), { fetched: true });
    }
    const fileType = fileTypeOf(response.headers.get('content-type'), url);
    if (fileType !== 'html') {
      await response.body?.cancel();
      return result(VERDICTS.fileType, { fetched: true });
    }
    let text: string | undefined;
    try {
      text = await readText(response);
    } catch {
      this.#signal.throwIfAborted();
      return result(VERDICTS.network, { fetched: true });
    }
    if (text === undefined) return result(VERDICTS.tooBig, { fetched: true });
    const $ = load(text, { baseURI: href });
    const links = linksOf($, href);
    const applying = matching.filter((i) => applies(this.config.actions[i]!, $, fileType));
    if (applying.length === 0) return result(VERDICTS.noActionApplied, { fetched: true, links });

    const extractions: Extraction[] = [];
    const logs: string[][] = [];
    const contentLength = Buffer.byteLength(text);
    for (const i of applying) {
      const item = this.config.actions[i]!;
      try {
        const output = runExtractor(item.recordExtractor.source, {
          url: new URL(href),
          $,
          contentLength,
          fileType,
          dataSources: {},
        });
        logs.push(...output.logs);
        extractions.push({
          actionIndex: i,
          indexName: targetIndexName(this.config, item),
          records: output.records.map((record, position) => ({
            ...record,
            objectID: (record.objectID as string | undefined) ?? objectIdFor(href, position),
          })),
        });
      } catch (error) {
        if (!(error instanceof ExtractorError)) throw error;
        logs.push(...error.logs, [`actions[${i}]: ${error.message}`]);
        return result(VERDICTS.extractor, { fetched: true, links, logs });
      }
    }
    return result(VERDICTS.success, { fetched: true, links, logs, extractions });
  }
}

/** The body as text, or `undefined` above `MAX_PAGE_BYTES`. */
async function readText(response: Response): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_PAGE_BYTES) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PAGE_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The file type of an answer: `html` for HTML content types, else the content type's subtype (`pdf`,
 * `json`…), else the URL's extension.
 */
function fileTypeOf(contentType: string | null, url: URL): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type) return type.split('/')[1] ?? type;
  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  return extension === 'htm' || extension === undefined ? 'html' : extension;
}

/** `fileTypesToMatch` (default html) and `selectorsToMatch`: one positive selector must match (when any), no `!` selector may. */
function applies(item: CrawlerAction, $: CheerioAPI, fileType: string): boolean {
  if (!(item.fileTypesToMatch ?? ['html']).includes(fileType)) return false;
  const selectors = item.selectorsToMatch ?? [];
  const positive = selectors.filter((selector) => !selector.startsWith('!'));
  const negative = selectors.filter((selector) => selector.startsWith('!')).map((selector) => selector.slice(1));
  if (positive.length > 0 && !positive.some((selector) => $(selector).length > 0)) return false;
  return !negative.some((selector) => $(selector).length > 0);
}

/** The page's `<a href>` links, resolved against the page (and its `<base href>`), http(s) only, without fragment, first seen first. */
function linksOf($: CheerioAPI, pageUrl: string): string[] {
  let base = pageUrl;
  const baseHref = $('base[href]').first().attr('href');
  if (baseHref) {
    try {
      base = new URL(baseHref, pageUrl).href;
    } catch {
      // keep the page URL
    }
  }
  const links = new Set<string>();
  $('a[href]').each((_, element) => {
    const href = $(element).attr('href');
    if (!href) return;
    try {
      const link = new URL(href, base);
      if (link.protocol !== 'http:' && link.protocol !== 'https:') return;
      link.hash = '';
      links.add(link.href);
    } catch {
      // not a URL
    }
  });
  return [...links];
}

export interface CrawlPlan {
  /** URLs to start from, in order. */
  urls: string[];
  /** Follow the links of the fetched pages (a reindex) or not (immediate URL crawling). */
  followLinks: boolean;
  /** Called for every URL once its outcome is known (records to write, statistics line). */
  onUrl(visit: Visit): void;
}

/** Most URLs one crawl records (fetched or skipped), whatever `maxUrls` says. */
const MAX_RECORDED_URLS = 100_000;

/**
 * Runs a crawl to its end: breadth-first from `plan.urls`, at most `maxUrls` fetched pages. Rejects
 * with the abort reason when the signal aborts.
 *
 * @example
 * const tally = await crawl(scope, { urls: config.startUrls, followLinks: true, onUrl: (visit) => save(visit) });
 */
export async function crawl(
  scope: CrawlScope,
  plan: CrawlPlan,
  signal: AbortSignal,
): Promise<{ done: number; failed: number; skipped: number }> {
  const maxUrls = scope.config.maxUrls ?? DEFAULT_MAX_URLS;
  const seen = new Set<string>();
  const queue: string[] = [];
  // Every link is queued and recorded (links no action wants, or off the registered domains, as SKIPPED
  // without a request), so the statistics show what the crawl left out and why.
  const add = (url: string) => {
    if (seen.has(url) || seen.size >= MAX_RECORDED_URLS) return;
    seen.add(url);
    queue.push(url);
  };
  for (const url of plan.urls) add(url);
  const tally = { done: 0, failed: 0, skipped: 0 };
  let fetched = 0;
  while (queue.length > 0) {
    signal.throwIfAborted();
    const url = queue.shift()!;
    if (fetched >= maxUrls) break;
    const visit = await scope.visit(url);
    signal.throwIfAborted();
    if (visit.fetched) fetched += 1;
    tally[visit.status === 'DONE' ? 'done' : visit.status === 'FAILED' ? 'failed' : 'skipped'] += 1;
    plan.onUrl(visit);
    if (plan.followLinks) {
      for (const link of visit.links) add(link);
      if (visit.redirect) add(visit.redirect);
    }
  }
  return tally;
}

/** A visit's statistics line and the objectIDs it produced per live index. */
export function outcomeOf(visit: Visit): UrlOutcome {
  const records: Record<string, string[]> = {};
  for (const extraction of visit.extractions) {
    const list = records[extraction.indexName] ?? [];
    records[extraction.indexName] = list;
    list.push(...extraction.records.map((record) => record.objectID));
  }
  return {
    url: visit.url,
    status: visit.status,
    reason: visit.reason,
    category: visit.category,
    readable: visit.readable,
    records,
  };
}
