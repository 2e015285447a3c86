/**
 * The crawler configuration (document 3, "Crawler", configuration fields): validation with a 400 naming
 * the field, and the normalised form the crawl reads. Fields the document lists are checked; the few
 * further ones the local crawler honours (`extraUrls`, `maxUrls`, `exclusionPatterns`,
 * `ignoreRobotsTxtRules`) are checked too; any other property is kept as given and ignored (the document:
 * "Any further configuration properties: not shown"). See `docs/notes/crawler.md`.
 */
import vm from 'node:vm';
import { load } from 'cheerio';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import { jsonObject, parse } from '../validation.js';

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

function fail(field: string, message: string): never {
  throw new ServiceError(400, `${field}: ${message}`);
}

/**
 * An absolute http(s) URL, or 400 naming `field`.
 *
 * @example
 * httpUrl('https://example.com/a#top', 'startUrls[0]') // 'https://example.com/a' (the fragment goes)
 */
export function httpUrl(value: unknown, field: string): string {
  const checked = checkUrl(value);
  if (typeof checked !== 'string') fail(field, checked.reason);
  return checked;
}

/** The URL without its fragment, or why it is not an absolute http(s) URL. */
function checkUrl(value: unknown): string | { reason: string } {
  if (typeof value !== 'string' || value === '') return { reason: 'must be an absolute http(s) URL string' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { reason: `${JSON.stringify(value)} is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { reason: `${JSON.stringify(value)} is not an http(s) URL` };
  url.hash = '';
  return url.href;
}

/** An array of non-empty strings (`nonEmpty`: at least one). */
function stringList(options: { nonEmpty?: boolean } = {}) {
  const list = z.array(z.unknown(), { error: '{at}: must be an array of strings' });
  return (options.nonEmpty ? list.min(1, { error: '{at}: must not be empty' }) : list).pipe(
    z.array(
      z.string({ error: '{at}: must be a non-empty string' }).min(1, { error: '{at}: must be a non-empty string' }),
    ),
  );
}

/** A list of absolute http(s) URLs (fragments removed). */
function urlList(options: { nonEmpty?: boolean } = {}) {
  return stringList(options).pipe(
    z.array(
      z.string().transform((url, context) => {
        const checked = checkUrl(url);
        if (typeof checked === 'string') return checked;
        context.addIssue({ code: 'custom', message: `{at}: ${checked.reason}` });
        return z.NEVER;
      }),
    ),
  );
}

/**
 * Compiles a record extractor's source as an expression, without running it; the compiler's message when it
 * is not JavaScript.
 */
function compileError(source: string): string | undefined {
  try {
    new vm.Script(`(${source}\n)`, { filename: 'recordExtractor.js' });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const ACTION = jsonObject('{at}: must be an object').pipe(
  z.looseObject({
    indexName: z
      .string({ error: '{at}: must be a non-empty string' })
      .min(1, { error: '{at}: must be a non-empty string' }),
    pathsToMatch: stringList({ nonEmpty: true }),
    selectorsToMatch: stringList()
      .superRefine((selectors, context) => {
        const empty = load('');
        selectors.forEach((selector, i) => {
          try {
            empty(selector.startsWith('!') ? selector.slice(1) : selector);
          } catch (error) {
            context.addIssue({
              code: 'custom',
              path: [i],
              message: `{at}: ${JSON.stringify(selector)} is not a CSS selector (${(error as Error).message})`,
            });
          }
        });
      })
      .optional(),
    fileTypesToMatch: stringList({ nonEmpty: true })
      .pipe(
        z.array(
          z.string().regex(/^[a-z0-9]+$/i, {
            error: (issue) => `{at}: ${JSON.stringify(issue.input)} is not a file type (html, pdf, …)`,
          }),
        ),
      )
      .optional(),
    recordExtractor: jsonObject('{at}: must be an object { __type: "function", source }').pipe(
      z.looseObject({
        __type: z.literal('function', { error: '{at}: must be "function"' }),
        source: z
          .string({ error: '{at}: must be the code of a function' })
          .refine((source) => source.trim() !== '', { error: '{at}: must be the code of a function' })
          .superRefine((source, context) => {
            const error = compileError(source);
            if (error) context.addIssue({ code: 'custom', message: `{at}: does not compile: ${error}` });
          }),
      }),
    ),
  }),
);

const nonEmptyString = z
  .string({ error: '{at}: must be a non-empty string' })
  .min(1, { error: '{at}: must be a non-empty string' });

/** A configuration (document 3's crawler configuration object); its other properties are kept as given. */
const CONFIG = jsonObject('{at}: must be an object').pipe(
  z.looseObject({
    appId: nonEmptyString,
    apiKey: nonEmptyString,
    indexPrefix: z.string({ error: '{at}: must be a string' }).optional(),
    rateLimit: (() => {
      const error = `{at}: must be a number of requests per second above 0 and at most ${MAX_RATE_LIMIT}`;
      return z.number({ error }).gt(0, { error }).max(MAX_RATE_LIMIT, { error });
    })(),
    startUrls: urlList({ nonEmpty: true }),
    extraUrls: urlList().optional(),
    maxUrls: z
      .number({ error: '{at}: must be a positive integer' })
      .int({ error: '{at}: must be a positive integer' })
      .min(1, { error: '{at}: must be a positive integer' })
      .optional(),
    exclusionPatterns: stringList().optional(),
    ignoreRobotsTxtRules: z.boolean({ error: '{at}: must be a boolean' }).optional(),
    actions: z
      .array(z.unknown(), { error: '{at}: must be a non-empty array of actions' })
      .min(1, { error: '{at}: must be a non-empty array of actions' })
      .pipe(z.array(ACTION)),
  }),
);

/**
 * Validates a whole configuration (appId/apiKey checks against the service are the caller's: they need
 * the key store). Throws `ServiceError(400)` naming the first bad field as `config.<path>`.
 *
 * @example
 * parseConfig({ appId: 'SVCLOCAL', apiKey: 'k', rateLimit: 4, startUrls: ['http://localhost:3000/'], actions: [...] })
 */
export function parseConfig(value: unknown, prefix = 'config'): CrawlerConfig {
  const config = parse(CONFIG, value, { where: prefix }) as unknown as CrawlerConfig;
  if (config.extraUrls === undefined) delete config.extraUrls;
  for (const [i, item] of config.actions.entries()) {
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
