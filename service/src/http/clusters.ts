/**
 * Multi-cluster user-ID mapping (document 1, "Endpoints > Multi-cluster (all require the admin key)") for
 * the local service's single cluster, `c1-local`. Every route needs the admin key (403 otherwise, as the
 * rest of document 1); failures are `{ message }`. Where the document says "not shown", the answers are
 * the hosted family's: list `{userIDs, page, hitsPerPage}`, delete `{deletedAt}`, search `{hits, nbHits,
 * page, hitsPerPage, updatedAt}`, pending `{pending, clusters?}`. See docs/notes/clusters.md.
 */
import type { Context, Hono } from 'hono';
import {
  getClusters,
  MAX_BATCH_USERS,
  requireCluster,
  USER_ID_HEADER,
  validateUserId,
  type UserMapping,
} from '../clusters/service.js';
import type { ServiceContext } from '../context.js';
import { asObject } from './body.js';
import { HttpError } from './errors.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A non-negative integer parameter (query string or body), with its default and bounds (400 otherwise). */
function integer(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new HttpError(400, `${name} must be an integer from ${min} to ${max}`);
  }
  return number;
}

/** `matchLevel` / highlighted value of a user ID for a search query (case-insensitive substring). */
function highlight(value: string, query: string) {
  if (!query) return { value, matchLevel: 'none', matchedWords: [] as string[] };
  const at = value.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return { value, matchLevel: 'none', matchedWords: [] as string[] };
  const marked = `${value.slice(0, at)}<em>${value.slice(at, at + query.length)}</em>${value.slice(at + query.length)}`;
  return { value: marked, matchLevel: 'full', matchedWords: [query] };
}

export function register(app: Hono, ctx: ServiceContext): void {
  const clusters = getClusters(ctx);
  const admin = (c: Context) => ctx.authorize(c, 'admin');
  const pathUser = (c: Context) => validateUserId(c.req.param('userID') ?? '', 'userID');

  app.post('/1/clusters/mapping/batch', async (c) => {
    admin(c);
    const body = asObject(await ctx.readJson(c), 'The body');
    const cluster = requireCluster(body.cluster, 'cluster');
    if (!Array.isArray(body.users) || body.users.length === 0 || body.users.length > MAX_BATCH_USERS) {
      throw new HttpError(400, `users must be an array of 1 to ${MAX_BATCH_USERS} user IDs`);
    }
    const users = body.users.map((user, position) => validateUserId(user, `users[${position}]`));
    const at = ctx.now();
    clusters.assign([...new Set(users)], cluster, at);
    return c.json({ createdAt: iso(at) });
  });

  app.post('/1/clusters/mapping/search', async (c) => {
    admin(c);
    const body = asObject(await ctx.readJson(c), 'The body');
    if (body.query !== undefined && typeof body.query !== 'string') throw new HttpError(400, 'query must be a string');
    const query = ((body.query as string | undefined) ?? '').trim();
    const clusterName =
      body.clusterName === undefined || body.clusterName === null
        ? undefined
        : requireCluster(body.clusterName, 'clusterName');
    const page = integer(body.page, 'page', 0, 0, 1_000_000);
    const hitsPerPage = integer(body.hitsPerPage, 'hitsPerPage', 20, 1, 1000);
    const lower = query.toLowerCase();
    const matching = clusters
      .mappings()
      .filter(
        (user) => (!clusterName || user.clusterName === clusterName) && user.userID.toLowerCase().includes(lower),
      );
    const hits = matching.slice(page * hitsPerPage, (page + 1) * hitsPerPage).map((user) => ({
      ...user,
      objectID: user.userID,
      _highlightResult: { userID: highlight(user.userID, query), clusterName: highlight(user.clusterName, '') },
    }));
    return c.json({ hits, nbHits: matching.length, page, hitsPerPage, updatedAt: iso(ctx.now()) });
  });

  app.post('/1/clusters/mapping', async (c) => {
    admin(c);
    const header = c.req.header(USER_ID_HEADER);
    if (header === undefined) throw new HttpError(400, `The ${USER_ID_HEADER} header is required`);
    const userID = validateUserId(header, USER_ID_HEADER);
    const body = asObject(await ctx.readJson(c), 'The body');
    const cluster = requireCluster(body.cluster, 'cluster');
    const at = ctx.now();
    clusters.assign([userID], cluster, at);
    return c.json({ createdAt: iso(at) });
  });

  app.get('/1/clusters/mapping/top', (c) => {
    admin(c);
    return c.json({ topUsers: clusters.top() });
  });

  app.get('/1/clusters/mapping/pending', (c) => {
    admin(c);
    // Assignments are applied at once, in one transaction: nothing is ever pending.
    const answer: { pending: boolean; clusters?: Record<string, string[]> } = { pending: false };
    const getClusters = c.req.query('getClusters');
    if (getClusters !== undefined && getClusters !== 'true' && getClusters !== 'false')
      throw new HttpError(400, 'getClusters must be true or false');
    if (getClusters === 'true') answer.clusters = {};
    return c.json(answer);
  });

  app.get('/1/clusters/mapping', (c) => {
    admin(c);
    const page = integer(c.req.query('page'), 'page', 0, 0, 1_000_000);
    const hitsPerPage = integer(c.req.query('hitsPerPage'), 'hitsPerPage', 100, 1, 1000);
    const userIDs: UserMapping[] = clusters.mappings().slice(page * hitsPerPage, (page + 1) * hitsPerPage);
    return c.json({ userIDs, page, hitsPerPage });
  });

  app.get('/1/clusters/mapping/:userID', (c) => {
    admin(c);
    const userID = pathUser(c);
    const mapping = clusters.mapping(userID);
    if (!mapping) throw new HttpError(404, `User ID ${userID} does not exist`);
    return c.json(mapping);
  });

  app.delete('/1/clusters/mapping/:userID', (c) => {
    admin(c);
    const userID = pathUser(c);
    if (!clusters.remove(userID)) throw new HttpError(404, `User ID ${userID} does not exist`);
    return c.json({ deletedAt: iso(ctx.now()) });
  });

  app.get('/1/clusters', (c) => {
    admin(c);
    return c.json({ clusters: clusters.clusters() });
  });
}
