/**
 * Measuring helpers shared by the engine benchmarks: wall-clock and CPU time of a call, percentiles,
 * memory (V8 heap + external), the machine's load, and table printing.
 */
import os from 'node:os';

/**
 * The value at percentile `p` (0–100) of an ascending list.
 * @example percentile([1, 2, 3, 4], 50) // 3
 */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Wall-clock ms, CPU ms of this process (user + system, µs resolution) and the value of `fn`.
 * @example const [wall, cpu, hits] = await time(() => index.search({ query: 'a' }));
 */
export async function time<T>(fn: () => Promise<T> | T): Promise<[number, number, T]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const v = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [wall, (c.user + c.system) / 1000, v];
}

export type Pair = [number, number];

/** p50 and p99 of wall-clock and CPU times. */
export interface Latency {
  wall: Pair;
  cpu: Pair;
}

/**
 * p50 / p99 of wall-clock and CPU samples (the arrays are sorted in place).
 * @example latency([1, 2, 3], [1, 1, 2]).wall // [2, 3]
 */
export function latency(wall: number[], cpu: number[]): Latency {
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { wall: [percentile(wall, 50), percentile(wall, 99)], cpu: [percentile(cpu, 50), percentile(cpu, 99)] };
}

/**
 * Bytes in use after a full GC (needs `--expose-gc`): V8 heap plus external memory, where typed
 * arrays live (counting only the heap would make an engine built on them look free).
 * @example const before = heap(); build(); const bytes = heap() - before;
 */
export function heap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * A number with 3 significant figures at most (0.29, 12.7, 344).
 * @example fmt(12.345) // '12.3'
 */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/**
 * "p50 / p99" of a pair.
 * @example pair([0.5, 12]) // '0.50 / 12.0'
 */
export function pair(p: Pair): string {
  return `${fmt(p[0])} / ${fmt(p[1])}`;
}

/**
 * The one-minute load average with the CPU count, flagged when the machine is busier than its cores.
 * @example loadNote() // 'load 0.8 on 2 CPUs'
 */
export function loadNote(): string {
  const load = os.loadavg()[0]!;
  const cpus = os.cpus().length;
  return `load ${load.toFixed(1)} on ${cpus} CPUs${load > cpus ? ' (busy: wall-clock tails include waiting for a CPU)' : ''}`;
}

/**
 * Prints a Markdown table with padded columns.
 * @example table(['a', 'b'], [['1', '2']]);
 */
export function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
