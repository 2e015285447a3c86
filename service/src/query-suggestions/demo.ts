/**
 * The demo's Query Suggestions: `createService({ demo: true })` calls {@link createDemoSuggestions} after it
 * installed (or found) the demo catalogue; when the suggestions index has no configuration yet, this writes
 * the external index of order counts and creates the configuration, whose build starts at once. A data
 * directory that has the configuration (or had it deleted and recreated by hand) is left as it is, so the
 * build happens once, not at every start (the hourly rebuild keeps it fresh, with the searches recorded since).
 */
import {
  DEMO_SUGGESTIONS_INDEX,
  DEMO_SUGGESTIONS_ORDERS_INDEX,
  demoSuggestionOrders,
  demoSuggestionsConfig,
} from '../datasets/demo.js';
import type { Catalog } from '../indices/catalog.js';
import type { StoredRecord } from '../storage/types.js';
import type { TaskQueue } from '../tasks/queue.js';
import { parseConfig } from './config.js';
import type { QuerySuggestions } from './service.js';

/**
 * Creates the demo's suggestions configuration when it is absent.
 *
 * @example
 * await createDemoSuggestions(services, 'products');
 */
export async function createDemoSuggestions(
  { catalog, tasks, querySuggestions }: { catalog: Catalog; tasks: TaskQueue; querySuggestions: QuerySuggestions },
  indexName: string,
): Promise<void> {
  if (await querySuggestions.get(DEMO_SUGGESTIONS_INDEX)) return;
  const source = catalog.get(indexName);
  if (!source) return;
  const orders = demoSuggestionOrders(source.objects());
  await tasks.run({ indexName: DEMO_SUGGESTIONS_ORDERS_INDEX, kind: 'demo' }, (write) => {
    catalog.clearObjects(write, DEMO_SUGGESTIONS_ORDERS_INDEX);
    catalog.saveObjects(write, DEMO_SUGGESTIONS_ORDERS_INDEX, orders as unknown as StoredRecord[]);
  });
  await querySuggestions.create(parseConfig(demoSuggestionsConfig()));
  void querySuggestions.build(DEMO_SUGGESTIONS_INDEX);
}
