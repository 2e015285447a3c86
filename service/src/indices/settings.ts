/**
 * Settings, replicas, copy and move (document 1, "Settings", "Replicas", "Copy or move an index"): the writes
 * of the catalog that create or re-link indices. Each runs inside a write of the task queue.
 */
import { checkTypoWordSizes, KNOWN_SETTINGS } from '../engine/settings.js';
import { ServiceError } from '../errors.js';
import type { Write } from '../tasks/queue.js';
import { type Catalog, SERVICE_SETTINGS, validateIndexName } from './catalog.js';

export type CopyScope = 'settings' | 'synonyms' | 'rules' | 'records';
export const COPY_SCOPES: readonly CopyScope[] = ['settings', 'synonyms', 'rules', 'records'];

/**
 * Settings of the hosted API (its clients' `IndexSettings`) that this engine stores and does not apply; with
 * the engine's own (`KNOWN_SETTINGS`) and the service's `replicas` (and `primary`, echoed back by clients
 * that send a read answer), any other name is a 400, as an unknown search parameter is: a misspelt setting
 * would otherwise be stored and seem applied.
 */
const HOSTED_SETTINGS = new Set([
  'replicas',
  'primary',
  'attributesToTransliterate',
  'camelCaseAttributes',
  'decompoundedAttributes',
  'disablePrefixOnAttributes',
  'allowCompressionOfIntegerArray',
  'numericAttributesForFiltering',
  'separatorsToIndex',
  'userData',
  'customNormalization',
  'maxFacetHits',
  'keepDiacriticsOnCharacters',
  'relevancyStrictness',
  'restrictHighlightAndSnippetArrays',
  'allowTyposOnNumericTokens',
  'disableTypoToleranceOnAttributes',
  'enableRules',
  'enablePersonalization',
  'mode',
  'semanticSearch',
  'disableExactOnAttributes',
  'exactOnSingleWordQuery',
  'alternativesAsExact',
  'advancedSyntaxFeatures',
  'replaceSynonymsInHighlight',
  'minProximity',
  'responseFields',
  'sortFacetValuesBy',
  'attributeCriteriaComputedByMinProximity',
  'attributeCriteriaComputedBy',
  'renderingContent',
  'enableReRanking',
  'reRankingApplyFilter',
]);

/**
 * Every name of a settings body is a setting (400 naming an unknown one).
 *
 * @example
 * checkSettingNames({ customRanking: ['desc(sales)'] });
 */
export function checkSettingNames(settings: Record<string, unknown>): void {
  for (const key of Object.keys(settings)) {
    if (!KNOWN_SETTINGS.includes(key) && !HOSTED_SETTINGS.has(key))
      throw new ServiceError(400, `Unknown setting: ${key}`);
  }
}

/**
 * `minWordSizefor1Typo` ≤ `minWordSizefor2Typos` over the values each index will have (the replicas' own
 * when forwarded): 400 naming both.
 *
 * @example
 * checkTypoSizes(catalog, 'products', { minWordSizefor1Typo: 5 }, false);
 */
export function checkTypoSizes(
  catalog: Catalog,
  name: string,
  settings: Record<string, unknown>,
  forwardToReplicas: boolean,
): void {
  for (const target of forwardToReplicas ? catalog.withReplicas(name) : [name]) {
    checkTypoWordSizes(settings, (catalog.get(target)?.getSettings() ?? {}) as Record<string, unknown>);
  }
}

function parseReplicas(value: unknown, primary: string): string[] {
  if (value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new ServiceError(400, '`replicas` must be an array of index names');
  }
  const names = (value as string[]).map((item) => {
    const virtual = /^virtual\((.+)\)$/.exec(item);
    return (virtual ? virtual[1]! : item).trim();
  });
  for (const name of names) {
    validateIndexName(name);
    if (name === primary) throw new ServiceError(400, `Index ${primary} cannot be its own replica`);
  }
  return [...new Set(names)];
}

/**
 * Applies a partial settings update (validated by the engine). `replicas` creates the new replica indices
 * (settings and records copied from the primary) and detaches the removed ones; `forwardToReplicas` applies
 * the same change to every replica.
 *
 * @example
 * await tasks.run({ indexName: 'products', kind: 'settings' }, (write) =>
 *   setSettings(catalog, write, 'products', { replicas: ['products_price_asc'] }, false));
 */
