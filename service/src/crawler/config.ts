/**
 * The crawler configuration (document 3, "Crawler", configuration fields): validation with a 400 naming
 * the field, and the normalised form the crawl reads. Fields the document lists are checked; the few
 * further ones the local crawler honours (`extraUrls`, `maxUrls`, `exclusionPatterns`,
 * `ignoreRobotsTxtRules`) are checked too; any other property is kept as given and ignored (the document:
 * "Any further configuration properties: not shown"). See `docs/notes/crawler.md`.
 */
import vm from 'node:vm';
import { load } from 'cheerio';
import { HttpError } from '../http/errors.js';
import { validateIndexName } from '../storage/catalog.js';

export interface RecordExtractor {
  __type: 'function';
  source: string;
}

export interface CrawlerAction {
  indexName: string;
  pathsToMatch: string[];
  /** CSS selectors; a leading `!` excludes. Default: every page. */
  selectorsToMatch?: string[];
  /** Default `['html']`. */
  fileTypesToMatch?: string[];
  recordExtractor: RecordExtractor;
  [field: string]: unknown;
}

export interface CrawlerConfig {
  appId: string;
  apiKey: string;
  indexPrefix?: string;
  /** Requests per second to the crawled sites (robots.txt included). */
  rateLimit: number;
  startUrls: string[];
  extraUrls?: string[];
  actions: CrawlerAction[];
  /** Most URLs one reindex fetches (default `DEFAULT_MAX_URLS`). */
  maxUrls?: number;
  /** Glob patterns of URLs never crawled. */
  exclusionPatterns?: string[];
  ignoreRobotsTxtRules?: boolean;
  [field: string]: unknown;
}

export const DEFAULT_MAX_URLS = 10_000;
export const MAX_RATE_LIMIT = 100;
/** File types the local crawler can extract (pages are parsed as HTML). */
export const SUPPORTED_FILE_TYPES = ['html'];

function fail(field: string, message: string): never {
  throw new HttpError(400, `${field}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An absolute http(s) URL, or 400 naming `field`.
 *
 * @example
 * httpUrl('https://example.com/a#top', 'startUrls[0]') // 'https://example.com/a' (the fragment goes)
 */
export function httpUrl(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') fail(field, 'must be an absolute http(s) URL string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(field, `${JSON.stringify(value)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(field, `${JSON.stringify(value)} is not an http(s) URL`);
  url.hash = '';
  return url.href;
}

function stringList(value: unknown, field: string, options: { nonEmpty?: boolean; max?: number } = {}): string[] {
  if (!Array.isArray(value)) fail(field, 'must be an array of strings');
  if (options.nonEmpty && value.length === 0) fail(field, 'must not be empty');
  if (options.max !== undefined && value.length > options.max) fail(field, `at most ${options.max} items`);
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item === '') fail(`${field}[${i}]`, 'must be a non-empty string');
  });
  return value as string[];
}

/**
 * Compiles a record extractor's source as an expression, without running it; 400 naming `field` when it
 * is not JavaScript.
 */
function checkSource(source: string, field: string): void {
  try {
    new vm.Script(`(${source}\n)`, { filename: 'recordExtractor.js' });
  } catch (error) {
    fail(field, `does not compile: ${(error as Error).message}`);
  }
}

function action(value: unknown, field: string): CrawlerAction {
  if (!isObject(value)) fail(field, 'must be an object');
  if (typeof value.indexName !== 'string' || value.indexName === '')
    fail(`${field}.indexName`, 'must be a non-empty string');
  const pathsToMatch = stringList(value.pathsToMatch, `${field}.pathsToMatch`, { nonEmpty: true });
  if (value.selectorsToMatch !== undefined) {
    const empty = load('');
    stringList(value.selectorsToMatch, `${field}.selectorsToMatch`).forEach((selector, i) => {
      try {
        empty(selector.startsWith('!') ? selector.slice(1) : selector);
      } catch (error) {
        fail(
          `${field}.selectorsToMatch[${i}]`,
          `${JSON.stringify(selector)} is not a CSS selector (${(error as Error).message})`,
        );
      }
    });
  }
  if (value.fileTypesToMatch !== undefined) {
    const types = stringList(value.fileTypesToMatch, `${field}.fileTypesToMatch`, { nonEmpty: true });
    types.forEach((type, i) => {
      if (!/^[a-z0-9]+$/i.test(type))
        fail(`${field}.fileTypesToMatch[${i}]`, `${JSON.stringify(type)} is not a file type (html, pdf, …)`);
    });
  }
  const extractor = value.recordExtractor;
  if (!isObject(extractor)) fail(`${field}.recordExtractor`, 'must be an object { __type: "function", source }');
  if (extractor.__type !== 'function') fail(`${field}.recordExtractor.__type`, 'must be "function"');
  if (typeof extractor.source !== 'string' || extractor.source.trim() === '')
    fail(`${field}.recordExtractor.source`, 'must be the code of a function');
  checkSource(extractor.source, `${field}.recordExtractor.source`);
  return { ...value, pathsToMatch } as CrawlerAction;
}

