/**
 * Rules section of document 1: save, batch (with `clearExistingRules`), get, delete, clear and search rules,
 * each write with `forwardToReplicas`. Validation: `rules/validate.ts`; applying rules to searches:
 * `rules/apply.ts`; the search: `rules/search.ts`.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import { ANCHORINGS, validateRule } from '../rules/validate.js';
import { searchRules } from '../rules/search.js';
import type { Services } from '../services.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, queryOf, trueOrFalse } from './validate.js';

const RULES_BATCH_BODY = z.array(z.unknown(), { error: 'The body must be a JSON array of rules' });
const BATCH_QUERY = z.object({
  clearExistingRules: trueOrFalse('clearExistingRules'),
  forwardToReplicas: trueOrFalse('forwardToReplicas'),
});
const FORWARD_QUERY = z.object({ forwardToReplicas: trueOrFalse('forwardToReplicas') });
const RULE_SEARCH_BODY = jsonObject('The body must be a JSON object').pipe(
  z.object({
    query: z.string({ error: '`query` must be a string' }).default(''),
    page: z
      .number({ error: '`page` must be a non-negative integer' })
      .int({ error: '`page` must be a non-negative integer' })
      .min(0, { error: '`page` must be a non-negative integer' })
      .default(0),
    hitsPerPage: z
      .number({ error: '`hitsPerPage` must be an integer from 1 to 1000' })
      .int({ error: '`hitsPerPage` must be an integer from 1 to 1000' })
      .min(1, { error: '`hitsPerPage` must be an integer from 1 to 1000' })
      .max(1000, { error: '`hitsPerPage` must be an integer from 1 to 1000' })
      .default(20),
    anchoring: z.enum(ANCHORINGS, { error: `\`anchoring\` must be one of ${ANCHORINGS.join(', ')}` }).optional(),
    context: z.string({ error: '`context` must be a string' }).optional(),
    enabled: z.boolean({ error: '`enabled` must be a boolean' }).nullable().optional(),
  }),
);

export function ruleRoutes(services: Services): Hono {
  const app = new Hono();
  const { catalog, tasks } = services;
  const now = () => new Date().toISOString();
  const target = (c: Context, right: 'settings' | 'editSettings') => {
    const indexName = c.req.param('indexName')!;
    authorize(services, c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };
  const notFound = (objectID: string, indexName: string) =>
    new ServiceError(404, `Rule ${objectID} does not exist in index ${indexName}`);

  app.post('/1/indexes/:indexName/rules/batch', async (c) => {
    const indexName = target(c, 'editSettings');
    const body = await jsonBody(c, RULES_BATCH_BODY);
    const rules = body.map((rule, i) => validateRule(rule, `rules[${i}]`));
    const { clearExistingRules, forwardToReplicas } = queryOf(c, BATCH_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'rules' }, (write) =>
      catalog.saveRules(write, indexName, rules, clearExistingRules, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/rules/clear', async (c) => {
    const indexName = target(c, 'editSettings');
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'rules' }, (write) =>
      catalog.clearRules(write, indexName, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/rules/search', async (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const search = await jsonBody(c, RULE_SEARCH_BODY);
    return c.json(searchRules(catalog.rules(indexName), search));
  });

  app.put('/1/indexes/:indexName/rules/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    const objectID = c.req.param('objectID');
    const rule = validateRule(await jsonBody(c, z.unknown()), 'The rule', objectID);
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'rules' }, (write) =>
      catalog.saveRules(write, indexName, [rule], false, forwardToReplicas),
    );
    return c.json({ updatedAt: now(), taskID, objectID });
  });

  app.get('/1/indexes/:indexName/rules/:objectID', (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const rule = catalog.getRule(indexName, c.req.param('objectID'));
    if (!rule) throw notFound(c.req.param('objectID'), indexName);
    return c.json(rule);
  });

  app.delete('/1/indexes/:indexName/rules/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    const objectID = c.req.param('objectID');
    catalog.require(indexName);
    if (!catalog.getRule(indexName, objectID)) throw notFound(objectID, indexName);
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'rules' }, (write) =>
      catalog.deleteRule(write, indexName, objectID, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });
  return app;
}
