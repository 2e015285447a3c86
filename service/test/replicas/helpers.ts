/**
 * Helpers of the replica tests: a throwaway PostgreSQL server (a missing PostgreSQL fails the test: there is
 * no skip) and replicas as child processes (`svc-search-service serve --database …`), so a test can kill one
 * with SIGKILL as a crash would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../src/cluster/postgres.js';
import { caller } from '../service-helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface Replica {
  readonly id: string;
  readonly url: string;
  readonly process: ChildProcess;
  call: ReturnType<typeof caller>;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Kills the process with SIGKILL (no clean-up runs) and waits for its end. */
  kill(): Promise<void>;
  /** SIGTERM: the service closes and leaves the replica table. */
  stop(): Promise<void>;
}

let shared: ThrowawayPostgres | undefined;
let databases = 0;

/** A new, empty database on this test process's throwaway PostgreSQL server (started on first use). */
export async function newDatabase(): Promise<string> {
  shared ??= await startThrowawayPostgres({ fsync: false });
  databases += 1;
  return shared.createDatabase(`replicas_${process.pid}_${databases}`);
}

/** Stops the throwaway server (end of the test file). */
export function stopPostgres(): void {
  shared?.stop();
  shared = undefined;
}

/** Starts a replica on `database`; resolves once it listens. */
export function startReplica(database: string, id: string, extra: string[] = []): Promise<Replica> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'serve', '--port', '0', '--database', database, '--replica-id', id, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stdout!.on('data', (more: Buffer) => {
        output += more.toString();
      });
      const url = match[1]!;
      resolve({
        id,
        url,
        process: child,
        call: caller(url),
        output: () => output,
        async kill() {
          child.kill('SIGKILL');
          await ended;
        },
        async stop() {
          child.kill('SIGTERM');
          await ended;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`Replica ${id} exited (${code}) before listening:\n${output}`)));
  });
}

/** Waits until the task is published, asking `replica` (the task status is the same on every replica). */
export async function waitForTask(replica: Replica, taskID: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await replica.call('GET', `/1/task/${taskID}`);
    if (answer.status !== 200) throw new Error(`task ${taskID}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.body.status === 'published') return;
    if (Date.now() > deadline) throw new Error(`task ${taskID} not published after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Which of `objectIDs` the replica has in `indexName` (one getObjects call per 1,000). */
export async function present(replica: Replica, indexName: string, objectIDs: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < objectIDs.length; start += 1000) {
    const requests = objectIDs.slice(start, start + 1000).map((objectID) => ({ indexName, objectID }));
    const answer = await replica.call('POST', '/1/indexes/*/objects', { requests });
    if (answer.status !== 200) throw new Error(`getObjects: ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const result of answer.body.results as Array<{ objectID: string } | null>)
      if (result) found.add(result.objectID);
  }
  return found;
}
