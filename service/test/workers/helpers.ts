/**
 * Helpers of the worker tests: `svc-search-service serve --workers N` as a child process on a fresh data
 * directory, and requests on a new connection each (`agent: false`), so that the cluster's round robin hands
 * consecutive requests to the workers in turn; every answer says which worker gave it (`X-Service-Worker`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface Answer {
  status: number;
  body: any;
  /** The worker that answered. */
  worker: string;
}

export interface Workers {
  readonly url: string;
  readonly dataDir: string;
  readonly process: ChildProcess;
  /** Every line the primary printed so far. */
  output(): string;
  /** The pid of each worker, by name, as the primary printed it last. */
  pids(): Map<string, number>;
  /** Waits until the primary printed `text` (a worker restarted, …). */
  printed(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM to the primary: it stops the workers; then the data directory is removed. */
  stop(): Promise<void>;
}

/**
 * Starts `count` workers on a new data directory (`extra`: more `serve` options; `preload`: modules the primary
 * and the workers import first, as `--import`); resolves once every one listens.
 */
export function startWorkers(count: number, extra: string[] = [], preload: string[] = []): Promise<Workers> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-workers-'));
  const imports = preload.flatMap((module) => ['--import', module]);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ...imports,
      CLI,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--workers',
      String(count),
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const printed = (text: string | RegExp, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const found = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
      if (found()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`not printed within ${timeoutMs} ms: ${text}\n${output}`));
      }, timeoutMs);
      const check = () => {
        if (!found()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve --workers exited (${code}) before listening:\n${output}`)));
    printed(new RegExp(`worker w${count}: pid \\d+`), 60_000).then(() => {
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      resolve({
        url,
        dataDir,
        process: child,
        output: () => output,
        pids() {
          const pids = new Map<string, number>();
          for (const match of output.matchAll(/worker (w\d+): pid (\d+)/g)) pids.set(match[1]!, Number(match[2]));
          return pids;
        },
        printed,
        async stop() {
          child.kill('SIGTERM');
          await ended;
          rmSync(dataDir, { recursive: true, force: true });
        },
      });
    }, reject);
  });
}

/** One request on its own connection, with the admin key. */
export function ask(url: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const target = new URL(path, url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method,
        agent: false,
        headers: {
          'X-Service-Application-Id': 'SVCLOCAL',
          'X-Service-API-Key': 'local-admin-key',
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            body: text ? JSON.parse(text) : undefined,
            worker: String(response.headers['x-service-worker'] ?? ''),
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * Sends the same request until every one of `workers` answered it (new connections go to the workers in
 * turn); the answers, by worker.
 */
export async function askEach(
  url: string,
  workers: string[],
  method: string,
  path: string,
  body?: unknown,
): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  for (let attempt = 0; attempt < 20 * workers.length && answers.size < workers.length; attempt++) {
    const answer = await ask(url, method, path, body);
    if (workers.includes(answer.worker)) answers.set(answer.worker, answer);
  }
  if (answers.size < workers.length)
    throw new Error(`only ${[...answers.keys()].join(', ')} answered ${method} ${path}`);
  return answers;
}

/** Waits until the task is published (asked of whichever worker takes the request). */
export async function waitForTask(url: string, taskID: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await ask(url, 'GET', `/1/task/${taskID}`);
    if (answer.status !== 200) throw new Error(`task ${taskID}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.status === 'published') return;
    if (Date.now() > deadline) throw new Error(`task ${taskID} not published after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Takes the file's write lock on `db` (a connection with busy timeout 0): a worker may hold it for a moment (a
 * heartbeat, a log batch, the log's pruning), so a busy try is repeated on a timer, for up to 10 s.
 *
 * @example
 * await takeWriteLock(db); // … the workers meet SQLITE_BUSY until db.exec('ROLLBACK')
 */
export async function takeWriteLock(db: Database.Database): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