export function setSettings(
  catalog: Catalog,
  write: Write,
  name: string,
  partial: Record<string, unknown>,
  forwardToReplicas = false,
): void {
  const index = catalog.ensure(write, name);
  catalog.touch(write, name);
  const meta = catalog.meta(name)!;
  const engineSettings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(partial)) if (!SERVICE_SETTINGS.has(key)) engineSettings[key] = value;
  if ('primary' in partial) throw new ServiceError(400, '`primary` is read-only; set `replicas` on the primary index');

  let replicas: string[] | undefined;
  if ('replicas' in partial) {
    replicas = parseReplicas(partial.replicas, name);
    for (const replica of replicas) {
      const other = catalog.meta(replica);
      if (other?.primary && other.primary !== name) {
        throw new ServiceError(400, `Index ${replica} is already a replica of ${other.primary}`);
      }
      if (other && other.replicas.length > 0)
        throw new ServiceError(400, `Index ${replica} has replicas and cannot be one`);
    }
  }

  index.setSettings(engineSettings as never);
  meta.settings = { ...meta.settings, ...engineSettings };

  if (replicas) linkReplicas(catalog, write, name, replicas);

  if (forwardToReplicas) {
    for (const replica of meta.replicas) {
      const replicaIndex = catalog.get(replica);
      const replicaMeta = catalog.meta(replica);
      if (!replicaIndex || !replicaMeta) continue;
      catalog.touch(write, replica);
      replicaIndex.setSettings(structuredClone(engineSettings) as never);
      replicaMeta.settings = { ...replicaMeta.settings, ...structuredClone(engineSettings) };
    }
  }
}

/** Makes `replicas` the replicas of `name`: removed ones become regular indices, new ones get its records. */
function linkReplicas(catalog: Catalog, write: Write, name: string, replicas: string[]): void {
  const meta = catalog.meta(name)!;
  const index = catalog.get(name)!;
  for (const replica of meta.replicas.filter((existing) => !replicas.includes(existing))) {
    const replicaMeta = catalog.meta(replica);
    if (replicaMeta) {
      delete replicaMeta.primary;
      catalog.touch(write, replica);
    }
  }
  const added = replicas.filter((replica) => !meta.replicas.includes(replica));
  meta.replicas = replicas;
  for (const replica of added) {
    const existed = catalog.get(replica) !== undefined;
    const replicaIndex = catalog.ensure(write, replica);
    catalog.touch(write, replica);
    const replicaMeta = catalog.meta(replica)!;
    replicaMeta.primary = name;
    if (!existed) {
      // A new replica starts with the primary's settings; it diverges from there.
      replicaIndex.setSettings(structuredClone(meta.settings) as never);
      replicaMeta.settings = structuredClone(meta.settings);
    }
    const records = [...index.objects()].map((record) => structuredClone(record));
    write.change({ area: 'catalog', type: 'clearItems', kind: 'records', indexName: replica });
    replicaIndex.clear();
    if (records.length > 0) {
      write.change({ area: 'catalog', type: 'putItems', kind: 'records', indexName: replica, items: records });
      replicaIndex.saveObjects(records.map((record) => structuredClone(record)));
    }
  }
}

/**
 * Copies `source` to `destination` (replacing it). `scope` limits what is copied; without it the
 * destination becomes an exact copy (records and settings; replicas are not copied).
 */
export function copyIndex(
  catalog: Catalog,
  write: Write,
  source: string,
  destination: string,
  scope?: readonly CopyScope[],
): void {
  const sourceIndex = catalog.require(source);
  const sourceMeta = catalog.meta(source)!;
  const destinationMeta = catalog.meta(destination);
  if (destinationMeta?.primary)
    throw new ServiceError(400, `Index ${destination} is a replica; it cannot be overwritten`);
  const parts = new Set<CopyScope>(scope ?? COPY_SCOPES);
  const records = parts.has('records') ? [...sourceIndex.objects()].map((record) => structuredClone(record)) : null;
  if (!scope && destinationMeta) {
    // A full copy replaces the destination: start from a fresh index, keep its replicas list.
    catalog.touch(write, destination);
    write.change({ area: 'catalog', type: 'clearItems', kind: 'records', indexName: destination });
    catalog.replaceIndex(write, destination, catalog.newIndex(destination));
    destinationMeta.settings = {};
  }
  const destinationIndex = catalog.ensure(write, destination);
  catalog.touch(write, destination);
  const meta = catalog.meta(destination)!;
  if (parts.has('settings')) {
    destinationIndex.setSettings(structuredClone(sourceMeta.settings) as never);
    meta.settings = { ...meta.settings, ...structuredClone(sourceMeta.settings) };
  }
  if (parts.has('rules')) catalog.saveRules(write, destination, catalog.rules(source), true);
  if (parts.has('synonyms')) catalog.saveSynonyms(write, destination, catalog.synonyms(source), true);
  if (records) {
    catalog.clearObjects(write, destination);
    // fresh copies of the source's records, held by nothing else
    catalog.saveObjects(write, destination, records, { owned: true });
  }
}

/** Renames `source` to `destination` (replacing it); the source no longer exists afterwards. */
export function moveIndex(catalog: Catalog, write: Write, source: string, destination: string): void {
  if (source === destination) return;
  copyIndex(catalog, write, source, destination);
  const sourceMeta = catalog.meta(source)!;
  // The source's replicas now follow the destination.
  const meta = catalog.meta(destination)!;
  meta.replicas = [...new Set([...meta.replicas, ...sourceMeta.replicas])];
  for (const replica of sourceMeta.replicas) {
    const replicaMeta = catalog.meta(replica);
    if (replicaMeta) {
      replicaMeta.primary = destination;
      catalog.touch(write, replica);
    }
  }
  sourceMeta.replicas = [];
  catalog.deleteIndex(write, source);
}
