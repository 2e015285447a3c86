/**
 * `svc-search-service export --index NAME --out FILE.svcidx`: one index of the service's data directory,
 * with its replicas, rules and synonyms, written as a `.svcidx` bundle for the browser engine of
 * `svc-search/local` (the format: the library's `src/local/format.ts`). Recommend answers are computed by the
 * service's own Recommend API from the stored events (the top N per record and model), so the Recommend
 * elements answer in a static site too. With `structures`, the file also carries the engine's built
 * structures (`toSnapshot`), so the worker restores the index instead of building it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  type BundleDictionaries,
  type BundleIndex,
  type BundleRecommendations,
  addDictionaries,
  DICTIONARY_NAMES,
  Dictionaries as EngineDictionaries,
  encodeBundle,
  Index,
  type IndexBundle,
  type IndexRecord,
  type IndexSnapshot,
  toSnapshot,
} from 'svc-search/engine';
import { createService, type Service } from './index.js';

export interface BundleOptions {
  /** The primary index to export (its replicas come with it). */
  index: string;
  /** Recommend answers kept per record and model (0: none). Default 10. */
  recommendations?: number;
  /**
   * Write the engine's structures: `always`, `never`, or `auto` (the default) — from {@link STRUCTURES_FROM}
   * records on, where restoring them saves more time than their bytes take to download.
   */
  structures?: StructuresChoice;
}

export type StructuresChoice = 'auto' | 'always' | 'never';

/**
 * From this many records on, `structures: 'auto'` writes the engine's structures. Below it the index builds in a
 * worker in a few tens of milliseconds, and the structures would about double the file (`docs/notes/local.md`).
 */
export const STRUCTURES_FROM = 10_000;

export interface ExportOptions extends BundleOptions {
  /** The service's data directory (`':memory:'` with `demo`). */
  dataDir: string;
  /** Install the demo catalogue first when the data directory has none (as `serve --demo`). */
  demo?: boolean;
}

export interface ExportResult {
  bytes: Uint8Array;
  indices: string[];
  records: number;
}

/** The settings a bundle leaves out: the service's own (replication is the bundle's `replicaOf`). */
const SERVICE_ONLY = new Set(['replicas', 'primary']);

/**
 * Exports an index as the bytes of a `.svcidx` file.
 *
 * @example
 * const { bytes } = await exportIndex({ dataDir: ':memory:', demo: true, index: 'products' });
 */
export async function exportIndex(options: ExportOptions): Promise<ExportResult> {
  const service = await createService({ dataDir: options.dataDir, demo: options.demo ?? false });
  try {
    return await exportFromService(service, options);
  } finally {
    await service.close();
  }
}

/**
 * Exports an index of a running service (its data as it is now).
 *
 * @example
 * const { bytes } = await exportFromService(service, { index: 'products', recommendations: 0 });
 */
export async function exportFromService(service: Service, options: BundleOptions): Promise<ExportResult> {
  const { catalog } = service.services;
  const primary = catalog.get(options.index);
  if (!primary) throw new Error(`Index ${options.index} does not exist`);
  const meta = catalog.meta(options.index);
  if (meta?.primary) throw new Error(`${options.index} is a replica of ${meta.primary}: export the primary`);
  const entryOf = (name: string): BundleIndex => ({
    name,
    settings: Object.fromEntries(Object.entries(catalog.settingsOf(name)).filter(([key]) => !SERVICE_ONLY.has(key))),
    rules: catalog.rules(name),
    synonyms: catalog.synonyms(name),
  });
  const records = [...primary.objects()];
  const indices: BundleIndex[] = [
    { ...entryOf(options.index), records },
    ...(meta?.replicas ?? []).map((replica) => ({ ...entryOf(replica), replicaOf: options.index })),
  ];
  const dictionaries = customDictionaries(service.services.dictionaries.engine);
  const choice = options.structures ?? 'auto';
  if (choice === 'always' || (choice === 'auto' && records.length >= STRUCTURES_FROM))
    indices[0]!.structures = snapshotOf(indices[0]!, dictionaries);
  const bundle: IndexBundle = { name: options.index, exportedAt: Date.now(), indices };
  if (dictionaries) bundle.dictionaries = dictionaries;
  const top = options.recommendations ?? 10;
  if (top > 0) {
    const facets = facetNames(catalog.settingsOf(options.index).attributesForFaceting);
    const ids = records.map((record) => record.objectID);
    bundle.recommendations = {
      [options.index]: await recommendations(service, options.index, ids, facets, top),
    };
  }
  return { bytes: await encodeBundle(bundle), indices: indices.map((entry) => entry.name), records: records.length };
}

/**
 * The structures of an exported index as the worker would build them: an engine index over the entry's records,
 * settings and synonyms, with the standard dictionaries and the file's custom ones, then its snapshot.
 * @example entry.structures = snapshotOf(entry);
 */
