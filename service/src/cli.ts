/**
 * `svc-search-service serve [--port 8787] [--host 127.0.0.1] [--data-dir DIR | --database URL] [--replica-id NAME] [--workers N] [--app-id ID] [--admin-key K]
 * [--search-key K] [--usage-key K] [--monitoring-key K] [--country-header NAME] [--crawler-user-id U]
 * [--crawler-api-key K] [--crawler-domain HOST]… [--max-body-bytes-in-flight N] [--write-lock-wait-ms MS] [--demo]`: starts the local service and prints `listening on
 * http://HOST:PORT` once it accepts requests, then the application id, the keys and the crawler credentials.
 * With `--workers N` (N > 1, or `auto`: one per core) N processes share the port and the SQLite file
 * (`cluster/workers.ts`); it prints `listening on …` once every worker listens, then each worker's pid.
 *
 * `svc-search-service export --index NAME --out FILE.svcidx [--data-dir DIR] [--demo] [--recommendations N]
 * [--structures auto|always|never]`: writes an index (with its replicas, rules, synonyms, Recommend answers and,
 * from 10,000 records or when asked, the engine's built structures) for `svc-search/local`.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runPrimary, workerRole } from './cluster/workers.js';
import { DEFAULT_MAX_BODY_BYTES_IN_FLIGHT } from './config.js';
import { type ExportOptions, exportToFile, type StructuresChoice } from './export.js';
import { createService, DEV_CREDENTIALS, type Service } from './index.js';

/** The longest `--write-lock-wait-ms` (ten minutes): a client waiting longer has given up long before. */
const MAX_WRITE_LOCK_WAIT_MS = 600_000;

const USAGE = `Usage: svc-search-service serve [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--app-id ID]
                                [--database postgres://USER@HOST:PORT/DB] [--replica-id NAME]
                                [--workers N|auto]
                                [--admin-key K] [--search-key K] [--usage-key K] [--monitoring-key K]
                                [--country-header NAME] [--crawler-user-id U] [--crawler-api-key K]
                                [--crawler-domain HOST]... [--max-body-bytes-in-flight N]
                                [--write-lock-wait-ms MS] [--demo]
       svc-search-service export --index NAME --out FILE.svcidx [--data-dir DIR] [--demo]
                                 [--recommendations N] [--structures auto|always|never]

  --max-body-bytes-in-flight N  bytes the bodies of requests being received may hold in memory at once, for
                                the whole service (default 67108864, 64 MB); with --workers, each worker
                                gets floor(N / workers) of it. A body that would go above is a 503.
  --write-lock-wait-ms MS       with --workers, how long a write waits for SQLite's write lock while another
                                worker holds it (searches go on meanwhile) before it is refused with a 503,
                                nothing of it written (default 20000, 20 s; from 1 to 600000).`;

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of SQLite (`--database`, else `SVC_DATABASE_URL`). */
  database?: string;
  replicaId?: string;
  /** Processes sharing the port and the SQLite file (default 1: this process serves alone). */
  workers: number;
  appId: string;
  adminKey: string;
  searchKey: string;
  /** Document 3's dedicated keys (none by default). */
  usageKey?: string;
  monitoringKey?: string;
  /** The header a proxy sets with the client's country (default CF-IPCountry, else X-Country-Code). */
  countryHeader?: string;
  crawlerUserId: string;
  crawlerApiKey: string;
  /** Registered crawler domains besides the loopback hosts (`--crawler-domain`, repeatable). */
  crawlerDomains: string[];
  /**
   * The bytes request bodies may hold in memory at once, the whole service's (`--max-body-bytes-in-flight`,
   * default 64 MB): with workers, each has its share ({@link bodyBudgetOfWorker}).
   */
  maxBodyBytesInFlight?: number;
  /**
   * With workers, how long a client's write waits for SQLite's write lock before its 503
   * (`--write-lock-wait-ms`; default `WRITE_LOCK_WAIT_MS`, 20 s).
   */
  writeLockWaitMs?: number;
  demo: boolean;
}

/**
 * Parses the arguments after the command name.
 *
 * @example
 * parseServeArgs(['--port', '0', '--demo']) // { port: 0, host: '127.0.0.1', …, demo: true }
 */
