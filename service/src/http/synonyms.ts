/**
 * Synonyms section of document 1 (its endpoints are "not shown" there: the hosted family's well-known
 * synonyms API): save one (PUT), batch (with `replaceExistingSynonyms`), get, delete, clear and search
 * synonyms, each write with `forwardToReplicas`. Five types, validated with one zod strict schema each
 * (400 naming the field): `synonym` (synonyms), `onewaysynonym` (input, synonyms), `altcorrection1` /
 * `altcorrection2` (word, corrections), `placeholder` (placeholder `<name>`, replacements). The engine
 * expands query words with them (`src/service/engine/synonyms.ts`); writes need `editSettings`, reads
 * `settings`.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { SYNONYM_TYPES, tokenize, type Synonym } from '../engine/index.js';
import { validateIndexName } from '../storage/catalog.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';
import { internalsOf } from './internals.js';

const got = (input: unknown) => `, got ${JSON.stringify(input) ?? 'undefined'}`;
const must = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${what}${got(issue.input)}`;
const text = z.string({ error: must('a non-empty string') }).min(1, { error: must('a non-empty string') });
const texts = z
  .array(text, { error: must('a non-empty array of strings') })
  .min(1, { error: must('a non-empty array of strings') });
const objectID = text;

/** One strict schema per type (unexpected keys are refused). */
const SCHEMAS = {
  synonym: z.strictObject({ objectID, type: z.literal('synonym'), synonyms: texts }),
  onewaysynonym: z.strictObject({ objectID, type: z.literal('onewaysynonym'), input: text, synonyms: texts }),
  altcorrection1: z.strictObject({ objectID, type: z.literal('altcorrection1'), word: text, corrections: texts }),
  altcorrection2: z.strictObject({ objectID, type: z.literal('altcorrection2'), word: text, corrections: texts }),
  placeholder: z.strictObject({
    objectID,
    type: z.literal('placeholder'),
    placeholder: text.regex(/^<[^<>]+>$/, { error: must('a token written <name>') }),
    replacements: texts,
  }),
} as const;

function pathOf(path: PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
}

/**
 * Validates a synonym object (400 naming the field).
 *
 * @example
 * validateSynonym({ objectID: 'tv', type: 'synonym', synonyms: ['tv', 'television'] })
 */
export function validateSynonym(input: unknown, where = 'The synonym', id?: string): Synonym {
  const body = { ...asObject(input, where) };
  if (id !== undefined) {
    if (body.objectID !== undefined && body.objectID !== id)
      throw new HttpError(
        400,
        `${where}.objectID must be the objectID of the path (${JSON.stringify(id)})${got(body.objectID)}`,
      );
    body.objectID = id;
  }
  if (!SYNONYM_TYPES.includes(body.type as never)) {
    throw new HttpError(
      400,
      `${where}.type ${body.type === undefined ? 'is required' : `must be one of ${SYNONYM_TYPES.join(', ')}${got(body.type)}`}`,
    );
  }
  const result = SCHEMAS[body.type as keyof typeof SCHEMAS].safeParse(body);
  if (result.success) return result.data as Synonym;
  const issue = result.error.issues[0]!;
  const at = `${where}${pathOf(issue.path)}`;
  if (issue.code === 'unrecognized_keys')
    throw new HttpError(400, `${where}.${issue.keys[0]!} is unexpected for type ${body.type as string}`);
  throw new HttpError(400, `${at} ${issue.message}`);
}

function boolQuery(c: Context, name: string): boolean {
  const value = c.req.query(name);
  if (value !== undefined && value !== 'true' && value !== 'false')
    throw new HttpError(400, `${name} must be true or false`);
  return value === 'true';
}

function textsOf(synonym: Synonym): string[] {
  switch (synonym.type) {
    case 'synonym':
      return synonym.synonyms;
    case 'onewaysynonym':
      return [synonym.input, ...synonym.synonyms];
    case 'altcorrection1':
    case 'altcorrection2':
      return [synonym.word, ...synonym.corrections];
    case 'placeholder':
      return [synonym.placeholder, ...synonym.replacements];
  }
}

