/**
 * `serve --workers N`: the service on N processes of one machine sharing one port and one SQLite file
 * (`node:cluster`). The primary process serves nothing itself: it brings the database's schema up to date,
 * starts the workers one after the other (the first one alone loads the demo), relays each worker's "I
 * committed entry n" to the others (their wake-up to read the log, `storage/sqlite/replication.ts`), and
 * starts a replacement, under the same name and in the same role (the first one keeps the demo history
 * recent), for a worker that exits. Node's cluster module hands each new connection to the next worker (round
 * robin), so concurrent clients spread over the workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { prepareDataDir } from '../index.js';

/** Messages between the primary and the workers (over the cluster's IPC channel). */
type WorkerMessage =
  | { svc: 'listening'; url: string }
  | { svc: 'committed'; seq: number }
  | { svc: 'log'; seq: number };

interface Slot {
  id: string;
  /** Whether it loads the demo and keeps its history recent: the first worker's role, kept across restarts. */
  demo: boolean;
  worker: Worker;
}

function isMessage(value: unknown): value is WorkerMessage {
  return typeof value === 'object' && value !== null && 'svc' in value;
}

/** Forks the worker `id`; resolves with its URL once it listens, rejects if it exits first. */
function fork(id: string, demo: boolean): Promise<{ worker: Worker; url: string }> {
  const worker = cluster.fork({ SVC_WORKER_ID: id, SVC_WORKER_DEMO: demo ? '1' : '' });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`worker ${id} exited (${signal ?? code}) before listening`));
    worker.once('exit', onExit);
    worker.on('message', (message: unknown) => {
      if (isMessage(message) && message.svc === 'listening') {
        worker.off('exit', onExit);
        resolve({ worker, url: message.url });
      }
    });
  });
}

/**
 * The primary: starts `count` workers and keeps that many running until SIGINT or SIGTERM.
 *
 * @example
 * await runPrimary({ count: 2, dataDir: '.data', demo: true }); // prints "listening on http://…" once all listen
 */
export async function runPrimary(options: { count: number; dataDir: string; demo: boolean }): Promise<void> {
  // The schema is brought up to date once, here, before any worker opens the file; if another process holds
  // the file's write lock, each step waits for it on a timer (up to a minute) instead of failing the start.
  await prepareDataDir(options.dataDir, {
    onWait: () => process.stdout.write('schema: waiting for the database write lock another process holds\n'),
  });
  const slots: Slot[] = [];
  let stopping = false;

  const relay = (from: Worker, message: unknown) => {
    if (!isMessage(message) || message.svc !== 'committed') return;
    for (const slot of slots) {
      if (slot.worker !== from && slot.worker.isConnected()) slot.worker.send({ svc: 'log', seq: message.seq });
    }
  };
  const watch = (slot: Slot) => {
    slot.worker.on('message', (message: unknown) => relay(slot.worker, message));
    slot.worker.once('exit', (code, signal) => {
      if (stopping) return;
      process.stdout.write(`worker ${slot.id} exited (${signal ?? code}), starting a replacement\n`);
      // Not counted for publishing until it caught up; the others serve meanwhile.
      setTimeout(() => void replace(slot), 100).unref();
    });
  };
  const replace = async (slot: Slot) => {
    if (stopping) return;
    try {
      const { worker } = await fork(slot.id, slot.demo);
      slot.worker = worker;
      watch(slot);
      process.stdout.write(`worker ${slot.id}: pid ${worker.process.pid}\n`);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      setTimeout(() => void replace(slot), 1000).unref();
    }
  };
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      slots.map(
        ({ worker }) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) resolve();
            else {
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }
          }),
      ),
    );
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  let url = '';
  for (let i = 1; i <= options.count; i++) {
    const id = `w${i}`;
    // One after the other: the first creates the demo, the others find it in the file.
    const demo = options.demo && i === 1;
    const started = await fork(id, demo);
    const slot = { id, demo, worker: started.worker };
    slots.push(slot);
    watch(slot);
    url = started.url;
  }
  process.stdout.write(`listening on ${url}\nworkers: ${options.count}\n`);
  for (const slot of slots) process.stdout.write(`worker ${slot.id}: pid ${slot.worker.process.pid}\n`);
}

/**
 * In a worker: its name and demo flag (from the primary), how it tells the primary of its commits, and the
 * wake-up it gets when another worker committed.
 *
 * @example
 * const worker = workerRole(); // undefined outside a cluster worker
 */
export function workerRole():
  | {
      id: string;
      demo: boolean;
      onCommitted: (seq: number) => void;
      onOthersCommitted: (wake: () => void) => void;
      listening: (url: string) => void;
    }
  | undefined {
  if (!cluster.isWorker || !process.env.SVC_WORKER_ID) return undefined;
  const send = (message: WorkerMessage) => {
    if (process.connected) process.send?.(message);
  };
  return {
    id: process.env.SVC_WORKER_ID,
    demo: process.env.SVC_WORKER_DEMO === '1',
    onCommitted: (seq) => send({ svc: 'committed', seq }),
    onOthersCommitted: (wake) => {
      process.on('message', (message: unknown) => {
        if (isMessage(message) && message.svc === 'log') wake();
      });
    },
    listening: (url) => send({ svc: 'listening', url }),
  };
}
