/**
 * Index-level endpoints the document refers to: list indices, delete an index, copy/move
 * (`POST /1/indexes/{indexName}/operation`), settings (GET/PUT, with `replicas` and
 * `forwardToReplicas`) and task status.
 */
import type { Hono } from 'hono';
import type { ServiceContext } from '../context.js';
import { checkTypoWordSizes, KNOWN_SETTINGS } from '../engine/settings.js';
import { type Catalog, type CopyScope, validateIndexName } from '../storage/catalog.js';
import { indexAllowed, requireRight } from './auth.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';
import { flag } from './params.js';

const iso = (ms: number) => new Date(ms).toISOString();
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

const isSetting = (name: string) => KNOWN_SETTINGS.includes(name) || HOSTED_SETTINGS.has(name);

const SCOPES: CopyScope[] = ['settings', 'synonyms', 'rules', 'records'];

export function register(app: Hono, ctx: ServiceContext): void {
  const { catalog } = internalsOf(ctx);
  app.get('/1/indexes', (c) => {
    const key = ctx.authorize(c, 'listIndexes');
    const pageParam = c.req.query('page');
    const hitsPerPageParam = c.req.query('hitsPerPage');
    const names = catalog.names().filter((name) => indexAllowed(key, name));
    const sizes = catalog.dataSizes();
    const items = names.map((name) => {
      const meta = catalog.meta(name)!;
      const index = catalog.get(name)!;
      const dataSize = sizes.get(name) ?? 0;
      const item: Record<string, unknown> = {
        name,
        createdAt: iso(meta.createdAt),
        updatedAt: iso(meta.updatedAt),
        entries: index.size,
        dataSize,
        fileSize: dataSize,
        lastBuildTimeS: 0,
        numberOfPendingTasks: 0,
        pendingTask: false,
      };
      if (meta.primary) item.primary = meta.primary;
      if (meta.replicas.length > 0) item.replicas = [...meta.replicas];
      return item;
    });
    if (pageParam === undefined) return c.json({ items, nbPages: 1 });
    const page = Number(pageParam);
    const hitsPerPage = hitsPerPageParam === undefined ? 100 : Number(hitsPerPageParam);
    if (!Number.isInteger(page) || page < 0) throw new HttpError(400, 'page must be a non-negative integer');
    if (!Number.isInteger(hitsPerPage) || hitsPerPage < 1)
      throw new HttpError(400, 'hitsPerPage must be a positive integer');
    return c.json({
      items: items.slice(page * hitsPerPage, (page + 1) * hitsPerPage),
      nbPages: Math.max(1, Math.ceil(items.length / hitsPerPage)),
    });
  });

  app.delete('/1/indexes/:indexName', (c) => {
    const indexName = c.req.param('indexName');
    ctx.authorize(c, 'deleteIndex', indexName);
    validateIndexName(indexName);
    const { taskID } = catalog.write(indexName, 'deleteIndex', () => catalog.deleteIndex(indexName));
    return c.json({ deletedAt: new Date().toISOString(), taskID });
  });

  app.post('/1/indexes/:indexName/operation', async (c) => {
    const indexName = c.req.param('indexName');
    // addObject also allows copy/move; the key must be allowed on both indices (the source before the body is read).
    const key = ctx.authorize(c, 'addObject', indexName);
    const body = asObject(await ctx.readJson(c));
    const { operation, destination, scope } = body;
    if (operation !== 'copy' && operation !== 'move') throw new HttpError(400, '`operation` must be "copy" or "move"');
    if (typeof destination !== 'string') throw new HttpError(400, '`destination` must be an index name');
    validateIndexName(destination);
    requireRight(key, 'addObject', destination);
    let scopes: CopyScope[] | undefined;
    if (scope !== undefined) {
      if (operation === 'move') throw new HttpError(400, '`scope` is only allowed with operation "copy"');
      if (!Array.isArray(scope) || scope.some((item) => !SCOPES.includes(item as CopyScope))) {
        throw new HttpError(400, `\`scope\` must be an array of ${SCOPES.join(', ')}`);
      }
      scopes = scope as CopyScope[];
    }
    catalog.require(indexName);
    if (destination === indexName) throw new HttpError(400, 'The destination must differ from the source index');
    const { taskID } = catalog.write(destination, operation, () =>
      operation === 'copy' ? catalog.copy(indexName, destination, scopes) : catalog.move(indexName, destination),
    );
    return c.json({ updatedAt: new Date().toISOString(), taskID });
  });

  app.get('/1/indexes/:indexName/settings', (c) => {
    const indexName = c.req.param('indexName');
    ctx.authorize(c, 'settings', indexName);
    return c.json(catalog.settingsOf(indexName));
  });

  app.put('/1/indexes/:indexName/settings', async (c) => {
    const indexName = c.req.param('indexName');
    ctx.authorize(c, 'editSettings', indexName);
    validateIndexName(indexName);
    const settings = asObject(await ctx.readJson(c), 'The settings');
    for (const name of Object.keys(settings)) {
      if (!isSetting(name)) throw new HttpError(400, `Unknown setting: ${name}`);
    }
    const forward = c.req.query('forwardToReplicas');
    if (forward !== undefined && forward !== 'true' && forward !== 'false') {
      throw new HttpError(400, 'forwardToReplicas must be true or false');
    }
    // minWordSizefor1Typo ≤ minWordSizefor2Typos over the values each index will have (the replicas' own when forwarded).
    for (const name of [indexName, ...(flag(forward) ? (catalog.meta(indexName)?.replicas ?? []) : [])]) {
      checkTypoWordSizes(settings, (ctx.indices.get(name)?.getSettings() ?? {}) as Record<string, unknown>);
    }
    const { taskID } = catalog.write(indexName, 'settings', () =>
      catalog.setSettings(indexName, settings, flag(forward)),
    );
    return c.json({ updatedAt: new Date().toISOString(), taskID });
  });

  // Application-level task status (used by clients for non-index tasks); same ids as index tasks.
  app.get('/1/task/:taskID', (c) => {
    ctx.authorize(c, 'any');
    const taskID = Number(c.req.param('taskID'));
    if (!Number.isSafeInteger(taskID) || taskID < 0) throw new HttpError(400, 'taskID must be a non-negative integer');
    const task = catalog.taskStatus(taskID);
    if (!task) throw new HttpError(404, `Task ${taskID} does not exist`);
    return c.json({ status: task.published ? 'published' : 'notPublished' });
  });

  app.get('/1/indexes/:indexName/task/:taskID', (c) => {
    const indexName = c.req.param('indexName');
    ctx.authorize(c, 'any', indexName);
    const taskID = Number(c.req.param('taskID'));
    if (!Number.isSafeInteger(taskID) || taskID < 0) throw new HttpError(400, 'taskID must be a non-negative integer');
    const task = catalog.taskStatus(taskID);
    if (!task) throw new HttpError(404, `Task ${taskID} does not exist`);
    return c.json({ status: task.published ? 'published' : 'notPublished' });
  });
}