export function register(app: Hono, ctx: ServiceContext): void {
  const { catalog } = internalsOf(ctx);
  const now = () => new Date().toISOString();
  const target = (c: Context, right: 'settings' | 'editSettings') => {
    const indexName = c.req.param('indexName')!;
    ctx.authorize(c, right, indexName);
    validateIndexName(indexName);
    return indexName;
  };

  app.post('/1/indexes/:indexName/synonyms/batch', async (c) => {
    const indexName = target(c, 'editSettings');
    catalog.require(indexName);
    const body = await ctx.readJson(c);
    if (!Array.isArray(body)) throw new HttpError(400, 'The body must be a JSON array of synonyms');
    const synonyms = body.map((synonym, i) => validateSynonym(synonym, `synonyms[${i}]`));
    const forwardToReplicas = boolQuery(c, 'forwardToReplicas');
    const replace = boolQuery(c, 'replaceExistingSynonyms');
    const { taskID } = catalog.write(indexName, 'synonyms', () =>
      catalog.saveSynonyms(indexName, synonyms, replace, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/synonyms/clear', (c) => {
    const indexName = target(c, 'editSettings');
    catalog.require(indexName);
    const forwardToReplicas = boolQuery(c, 'forwardToReplicas');
    const { taskID } = catalog.write(indexName, 'synonyms', () => catalog.clearSynonyms(indexName, forwardToReplicas));
    return c.json({ taskID, updatedAt: now() });
  });

  app.post('/1/indexes/:indexName/synonyms/search', async (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const body = asObject((await ctx.readJson(c)) ?? {});
    const query = body.query ?? '';
    if (typeof query !== 'string') throw new HttpError(400, '`query` must be a string');
    const page = body.page ?? 0;
    const hitsPerPage = body.hitsPerPage ?? 100;
    if (!Number.isInteger(page) || (page as number) < 0)
      throw new HttpError(400, '`page` must be a non-negative integer');
    if (!Number.isInteger(hitsPerPage) || (hitsPerPage as number) < 1 || (hitsPerPage as number) > 1000)
      throw new HttpError(400, '`hitsPerPage` must be an integer from 1 to 1000');
    let types: string[] | null = null;
    if (body.type !== undefined && body.type !== '') {
      if (typeof body.type !== 'string') throw new HttpError(400, '`type` must be a string');
      types = body.type.split(',').map((type) => type.trim());
      for (const type of types)
        if (!SYNONYM_TYPES.includes(type as never))
          throw new HttpError(400, `\`type\` must be one of ${SYNONYM_TYPES.join(', ')}${got(type)}`);
    }
    const queryWords = tokenize(query);
    const matching = catalog.synonyms(indexName).filter((synonym) => {
      if (types && !types.includes(synonym.type)) return false;
      if (queryWords.length === 0) return true;
      const words = tokenize([synonym.objectID, ...textsOf(synonym)].join(' '));
      return queryWords.every((queryWord) => words.some((word) => word.startsWith(queryWord)));
    });
    const from = (page as number) * (hitsPerPage as number);
    return c.json({ hits: matching.slice(from, from + (hitsPerPage as number)), nbHits: matching.length });
  });

  app.put('/1/indexes/:indexName/synonyms/:objectID', async (c) => {
    const indexName = target(c, 'editSettings');
    catalog.require(indexName);
    const id = c.req.param('objectID');
    const synonym = validateSynonym(await ctx.readJson(c), 'The synonym', id);
    const forwardToReplicas = boolQuery(c, 'forwardToReplicas');
    const { taskID } = catalog.write(indexName, 'synonyms', () =>
      catalog.saveSynonyms(indexName, [synonym], false, forwardToReplicas),
    );
    return c.json({ taskID, updatedAt: now(), id });
  });

  app.get('/1/indexes/:indexName/synonyms/:objectID', (c) => {
    const indexName = target(c, 'settings');
    catalog.require(indexName);
    const synonym = catalog.getSynonym(indexName, c.req.param('objectID'));
    if (!synonym) throw new HttpError(404, `Synonym ${c.req.param('objectID')} does not exist in index ${indexName}`);
    return c.json(synonym);
  });

  app.delete('/1/indexes/:indexName/synonyms/:objectID', (c) => {
    const indexName = target(c, 'editSettings');
    const id = c.req.param('objectID');
    catalog.require(indexName);
    if (!catalog.getSynonym(indexName, id))
      throw new HttpError(404, `Synonym ${id} does not exist in index ${indexName}`);
    const forwardToReplicas = boolQuery(c, 'forwardToReplicas');
    const { taskID } = catalog.write(indexName, 'synonyms', () =>
      catalog.deleteSynonym(indexName, id, forwardToReplicas),
    );
    return c.json({ taskID, deletedAt: now() });
  });
}