export function parseServeArgs(args: string[]): ServeOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: '.data' },
      database: { type: 'string' },
      'replica-id': { type: 'string' },
      workers: { type: 'string', default: '1' },
      'app-id': { type: 'string', default: DEV_CREDENTIALS.appId },
      'admin-key': { type: 'string', default: DEV_CREDENTIALS.adminKey },
      'search-key': { type: 'string', default: DEV_CREDENTIALS.searchKey },
      'usage-key': { type: 'string' },
      'monitoring-key': { type: 'string' },
      'country-header': { type: 'string' },
      'crawler-user-id': { type: 'string', default: DEV_CREDENTIALS.crawlerUserId },
      'crawler-api-key': { type: 'string', default: DEV_CREDENTIALS.crawlerApiKey },
      'crawler-domain': { type: 'string', multiple: true, default: [] },
      'max-body-bytes-in-flight': { type: 'string' },
      'write-lock-wait-ms': { type: 'string' },
      demo: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be an integer from 0 to 65535, got ${values.port}`);
  const inFlight = values['max-body-bytes-in-flight'];
  if (inFlight !== undefined && !/^[1-9]\d*$/.test(inFlight))
    throw new Error(`--max-body-bytes-in-flight must be a positive integer (bytes), got ${inFlight}`);
  const database = values.database ?? process.env.SVC_DATABASE_URL;
  const workers = values.workers === 'auto' ? availableParallelism() : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new Error(`--workers must be an integer from 1 to 64 or auto, got ${values.workers}`);
  if (workers > 1 && database)
    throw new Error('--workers shares a SQLite file; with --database, start replicas instead (npm run cluster)');
  if (inFlight !== undefined && Number(inFlight) < workers)
    throw new Error(`--max-body-bytes-in-flight is shared by the ${workers} workers: give at least ${workers} bytes`);
  if (workers > 1 && values['data-dir'] === ':memory:')
    throw new Error('--workers shares a SQLite file: give a --data-dir, not :memory:');
  const lockWait = values['write-lock-wait-ms'];
  if (lockWait !== undefined && (!/^[1-9]\d*$/.test(lockWait) || Number(lockWait) > MAX_WRITE_LOCK_WAIT_MS))
    throw new Error(
      `--write-lock-wait-ms must be an integer from 1 to ${MAX_WRITE_LOCK_WAIT_MS} (ms), got ${lockWait}`,
    );
  // One process takes SQLite's lock with its busy wait (no other process of the service competes for it).
  if (lockWait !== undefined && workers === 1 && values.workers !== 'auto')
    throw new Error('--write-lock-wait-ms is the wait of --workers N (N > 1): give --workers');
  return {
    port,
    host: values.host!,
    dataDir: values['data-dir']!,
    ...(database ? { database } : {}),
    ...(values['replica-id'] ? { replicaId: values['replica-id'] } : {}),
    workers,
    appId: values['app-id']!,
    adminKey: values['admin-key']!,
    searchKey: values['search-key']!,
    ...(values['usage-key'] ? { usageKey: values['usage-key'] } : {}),
    ...(values['monitoring-key'] ? { monitoringKey: values['monitoring-key'] } : {}),
    ...(values['country-header'] ? { countryHeader: values['country-header'] } : {}),
    crawlerUserId: values['crawler-user-id']!,
    crawlerApiKey: values['crawler-api-key']!,
    crawlerDomains: values['crawler-domain']!,
    ...(inFlight ? { maxBodyBytesInFlight: Number(inFlight) } : {}),
    ...(lockWait ? { writeLockWaitMs: Number(lockWait) } : {}),
    demo: values.demo!,
  };
}

/**
 * Parses the arguments of `export`.
 *
 * @example
 * parseExportArgs(['--index', 'products', '--out', 'products.svcidx']) // { options: { index: 'products', … }, out }
 */
export function parseExportArgs(args: string[]): { options: ExportOptions; out: string } {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      index: { type: 'string' },
      out: { type: 'string' },
      'data-dir': { type: 'string', default: '.data' },
      demo: { type: 'boolean', default: false },
      recommendations: { type: 'string', default: '10' },
      structures: { type: 'string', default: 'auto' },
    },
  });
  if (!values.index) throw new Error('--index is required');
  if (!values.out) throw new Error('--out is required');
  const recommendations = Number(values.recommendations);
  if (!Number.isInteger(recommendations) || recommendations < 0 || recommendations > 1000)
    throw new Error(`--recommendations must be an integer from 0 to 1000, got ${values.recommendations}`);
  const structures = values.structures as StructuresChoice;
  if (!['auto', 'always', 'never'].includes(structures))
    throw new Error(`--structures must be auto, always or never, got ${values.structures}`);
  return {
    options: { index: values.index, dataDir: values['data-dir']!, demo: values.demo!, recommendations, structures },
    out: values.out,
  };
}

/**
 * The body budget of one worker of `--workers N`: the service's budget split evenly, floor(total / N), so the
 * bodies held by all the workers together stay within the budget the option sets (a worker cannot lend its
 * unused share to another: a body over its share is a 503 there, retried by the client, possibly on another).
 */
function bodyBudgetOfWorker(options: ServeOptions): number {
  return Math.floor((options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT) / options.workers);
}

/** Starts the service; resolves once it listens. */
export async function serve(options: ServeOptions): Promise<{ service: Service; url: string }> {
  // In a worker of `--workers N`: its name and demo flag come from the primary, which does the printing.
  const worker = workerRole();
  const service = await createService({
    dataDir: options.dataDir,
    database: options.database,
    replicaId: options.replicaId,
    appId: options.appId,
    adminKey: options.adminKey,
    searchKey: options.searchKey,
    usageKey: options.usageKey,
    monitoringKey: options.monitoringKey,
    countryHeader: options.countryHeader,
    crawlerUserId: options.crawlerUserId,
    crawlerApiKey: options.crawlerApiKey,
    crawlerDomains: options.crawlerDomains,
    maxBodyBytesInFlight: worker ? bodyBudgetOfWorker(options) : options.maxBodyBytesInFlight,
    demo: worker ? worker.demo : options.demo,
    ownsProcess: true,
    ...(worker
      ? {
          worker: {
            id: worker.id,
            onCommitted: worker.onCommitted,
            ...(options.writeLockWaitMs ? { writeLockWaitMs: options.writeLockWaitMs } : {}),
          },
        }
      : {}),
  });
  const { url } = await service.listen(options.port, options.host);
  if (worker) {
    const replication = service.services.storage.replication!;
    worker.onOthersCommitted(() => replication.wake());
    worker.listening(url);
    return { service, url };
  }
  process.stdout.write(
    `listening on ${url}\n` +
      (options.database ? `storage: PostgreSQL, replica ${service.services.storage.replication?.id}\n` : '') +
      `application id: ${options.appId}\nadmin key: ${options.adminKey}\nsearch key: ${options.searchKey}\n` +
      (options.usageKey ? `usage key: ${options.usageKey}\n` : '') +
      (options.monitoringKey ? `monitoring key: ${options.monitoringKey}\n` : '') +
      `crawler user id: ${options.crawlerUserId}\ncrawler api key: ${options.crawlerApiKey}\n`,
  );
  return { service, url };
}

/**
 * Entry point of the CLI (`bin/svc-search-service.js` runs the compiled file, `npm run serve` the source).
 *
 * @example
 * await main(['serve', '--port', '8787', '--demo']);
 */
export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'export') {
    let parsed: ReturnType<typeof parseExportArgs>;
    try {
      parsed = parseExportArgs(rest);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    const result = await exportToFile(parsed.options, parsed.out);
    process.stdout.write(
      `wrote ${parsed.out}: ${result.bytes.length} bytes, ${result.records} records, indices ${result.indices.join(', ')}\n`,
    );
    return;
  }
  if (command !== 'serve') {
    process.stderr.write(`${command ? `Unknown command: ${command}\n` : ''}${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  let options: ServeOptions;
  try {
    options = parseServeArgs(rest);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (options.workers > 1 && !workerRole()) {
    await runPrimary({ count: options.workers, dataDir: options.dataDir, demo: options.demo });
    return;
  }
  const { service } = await serve(options);
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
