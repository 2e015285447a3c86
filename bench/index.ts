/**
 * `npm run bench`: runs every benchmark section in one process and prints figures.
 * Each section is a module in this folder exporting `run(): Promise<void>` that prints its own table.
 * `npm run bench -- <name>…` runs only the named ones; `soak` (five minutes), `typo-ceiling`, `engine-tail`, `engine-walk`,
 * `engine-spaced` and `replicas` (PostgreSQL, about a minute) run only when named.
 */
import os from 'node:os';

const sections = [
  'engine',
  'engine-scale',
  'workers',
  'store',
  'insights',
  'recommend',
  'analytics-latency',
  'size',
  'element-size',
  'byte-map',
  'network',
  'local',
  'ssr',
];
/** Sections that run only when named (`npm run bench -- soak`): they take minutes. */
const optIn = ['soak', 'typo-ceiling', 'replicas', 'engine-tail', 'engine-spaced', 'engine-walk'];

console.log(`svc-search benchmarks — ${new Date().toISOString()}`);
console.log(
  `machine: ${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, node ${process.versions.node}`,
);
const only = process.argv.slice(2);
for (const name of [...sections, ...optIn]) {
  if (only.length ? !only.includes(name) : optIn.includes(name)) continue;
  let mod: { run: () => Promise<void> };
  try {
    mod = await import(`./${name}.ts`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(`${name}.ts`))
      continue;
    throw error;
  }
  console.log(`\n## ${name}\n`);
  await mod.run();
}
