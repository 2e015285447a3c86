/**
 * The options of `createService`, resolved: every default filled in once, so the parts of the service read
 * one typed object instead of each keeping its own copy of an option.
 */
import { DEFAULT_COUNTRY_HEADERS } from './analytics/record.js';
import { DEFAULT_MAX_CUSTOM_ENTRIES } from './dictionaries/dictionaries.js';

/** Default ceiling of the bytes request bodies hold in memory at once: 64 MB (six full 10 MB bodies and change). */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

/** Credentials used everywhere in development: tests, Storybook, `npm start`. */
export const DEV_CREDENTIALS = {
  appId: 'SVCLOCAL',
  adminKey: 'local-admin-key',
  searchKey: 'local-search-key',
  /** HTTP Basic credentials of the Crawler API (document 3): `<crawlerUserId>:<crawlerApiKey>`. */
  crawlerUserId: 'local-crawler',
  crawlerApiKey: 'local-crawler-key',
} as const;

export interface ServiceOptions {
  /** Directory of the database (default `.data/`); `':memory:'` keeps nothing on disk. */
  dataDir?: string;
  /**
   * A PostgreSQL database (`postgres://USER@HOST:PORT/DB`) instead of the SQLite file of `dataDir`. Several
   * services given the same database are replicas of one application (`docs/scaling.md`).
   */
  database?: string;
  /** The replica's name in the database's replica table (default: a random one). PostgreSQL only. */
  replicaId?: string;
  /**
   * One of several worker processes sharing the SQLite file of `dataDir` (`serve --workers N`,
   * `docs/scaling.md`): its name, what to tell when it committed a write (the others' wake-up), and how long
   * a client's write waits for the file's write lock before its 503 (`serve --write-lock-wait-ms`, default
   * 20 s). Its answers carry `X-Service-Worker: <name>`.
   */
  worker?: { id: string; onCommitted?: (seq: number) => void; writeLockWaitMs?: number };
  /**
   * The service is alone in its process (`serve`): the Node adapter then replaces the global `Request` and
   * `Response` with its lighter ones, which send a JSON answer as one string instead of through a web
   * stream. Off by default: a service mounted in another server (a dev server, a test runner) leaves that
   * process's globals alone.
   */
  ownsProcess?: boolean;
  appId?: string;
  adminKey?: string;
  searchKey?: string;
  /** Loads the demo catalogue into the index `products` when it is empty. */
  demo?: boolean;
  /** The service's clock (Unix ms) for Analytics: recorded search times, default dates, rate limit. Default `Date.now`. */
  now?: () => number;
  /**
   * Custom entries one dictionary may hold before a dictionary batch answers 403 (the document's quota,
   * whose size it does not give); default 100,000.
   */
  maxCustomDictionaryEntries?: number;
  /** The dedicated key of the Usage API (document 3, Authentication); the admin key is always accepted. */
  usageKey?: string;
  /** The dedicated key of the Monitoring API (document 3, Authentication); the admin key is always accepted. */
  monitoringKey?: string;
  /** Crawler API (document 3): the crawler user id of HTTP Basic authentication (default `local-crawler`). */
  crawlerUserId?: string;
  /** Crawler API: the crawler API key (default `local-crawler-key`). It lets its holder run code on this machine (record extractors). */
  crawlerApiKey?: string;
  /** Crawler API: registered (verified) domains besides `localhost`, `127.0.0.1`, `[::1]`; `*.example.com` for subdomains. */
  crawlerDomains?: string[];
  /**
   * The request header a proxy in front of the service sets with the client's country (ISO 3166-1 alpha-2),
   * read for Analytics' `/2/countries`; default `CF-IPCountry`, else `X-Country-Code`.
   */
  countryHeader?: string;
  /**
   * The bytes request bodies may hold in memory at once, across every connection (default 64 MB): a body
   * that would go above it is refused with a 503 (`docs/notes/service.md`, "Errors and hostile input").
   */
  maxBodyBytesInFlight?: number;
}

export interface ServiceConfig {
  dataDir: string;
  /** The PostgreSQL database, when the service uses one (else SQLite in `dataDir`). */
  database: string | undefined;
  appId: string;
  adminKey: string;
  searchKey: string;
  usageKey: string | undefined;
  monitoringKey: string | undefined;
  /** Lower-case header names read for a request's country, in order. */
  countryHeaders: readonly string[];
  maxCustomDictionaryEntries: number;
  /** The ceiling of the bytes request bodies hold in memory at once (`http/body-budget.ts`). */
  maxBodyBytesInFlight: number;
  crawler: { userId: string; apiKey: string; domains: string[] };
}

/**
 * @example
 * resolveConfig({ dataDir: ':memory:' }).appId // 'SVCLOCAL'
 */
export function resolveConfig(options: ServiceOptions): ServiceConfig {
  const config: ServiceConfig = {
    dataDir: options.dataDir ?? '.data',
    database: options.database,
    appId: options.appId ?? DEV_CREDENTIALS.appId,
    adminKey: options.adminKey ?? DEV_CREDENTIALS.adminKey,
    searchKey: options.searchKey ?? DEV_CREDENTIALS.searchKey,
    usageKey: options.usageKey,
    monitoringKey: options.monitoringKey,
    countryHeaders: options.countryHeader ? [options.countryHeader.toLowerCase()] : DEFAULT_COUNTRY_HEADERS,
    maxCustomDictionaryEntries: options.maxCustomDictionaryEntries ?? DEFAULT_MAX_CUSTOM_ENTRIES,
    maxBodyBytesInFlight: options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
    crawler: {
      userId: options.crawlerUserId ?? DEV_CREDENTIALS.crawlerUserId,
      apiKey: options.crawlerApiKey ?? DEV_CREDENTIALS.crawlerApiKey,
      domains: [...(options.crawlerDomains ?? [])],
    },
  };
  if (!Number.isInteger(config.maxBodyBytesInFlight) || config.maxBodyBytesInFlight < 1)
    throw new Error(`maxBodyBytesInFlight must be a positive integer, got ${config.maxBodyBytesInFlight}`);
  if (config.adminKey === config.searchKey) throw new Error('The admin key and the search key must differ');
  if (config.database !== undefined && !/^postgres(ql)?:\/\//.test(config.database))
    throw new Error(`database must be a postgres:// URL, got ${JSON.stringify(config.database)}`);
  return config;
}