/**
 * Validates a whole configuration (appId/apiKey checks against the service are the caller's: they need
 * the key store). Throws `HttpError(400)` naming the first bad field as `config.<path>`.
 *
 * @example
 * parseConfig({ appId: 'SVCLOCAL', apiKey: 'k', rateLimit: 4, startUrls: ['http://localhost:3000/'], actions: [...] })
 */
export function parseConfig(value: unknown, prefix = 'config'): CrawlerConfig {
  if (!isObject(value)) fail(prefix, 'must be an object');
  if (typeof value.appId !== 'string' || value.appId === '') fail(`${prefix}.appId`, 'must be a non-empty string');
  if (typeof value.apiKey !== 'string' || value.apiKey === '') fail(`${prefix}.apiKey`, 'must be a non-empty string');
  if (value.indexPrefix !== undefined && typeof value.indexPrefix !== 'string')
    fail(`${prefix}.indexPrefix`, 'must be a string');
  const rateLimit = value.rateLimit;
  if (typeof rateLimit !== 'number' || !Number.isFinite(rateLimit) || rateLimit <= 0 || rateLimit > MAX_RATE_LIMIT) {
    fail(`${prefix}.rateLimit`, `must be a number of requests per second above 0 and at most ${MAX_RATE_LIMIT}`);
  }
  const startUrls = stringList(value.startUrls, `${prefix}.startUrls`, { nonEmpty: true }).map((url, i) =>
    httpUrl(url, `${prefix}.startUrls[${i}]`),
  );
  const extraUrls =
    value.extraUrls === undefined
      ? undefined
      : stringList(value.extraUrls, `${prefix}.extraUrls`).map((url, i) => httpUrl(url, `${prefix}.extraUrls[${i}]`));
  if (value.maxUrls !== undefined && (!Number.isInteger(value.maxUrls) || (value.maxUrls as number) < 1)) {
    fail(`${prefix}.maxUrls`, 'must be a positive integer');
  }
  if (value.exclusionPatterns !== undefined) stringList(value.exclusionPatterns, `${prefix}.exclusionPatterns`);
  if (value.ignoreRobotsTxtRules !== undefined && typeof value.ignoreRobotsTxtRules !== 'boolean') {
    fail(`${prefix}.ignoreRobotsTxtRules`, 'must be a boolean');
  }
  if (!Array.isArray(value.actions) || value.actions.length === 0)
    fail(`${prefix}.actions`, 'must be a non-empty array of actions');
  const actions = value.actions.map((item, i) => action(item, `${prefix}.actions[${i}]`));
  const config: CrawlerConfig = {
    ...value,
    appId: value.appId,
    apiKey: value.apiKey,
    rateLimit,
    startUrls,
    actions,
  } as CrawlerConfig;
  if (extraUrls) config.extraUrls = extraUrls;
  for (const [i, item] of actions.entries()) {
    try {
      validateIndexName(targetIndexName(config, item));
    } catch (error) {
      fail(`${prefix}.actions[${i}].indexName`, (error as Error).message);
    }
  }
  return config;
}

/**
 * The live index of an action: `indexPrefix + indexName`.
 *
 * @example
 * targetIndexName({ indexPrefix: 'crawler_' } as CrawlerConfig, { indexName: 'docs' } as CrawlerAction) // 'crawler_docs'
 */
export function targetIndexName(config: CrawlerConfig, item: CrawlerAction): string {
  return `${config.indexPrefix ?? ''}${item.indexName}`;
}

/**
 * The temporary index a reindex of `liveName` fills before it replaces the live one.
 *
 * @example
 * temporaryIndexName('crawler_docs') // 'crawler_docs.tmp'
 */
export function temporaryIndexName(liveName: string): string {
  return `${liveName}.tmp`;
}

/** The distinct live indices of a configuration, in the order of the actions. */
export function liveIndices(config: CrawlerConfig): string[] {
  return [...new Set(config.actions.map((item) => targetIndexName(config, item)))];
}
