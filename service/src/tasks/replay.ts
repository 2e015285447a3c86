/**
 * A replica's side of another replica's write: the write's changes, read from the task log in order
 * (`storage/postgres/replication.ts`), applied to this process's memory. The writer changed its memory while
 * the write was built; here the same changes reach the memory of every other replica.
 *
 * Catalog changes are applied as they are (records) or by rebuilding the index from storage (settings,
 * rules, synonyms, new and dropped indices); the small areas (dictionaries, keys, A/B tests, the
 * Personalization strategy) are read again from storage. Clusters and crawlers hold no state in memory
 * (they read storage at each call), so their changes need nothing here.
 */
import type { AbTests } from '../abtests/service.js';
import type { Dictionaries } from '../dictionaries/dictionaries.js';
import type { Catalog } from '../indices/catalog.js';
import type { Keys } from '../keys/keys.js';
import type { Personalizer } from '../personalization/personalizer.js';
import type { Recommender } from '../recommend/recommender.js';
import type { Storage } from '../storage/storage.js';
import type { CatalogChange, Change } from '../storage/types.js';

export interface ReplayTargets {
  storage: Storage;
  catalog: Catalog;
  dictionaries: Dictionaries;
  keys: Keys;
  abTests: AbTests;
  personalizer: Personalizer;
}

/**
 * @example
 * storage.replication?.follow((changes) => replayChanges(targets, changes));
 */
export async function replayChanges(targets: ReplayTargets, changes: readonly Change[]): Promise<void> {
  const areas = new Set(changes.map((change) => change.area));
  // Dictionaries first: an index rebuilt below is built with the new compound words.
  if (areas.has('dictionaries')) await targets.dictionaries.reload(targets.storage.dictionaries);
  const catalogChanges = changes.filter((change): change is CatalogChange => change.area === 'catalog');
  if (catalogChanges.length > 0) await targets.catalog.replay(catalogChanges);
  if (areas.has('keys')) await targets.keys.reload(targets.storage.keys);
  if (areas.has('abTests')) await targets.abTests.reload(targets.storage.abTests);
  if (areas.has('personalization')) await targets.personalizer.reload(targets.storage.personalization);
}

/**
 * Builds the memory a replica follows the log into again from the tables, as at its start: every index, the
 * dictionaries (first: the indices are built with their compound words), keys, A/B tests, the Personalization
 * strategy; the Recommend models and Personalization profiles are rebuilt from the stored events on next use.
 * For a replica that found the entries it needed pruned (`storage/postgres/replication.ts`).
 *
 * @example
 * storage.replication?.follow(replay, () => rebuildMemory({ ...targets, recommender }));
 */
export async function rebuildMemory(targets: ReplayTargets & { recommender: Recommender }): Promise<void> {
  await targets.dictionaries.reload(targets.storage.dictionaries);
  await targets.catalog.reload();
  await targets.keys.reload(targets.storage.keys);
  await targets.abTests.reload(targets.storage.abTests);
  await targets.personalizer.reload(targets.storage.personalization);
  targets.recommender.reset();
}
