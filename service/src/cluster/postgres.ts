/**
 * A throwaway PostgreSQL server for development and tests: `initdb` into a new temporary directory, the
 * server on a free loopback port with its socket in that directory, removed when stopped (or when the
 * process exits). It runs Debian's binaries (`/usr/lib/postgresql/<version>/bin`, or `SVC_POSTGRES_BIN`, or
 * `initdb` on the PATH); as root, as the `postgres` user (`runuser -u postgres --`, PostgreSQL refuses to
 * run as root) in a directory that user owns.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  /** The server's directory (data, socket, log). */
  readonly dir: string;
  readonly port: number;
  /** `postgres://svc@127.0.0.1:PORT/DB` (trust authentication on loopback). */
  url(database?: string): string;
  /** Creates a database (when missing) and returns its URL. */
  createDatabase(name: string): string;
  /** Stops the server and removes its directory. */
  stop(): void;
}

const USER = 'svc';

/** Where the PostgreSQL binaries are, or `undefined` when this machine has none. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.SVC_POSTGRES_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? join(found, '..') : undefined;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * @example
 * const postgres = await startThrowawayPostgres();
 * const url = postgres.createDatabase('svc'); // postgres://svc@127.0.0.1:54321/svc
 * postgres.stop();
 */
export async function startThrowawayPostgres(options: { fsync?: boolean } = {}): Promise<ThrowawayPostgres> {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL was not found (no /usr/lib/postgresql/*/bin/initdb, SVC_POSTGRES_BIN or initdb on the PATH): install Debian's postgresql package (apt-get install postgresql)",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'svc-postgres-'));
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    return execFileSync(file as string, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  let running = false;
  const stop = () => {
    if (running) {
      running = false;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);
  try {
    run('initdb', ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const settings = [
      `-k ${dir}`,
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=200',
      `-c fsync=${options.fsync === false ? 'off' : 'on'}`,
    ];
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings.join(' '), '-w', 'start']);
    running = true;
  } catch (error) {
    stop();
    throw error;
  }
  const url = (database = 'postgres') => `postgres://${USER}@127.0.0.1:${port}/${database}`;
  return {
    dir,
    port,
    url,
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      const exists = run('psql', [
        '-h',
        dir,
        '-p',
        String(port),
        '-U',
        USER,
        '-d',
        'postgres',
        '-tAc',
        `SELECT 1 FROM pg_database WHERE datname = '${name}'`,
      ]);
      if (exists.trim() !== '1') run('createdb', ['-h', dir, '-p', String(port), '-U', USER, name]);
      return url(name);
    },
    stop,
  };
}