export function snapshotOf(entry: BundleIndex, custom?: BundleDictionaries): IndexSnapshot {
  const dictionaries = new EngineDictionaries();
  if (custom) addDictionaries(dictionaries, custom);
  const index = new Index(entry.name, { dictionaries });
  index.beginBatch();
  index.setSettings(entry.settings);
  if (entry.synonyms.length > 0) index.setSynonyms(entry.synonyms);
  index.saveObjects((entry.records ?? []) as IndexRecord[]);
  index.endBatch();
  return toSnapshot(index);
}

/**
 * The application's custom dictionary entries and disabled standard stop words, which the local engine applies as
 * the service does (every index reads them); undefined when there are none (the file stays as it was).
 */
function customDictionaries(dictionaries: EngineDictionaries): BundleDictionaries | undefined {
  const custom: BundleDictionaries = {
    stopwords: [...dictionaries.entries('stopwords').values()],
    plurals: [...dictionaries.entries('plurals').values()],
    compounds: [...dictionaries.entries('compounds').values()],
    disabledStandardStopwords: dictionaries.disabledStandardStopwords(),
  };
  const empty = DICTIONARY_NAMES.every((name) => custom[name].length === 0);
  return empty && custom.disabledStandardStopwords.length === 0 ? undefined : custom;
}

/** The facet attribute names of `attributesForFaceting` (without `searchable(…)` / `filterOnly(…)`). */
function facetNames(setting: unknown): string[] {
  if (!Array.isArray(setting)) return [];
  return setting
    .filter((entry): entry is string => typeof entry === 'string' && !entry.startsWith('filterOnly('))
    .map((entry) => entry.replace(/^searchable\((.*)\)$/, '$1'));
}

type Answer = { hits: Array<{ objectID?: string; facetValue?: string; _score: number }> };

/** Every model's answers, asked of the service's Recommend API (50 requests per call, its limit). */
async function recommendations(
  service: Service,
  indexName: string,
  objectIDs: string[],
  facets: string[],
  top: number,
): Promise<BundleRecommendations> {
  // The service's own Recommend route, on a loopback port of our own (the service may be mounted elsewhere).
  const server = createServer((req, res) => service.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    return await recommendationsFrom(url, service, indexName, objectIDs, facets, top);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function recommendationsFrom(
  url: string,
  service: Service,
  indexName: string,
  objectIDs: string[],
  facets: string[],
  top: number,
): Promise<BundleRecommendations> {
  const ask = async (requests: Array<Record<string, unknown>>): Promise<Answer[]> => {
    const answers: Answer[] = [];
    for (let at = 0; at < requests.length; at += 50) {
      const response = await fetch(`${url}/1/indexes/*/recommendations`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-application-id': service.services.config.appId,
          'x-service-api-key': service.services.config.adminKey,
        },
        body: JSON.stringify({ requests: requests.slice(at, at + 50) }),
      });
      if (!response.ok) throw new Error(`Recommend: HTTP ${response.status} ${await response.text()}`);
      answers.push(...((await response.json()) as { results: Answer[] }).results);
    }
    return answers;
  };
  const scored = (answer: Answer) =>
    answer.hits
      .filter((hit) => hit.objectID !== undefined)
      .map((hit) => ({ objectID: hit.objectID!, score: hit._score }));
  const perRecord = async (model: string) => {
    const answers = await ask(
      objectIDs.map((objectID) => ({ indexName, model, objectID, threshold: 0, maxRecommendations: top })),
    );
    const out: Record<string, Array<{ objectID: string; score: number }>> = {};
    answers.forEach((answer, i) => {
      const list = scored(answer);
      if (list.length > 0) out[objectIDs[i]!] = list;
    });
    return out;
  };
  const [trending] = await ask([{ indexName, model: 'trending-items', threshold: 0, maxRecommendations: 1000 }]);
  const facetAnswers = await ask(
    facets.map((facetName) => ({
      indexName,
      model: 'trending-facets',
      facetName,
      threshold: 0,
      maxRecommendations: 100,
    })),
  );
  return {
    relatedProducts: await perRecord('related-products'),
    boughtTogether: await perRecord('bought-together'),
    trendingItems: trending ? scored(trending) : [],
    trendingFacets: Object.fromEntries(
      facets.map((facet, i) => [
        facet,
        (facetAnswers[i]?.hits ?? []).map((hit) => ({ facetValue: String(hit.facetValue), score: hit._score })),
      ]),
    ),
  };
}

/**
 * Writes the export of {@link exportIndex} to `out` (directories created).
 *
 * @example
 * await exportToFile({ dataDir: '.data', index: 'products' }, 'public/indexes/products.svcidx');
 */
export async function exportToFile(options: ExportOptions, out: string): Promise<ExportResult> {
  const result = await exportIndex(options);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, result.bytes);
  return result;
}
