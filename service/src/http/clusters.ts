/**
 * Multi-cluster user-ID mapping (document 1, "Endpoints > Multi-cluster (all require the admin key)") for
 * the local service's single cluster, `c1-local`. Every route needs the admin key (403 otherwise, as the
 * rest of document 1); failures are `{ message }`. Where the document says "not shown", the answers are
 * the hosted family's: list `{userIDs, page, hitsPerPage}`, delete `{deletedAt}`, search `{hits, nbHits,
 * page, hitsPerPage, updatedAt}`, pending `{pending, clusters?}`. See docs/notes/clusters.md.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import {
  MAX_BATCH_USERS,
  requireCluster,
  USER_ID_HEADER,
  validateUserId,
  type UserMapping,
} from '../clusters/service.js';
import type { Services } from '../services.js';
import { authorize } from './request.js';
import { jsonBody, jsonObject, parse, queryOf } from './validate.js';
import { ServiceError } from '../errors.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** An integer (a number, or its decimal text in a query string) with its default and bounds (400 otherwise). */
function integer(name: string, fallback: number, min: number, max: number) {
  const error = `${name} must be an integer from ${min} to ${max}`;
  return z.preprocess(
    (value) =>
      value === undefined || value === null || value === ''
        ? fallback
        : typeof value === 'string' && /^-?\d+$/.test(value.trim())
          ? Number(value)
          : value,
    z.number({ error }).int({ error }).min(min, { error }).max(max, { error }),
  );
}

const BODY = jsonObject('The body must be a JSON object');
const BATCH_BODY = BODY.pipe(
  z.object({
    cluster: z.unknown().optional(),
    users: z
      .array(z.unknown(), { error: `users must be an array of 1 to ${MAX_BATCH_USERS} user IDs` })
      .min(1, { error: `users must be an array of 1 to ${MAX_BATCH_USERS} user IDs` })
      .max(MAX_BATCH_USERS, { error: `users must be an array of 1 to ${MAX_BATCH_USERS} user IDs` })
      .optional(),
  }),
);
const SEARCH_BODY = BODY.pipe(
  z.object({
    query: z.string({ error: 'query must be a string' }).optional(),
    clusterName: z.unknown().optional(),
    page: integer('page', 0, 0, 1_000_000),
    hitsPerPage: integer('hitsPerPage', 20, 1, 1000),
  }),
);
const MAPPING_BODY = BODY.pipe(z.object({ cluster: z.unknown().optional() }));
const LIST_QUERY = z.object({
  page: integer('page', 0, 0, 1_000_000),
  hitsPerPage: integer('hitsPerPage', 100, 1, 1000),
});
const PENDING_QUERY = z.object({
  getClusters: z.enum(['true', 'false'], { error: 'getClusters must be true or false' }).optional(),
});

/** `matchLevel` / highlighted value of a user ID for a search query (case-insensitive substring). */
function highlight(value: string, query: string) {
  if (!query) return { value, matchLevel: 'none', matchedWords: [] as string[] };
  const at = value.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return { value, matchLevel: 'none', matchedWords: [] as string[] };
  const marked = `${value.slice(0, at)}<em>${value.slice(at, at + query.length)}</em>${value.slice(at + query.length)}`;
  return { value: marked, matchLevel: 'full', matchedWords: [query] };
}

export function clusterRoutes(services: Services): Hono {
  const app = new Hono();
  const { clusters } = services;
  const admin = (c: Context) => authorize(services, c, 'admin');
  const pathUser = (c: Context) => validateUserId(c.req.param('userID') ?? '', 'userID');

  app.post('/1/clusters/mapping/batch', async (c) => {
    admin(c);
    const body = await jsonBody(c, BODY);
    const cluster = requireCluster(body.cluster, 'cluster');
    const { users: list } = parse(BATCH_BODY, body);
    if (!list) throw new ServiceError(400, `users must be an array of 1 to ${MAX_BATCH_USERS} user IDs`);
    const users = list.map((user, position) => validateUserId(user, `users[${position}]`));
    const at = services.now();
    await clusters.assign([...new Set(users)], cluster, at);
    return c.json({ createdAt: iso(at) });
  });

  app.post('/1/clusters/mapping/search', async (c) => {
    admin(c);
    const body = await jsonBody(c, SEARCH_BODY);
    const query = (body.query ?? '').trim();
    const clusterName =
      body.clusterName === undefined || body.clusterName === null
        ? undefined
        : requireCluster(body.clusterName, 'clusterName');
    const { page, hitsPerPage } = body;
    const lower = query.toLowerCase();
    const matching = (await clusters.mappings()).filter(
      (user) => (!clusterName || user.clusterName === clusterName) && user.userID.toLowerCase().includes(lower),
    );
    const hits = matching.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((user) => ({
      ...user,
      objectID: user.userID,
      _highlightResult: { userID: highlight(user.userID, query), clusterName: highlight(user.clusterName, '') },
    }));
    return c.json({ hits, nbHits: matching.length, page, hitsPerPage, updatedAt: iso(services.now()) });
  });

  app.post('/1/clusters/mapping', async (c) => {
    admin(c);
    const header = c.req.header(USER_ID_HEADER);
    if (header === undefined) throw new ServiceError(400, `The ${USER_ID_HEADER} header is required`);
    const userID = validateUserId(header, USER_ID_HEADER);
    const body = await jsonBody(c, MAPPING_BODY);
    const cluster = requireCluster(body.cluster, 'cluster');
    const at = services.now();
    await clusters.assign([userID], cluster, at);
    return c.json({ createdAt: iso(at) });
  });

  app.get('/1/clusters/mapping/top', async (c) => {
    admin(c);
    return c.json({ topUsers: await clusters.top() });
  });

  app.get('/1/clusters/mapping/pending', (c) => {
    admin(c);
    // Assignments are applied at once, in one transaction: nothing is ever pending.
    const answer: { pending: boolean; clusters?: Record<string, string[]> } = { pending: false };
    const { getClusters } = queryOf(c, PENDING_QUERY);
    if (getClusters === 'true') answer.clusters = {};
    return c.json(answer);
  });

  app.get('/1/clusters/mapping', async (c) => {
    admin(c);
    const { page, hitsPerPage } = queryOf(c, LIST_QUERY);
    const userIDs: UserMapping[] = (await clusters.mappings()).slice(page * hitsPerPage, (page + 1) * hitsPerPage);
    return c.json({ userIDs, page, hitsPerPage });
  });

  app.get('/1/clusters/mapping/:userID', async (c) => {
    admin(c);
    const userID = pathUser(c);
    const mapping = await clusters.mapping(userID);
    if (!mapping) throw new ServiceError(404, `User ID ${userID} does not exist`);
    return c.json(mapping);
  });

  app.delete('/1/clusters/mapping/:userID', async (c) => {
    admin(c);
    const userID = pathUser(c);
    if (!(await clusters.remove(userID))) throw new ServiceError(404, `User ID ${userID} does not exist`);
    return c.json({ deletedAt: iso(services.now()) });
  });

  app.get('/1/clusters', async (c) => {
    admin(c);
    return c.json({ clusters: await clusters.clusters() });
  });
  return app;
}
