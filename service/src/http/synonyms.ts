/**
 * Synonyms section of document 1 (its endpoints are "not shown" there: the hosted family's well-known
 * synonyms API): save one (PUT), batch (with `replaceExistingSynonyms`), get, delete, clear and search
 * synonyms, each write with `forwardToReplicas`; writes need `editSettings`, reads `settings`. Validation:
 * `synonyms/validate.ts`; the engine expands query words with them (`engine/synonyms.ts`).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { SYNONYM_TYPES } from '../engine/index.js';
import { ServiceError } from '../errors.js';
import { validateIndexName } from '../indices/catalog.js';
import type { Services } from '../services.js';
import { searchSynonyms } from '../synonyms/search.js';
import { got, validateSynonym } from '../synonyms/validate.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, queryOf, trueOrFalse } from './validate.js';

const SYNONYMS_BATCH_BODY = z.array(z.unknown(), { error: 'The body must be a JSON array of synonyms' });
const BATCH_QUERY = z.object({
  forwardToReplicas: trueOrFalse('forwardToReplicas'),
  replaceExistingSynonyms: trueOrFalse('replaceExistingSynonyms'),
});
const FORWARD_QUERY = z.object({ forwardToReplicas: trueOrFalse('forwardToReplicas') });
const int = (message: string, min: number, max: number) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
const SYNONYM_SEARCH_BODY = z
  .union([z.null(), jsonObject('The body must be a JSON object')])
  .transform((body) => body ?? {})
  .pipe(
    z.object({
      query: z.string({ error: '`query` must be a string' }).default(''),
      page: int('`page` must be a non-negative integer', 0, Number.MAX_SAFE_INTEGER).default(0),
      hitsPerPage: int('`hitsPerPage` must be an integer from 1 to 1000', 1, 1000).default(100),
      type: z
        .string({ error: '`type` must be a string' })
        .optional()
        .transform((value, context) => {
          if (value === undefined || value === '') return null;
          const types = value.split(',').map((type) => type.trim());
          for (const type of types) {
            if (!SYNONYM_TYPES.includes(type as never)) {
              context.addIssue({
                code: 'custom',
                message: `\`type\` must be one of ${SYNONYM_TYPES.join(', ')}${got(type)}`,
              });
              return z.NEVER;
            }
          }
          return types;
        }),
    }),
  );

export function synonymRoutes(services: Services): Hono {
  const app = new Hono();
  const { catalog, tasks } = services;
  const now = () => new Date().toISOString();
  const target = (c: Context, right: 'settings' | 'editSettings') => {
    const indexName = c.req.param('indexName')!;
    authorize(services, c, right, indexName);
    validateIndexName(indexName);
    catalog.require(indexName);
    return indexName;
  };

  app.post('/1/indexes/:indexName/synonyms/batch', async (c) => {
    const indexName = target(c, 'editSettings');
    const body = await jsonBody(c, SYNONYMS_BATCH_BODY);
    const synonyms = body.map((synonym, i) => validateSynonym(synonym, `synonyms[${i}]`));
    const { forwardToReplicas, replaceExistingSynonyms } = queryOf(c, BATCH_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'synonyms' }, (write) =>
      catalog.saveSynonyms(write, indexName, synonyms, replaceExistingSynonyms, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/synonyms/clear', async (c) => {
    const indexName = target(c, 'editSettings');
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'synonyms' }, (write) =>
      catalog.clearSynonyms(write, indexName, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/synonyms/search', async (c) => {
    const indexName = target(c, 'settings');
    const search = await jsonBody(c, SYNONYM_SEARCH_BODY);
    return c.json(searchSynonyms(catalog.synonyms(indexName), { ...search, types: search.type }));
  });

  app.put('/1/indexes/:indexName/synonyms/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    const id = c.req.param('objectID');
    const synonym = validateSynonym(await jsonBody(c, z.unknown()), 'The synonym', id);
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'synonyms' }, (write) =>
      catalog.saveSynonyms(write, indexName, [synonym], false, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now(), id });
  });

  app.get('/1/indexes/:indexName/synonyms/:objectID', (c) => {
    const indexName = target(c, 'settings');
    const synonym = catalog.getSynonym(indexName, c.req.param('objectID'));
    if (!synonym)
      throw new ServiceError(404, `Synonym ${c.req.param('objectID')} does not exist in index ${indexName}`);
    return c.json(synonym);
  });

  app.delete('/1/indexes/:indexName/synonyms/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    const id = c.req.param('objectID');
    if (!catalog.getSynonym(indexName, id))
      throw new ServiceError(404, `Synonym ${id} does not exist in index ${indexName}`);
    const { forwardToReplicas } = queryOf(c, FORWARD_QUERY);
    const { taskID } = await tasks.run({ indexName, kind: 'synonyms' }, (write) =>
      catalog.deleteSynonym(write, indexName, id, forwardToReplicas),
    );
    return c.json({ taskID, deletedAt: now() });
  });
  return app;
}
