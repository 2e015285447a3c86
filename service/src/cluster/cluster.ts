/**
 * `npm run cluster -- --replicas 3 [--demo]`: a throwaway PostgreSQL server (`postgres.ts`) and that many
 * replicas of the service on it (`serve --database …`, each its own process on a free port), then the
 * `hosts` value to paste into `<svc-search hosts="…">`. Ctrl-C (or SIGTERM) stops the replicas and the
 * server and removes the server's directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from './postgres.js';

interface Started {
  id: string;
  url: string;
  child: ChildProcess;
}

/** The CLI next to this file, in the same form (source under tsx, or compiled). */
const CLI = fileURLToPath(new URL(`../cli${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

function startReplica(database: string, id: string, demo: boolean): Promise<Started> {
  const args = [...process.execArgv, CLI, 'serve', '--port', '0', '--database', database, '--replica-id', id];
  if (demo) args.push('--demo');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ id, url: match[1]!, child });
      }
    });
    child.once('exit', (code) => reject(new Error(`replica ${id} exited (${code}) before listening:\n${output}`)));
  });
}

/**
 * @example
 * await runCluster(['--replicas', '3']); // prints hosts="http://127.0.0.1:…,…", runs until Ctrl-C
 */
export async function runCluster(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { replicas: { type: 'string', default: '3' }, demo: { type: 'boolean', default: false } },
  });
  const count = Number(values.replicas);
  if (!Number.isInteger(count) || count < 1 || count > 16)
    throw new Error(`--replicas must be an integer from 1 to 16, got ${values.replicas}`);
  const postgres = await startThrowawayPostgres();
  const database = postgres.createDatabase('svc');
  process.stdout.write(`PostgreSQL: ${database} (directory ${postgres.dir})\n`);
  const started: Started[] = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      started.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) resolve();
            else {
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }
          }),
      ),
    );
    postgres.stop();
    process.stdout.write('stopped: replicas, PostgreSQL, and its directory removed\n');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    // The first replica migrates the database and loads the demo; the others then start together.
    started.push(await startReplica(database, 'r1', values.demo!));
    started.push(
      ...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => startReplica(database, `r${i + 2}`, false)))),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  for (const { id, url, child } of started) {
    process.stdout.write(`replica ${id}: ${url} (pid ${child.pid})\n`);
    child.once('exit', (code, signal) => {
      if (!stopping) process.stdout.write(`replica ${id} exited (${signal ?? code})\n`);
    });
  }
  process.stdout.write(`hosts="${started.map(({ url }) => url).join(',')}"\nCtrl-C stops everything.\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCluster(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
}
