/**
 * Hooks the demo's Query Suggestions to the service: `createService({ demo: true })` emits `'demo'` after it
 * installed (or found) the demo catalogue; when the suggestions index has no configuration yet, this writes
 * the external index of order counts and creates the configuration, whose build starts at once. A data
 * directory that has the configuration (or had it deleted and recreated by hand) is left as it is, so the
 * build happens once, not at every start (the hourly rebuild keeps it fresh, with the searches recorded since).
 */
import type { ServiceContext } from '../context.js';
import {
  DEMO_SUGGESTIONS_INDEX,
  DEMO_SUGGESTIONS_ORDERS_INDEX,
  demoSuggestionOrders,
  demoSuggestionsConfig,
} from '../datasets/demo.js';
import { internalsOf } from '../http/internals.js';
import type { Record_ } from '../storage/catalog.js';
import { parseConfig } from './config.js';
import { getQuerySuggestions } from './service.js';

/**
 * Listens for the service's `'demo'` signal and creates the demo's suggestions configuration when it is absent.
 * @example createDemoSuggestionsOnDemo(ctx) // in the Query Suggestions router's register()
 */
export function createDemoSuggestionsOnDemo(ctx: ServiceContext): void {
  ctx.on('demo', (payload) => {
    const indexName = (payload as { indexName?: unknown } | undefined)?.indexName;
    const suggestions = getQuerySuggestions(ctx);
    if (typeof indexName !== 'string' || suggestions.get(DEMO_SUGGESTIONS_INDEX)) return;
    const { catalog } = internalsOf(ctx);
    const source = catalog.get(indexName);
    if (!source) return;
    const orders = demoSuggestionOrders(source.objects());
    catalog.write(DEMO_SUGGESTIONS_ORDERS_INDEX, 'demo', () => {
      catalog.clearObjects(DEMO_SUGGESTIONS_ORDERS_INDEX);
      catalog.saveObjects(DEMO_SUGGESTIONS_ORDERS_INDEX, orders as unknown as Record_[]);
    });
    suggestions.create(parseConfig(demoSuggestionsConfig()));
    void suggestions.build(DEMO_SUGGESTIONS_INDEX);
  });
}
