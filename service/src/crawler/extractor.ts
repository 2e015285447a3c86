/**
 * Runs an action's `recordExtractor` the way the hosted crawler does: `source` is a JavaScript function
 * `({ url, $, contentLength, fileType, dataSources, helpers }) => records[]`, `$` the cheerio document of
 * the page. It runs in `node:vm`, in a fresh context per page holding only those values and a `console`
 * whose lines become the test endpoint's `logs`, with a time limit (microtasks included), without
 * `require`, `process`, `eval` or `new Function`.
 *
 * `node:vm` is NOT a security boundary: the host objects handed in (`$`, `url`, the helpers) lead back to
 * the service's own realm (`$.constructor.constructor('return process')()`). Whoever holds the crawler
 * key can therefore run code on the machine of the local service (see `docs/notes/crawler.md`, Limits).
 */
import vm from 'node:vm';
import type { Cheerio, CheerioAPI } from 'cheerio';

/** Time one extractor call may take on one page. */
export const EXTRACTOR_TIMEOUT_MS = 1000;
/** Records one page may produce per action. */
export const MAX_RECORDS_PER_PAGE = 1000;

export interface ExtractorInput {
  url: URL;
  $: CheerioAPI;
  contentLength: number;
  fileType: string;
  dataSources: Record<string, unknown>;
}

export interface ExtractorResult {
  records: Array<Record<string, unknown>>;
  logs: string[][];
}

export class ExtractorError extends Error {
  readonly logs: string[][];

  constructor(message: string, logs: string[][]) {
    super(message);
    this.name = 'ExtractorError';
    this.logs = logs;
  }
}

interface SplitOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any node selection of the page (cheerio types elements and text nodes apart)
  $elements?: Cheerio<any>;
  baseRecord?: Record<string, unknown>;
  maxRecordBytes?: number;
  textAttributeName?: string;
  orderingAttributeName?: string;
}

/**
 * `helpers.splitContentIntoRecords` of the hosted crawler: the text of `$elements` (default the `body`)
 * cut at word boundaries into records of at most `maxRecordBytes` (JSON, default 10,000), each
 * `{ ...baseRecord, [textAttributeName]: part, [orderingAttributeName]: i }`.
 *
 * @example
 * helpers.splitContentIntoRecords({ $elements: $('article p'), baseRecord: { url: url.href }, maxRecordBytes: 500 })
 */
export function splitContentIntoRecords($: CheerioAPI, options: SplitOptions = {}): Array<Record<string, unknown>> {
  const elements = options.$elements ?? $('body');
  const baseRecord = options.baseRecord ?? {};
  const maxBytes = options.maxRecordBytes ?? 10_000;
  const textAttribute = options.textAttributeName ?? 'text';
  const ordering = options.orderingAttributeName;
  const words = elements
    .toArray()
    .map((element) => $(element).text())
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
  const build = (text: string, i: number) => {
    const record: Record<string, unknown> = { ...baseRecord, [textAttribute]: text };
    if (ordering) record[ordering] = i;
    return record;
  };
  const size = (record: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(record));
  const records: Array<Record<string, unknown>> = [];
  let current: string[] = [];
  for (const word of words) {
    const candidate = [...current, word];
    if (current.length > 0 && size(build(candidate.join(' '), records.length)) > maxBytes) {
      records.push(build(current.join(' '), records.length));
      current = [word];
    } else {
      current = candidate;
    }
  }
  if (current.length > 0) records.push(build(current.join(' '), records.length));
  return records;
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Compiled extractors, by source (the compile is the costly part; contexts are fresh per call). */
const scripts = new Map<string, vm.Script>();

function scriptOf(source: string): vm.Script {
  let script = scripts.get(source);
  if (!script) {
    script = new vm.Script(`(${source}\n)(__input)`, { filename: 'recordExtractor.js' });
    if (scripts.size > 100) scripts.clear();
    scripts.set(source, script);
  }
  return script;
}

/**
 * Runs one extractor on one page. Throws `ExtractorError` when the code throws, exceeds
 * `EXTRACTOR_TIMEOUT_MS`, or returns something else than an array of objects.
 *
 * @example
 * const { records } = runExtractor('({ url, $ }) => [{ title: $("h1").text(), url: url.href }]', input);
 */
export function runExtractor(source: string, input: ExtractorInput): ExtractorResult {
  const logs: string[][] = [];
  const line = (...args: unknown[]) => {
    if (logs.length < 1000) logs.push(args.map(show));
  };
  const helpers = Object.freeze({
    splitContentIntoRecords: (options?: SplitOptions) => splitContentIntoRecords(input.$, options),
  });
  const sandbox = {
    __input: Object.freeze({ ...input, helpers }),
    console: Object.freeze({ log: line, info: line, warn: line, error: line, debug: line }),
  };
  const context = vm.createContext(sandbox, {
    name: 'recordExtractor',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  let output: unknown;
  try {
    output = scriptOf(source).runInContext(context, { timeout: EXTRACTOR_TIMEOUT_MS, breakOnSigint: false });
  } catch (error) {
    const message =
      (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
        ? `the recordExtractor ran longer than ${EXTRACTOR_TIMEOUT_MS} ms`
        : `the recordExtractor threw: ${(error as Error)?.message ?? String(error)}`;
    throw new ExtractorError(message, logs);
  }
  if (!Array.isArray(output)) throw new ExtractorError('the recordExtractor must return an array of records', logs);
  if (output.length > MAX_RECORDS_PER_PAGE) {
    throw new ExtractorError(
      `the recordExtractor returned ${output.length} records; at most ${MAX_RECORDS_PER_PAGE} per page`,
      logs,
    );
  }
  let records: Array<Record<string, unknown>>;
  try {
    // Out of the sandbox's realm, and only plain JSON values.
    records = JSON.parse(JSON.stringify(output)) as Array<Record<string, unknown>>;
  } catch (error) {
    throw new ExtractorError(`the records are not JSON: ${(error as Error).message}`, logs);
  }
  records.forEach((record, i) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new ExtractorError(`record ${i} is not an object`, logs);
    }
    if (record.objectID !== undefined && (typeof record.objectID !== 'string' || record.objectID === '')) {
      throw new ExtractorError(`record ${i}: objectID must be a non-empty string`, logs);
    }
  });
  return { records, logs };
}
