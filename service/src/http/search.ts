/**
 * Search section of document 1: search one index (POST and GET), multi-index search with strategies,
 * search for facet values, browse with a cursor. The pipeline is `search/search.ts`; this router reads and
 * checks the requests and signs browse cursors.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { ServiceError } from '../errors.js';
import { requireRight } from '../keys/authorizer.js';
import type { KeyInfo } from '../keys/types.js';
import { decodeParams, type RawParams, rawParams } from '../search/key-params.js';
import { withResponseFields } from '../engine/index.js';
import { type MultiQueryRequest, shaped } from '../search/search.js';
import type { Services } from '../services.js';
import { authorize, isTransportParameter, originOf } from './request.js';
import { jsonBody, jsonObject, parse, withoutFields } from './validate.js';

const SEARCH_BODY = jsonObject('The body must be a JSON object');

const MULTI_QUERY_BODY = z.object({
  requests: z.array(z.unknown(), { error: '`requests` must be an array' }),
  strategy: z
    .enum(['none', 'stopIfEnoughMatches'], { error: '`strategy` must be "none" or "stopIfEnoughMatches"' })
    .optional(),
});
const MULTI_QUERY_BODY_OBJECT = SEARCH_BODY.pipe(MULTI_QUERY_BODY);

/** One request of a multi-query: its index (checked first), then its kind; every other field is a search parameter. */
const MULTI_QUERY_REQUEST = jsonObject('{at} must be a JSON object');
const MULTI_QUERY_TARGET = z.object({
  indexName: z
    .string({ error: '{at} must be a non-empty string' })
    .min(1, { error: '{at} must be a non-empty string' }),
});
const MULTI_QUERY_TYPE = z.enum(['default', 'facet'], { error: '{at} must be "default" or "facet"' }).optional();

const BROWSE_CURSOR = z.string({ error: '`cursor` must be a string' }).optional();

/**
 * Parameters of a GET query string, parsed like a `params` string: the credentials and the client's agent
 * (whatever their case) are not search parameters; `params` (a URL-encoded string of more parameters) and
 * the browse `cursor` are kept as they are.
 */
function queryParams(c: Context): RawParams {
  const search = new URL(c.req.url).searchParams;
  const kept: RawParams = {};
  for (const name of ['params', 'cursor']) {
    const value = search.get(name);
    if (value !== null) kept[name] = value;
    search.delete(name);
  }
  for (const name of [...search.keys()]) if (isTransportParameter(name)) search.delete(name);
  return { ...decodeParams(search.toString()), ...kept };
}

/** A multi-query request checked before any runs: its fields, the key's right on its index, the index. */
function multiQueryRequest(services: Services, key: KeyInfo, request: unknown, position: number): MultiQueryRequest {
  const where = `requests[${position}]`;
  const item = parse(MULTI_QUERY_REQUEST, request, { where });
  const { indexName } = parse(MULTI_QUERY_TARGET, item, { where });
  requireRight(key, 'search', indexName);
  services.catalog.require(indexName);
  const type = parse(MULTI_QUERY_TYPE, item.type, { where: `${where}.type` });
  const { facet } = item;
  const rest = withoutFields(item, ['indexName', 'type', 'facet']);
  if (type === 'facet' && (typeof facet !== 'string' || !facet)) {
    throw new ServiceError(400, `${where}.facet must name the facet to search`);
  }
  return { indexName, raw: rawParams(rest), facet: type === 'facet' ? (facet as string) : undefined };
}

export function searchRoutes(services: Services): Hono {
  const app = new Hono();
  const { search } = services;
  const origin = (c: Context) => originOf(c, services.config.countryHeaders);

  app.post('/1/indexes/:all{\\*}/queries', async (c) => {
    // Credentials and the search right before the body is read (an empty `requests` too), then each index.
    const key = authorize(services, c, 'search');
    const body = await jsonBody(c, MULTI_QUERY_BODY_OBJECT);
    // Check every request (auth, index, parameters) before running any.
    const requests = body.requests.map((request, position) => multiQueryRequest(services, key, request, position));
    return c.json({ results: await search.multi(requests, body.strategy ?? 'none', key, origin(c)) });
  });

  app.post('/1/indexes/:indexName/query', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'search', indexName);
    const body = await jsonBody(c, SEARCH_BODY);
    return c.json(shaped(await search.run(indexName, rawParams(body), key, origin(c))));
  });

  app.post('/1/indexes/:indexName/facets/:facetName/query', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'search', indexName);
    const body = await jsonBody(c, SEARCH_BODY);
    return c.json(search.facetValues(indexName, c.req.param('facetName'), rawParams(body), key));
  });

  // The engine's cursor carries the browse parameters; the service signs it (bound to the index and to
  // the parameters the key forces) so that a forged or borrowed cursor cannot lift a secured key's filters.
  const cursorSecret = createHmac('sha256', services.config.adminKey).update('svc-search browse cursor').digest();
  const cursorMac = (engineCursor: string, indexName: string, key: KeyInfo) =>
    createHmac('sha256', cursorSecret)
      .update(`${indexName}\u0000${JSON.stringify(key.forcedParams)}\u0000${key.userToken ?? ''}\u0000${engineCursor}`)
      .digest('base64url')
      .slice(0, 22);

  const browse = async (c: Context, read: () => RawParams | Promise<RawParams>) => {
    const indexName = c.req.param('indexName')!;
    const key = authorize(services, c, 'browse', indexName); // before the body is read
    const input = await read();
    services.catalog.require(indexName);
    const { cursor: cursorValue, ...rest } = input;
    const cursor = parse(BROWSE_CURSOR, cursorValue);
    let engineCursor: string | undefined;
    if (cursor) {
      const dot = cursor.lastIndexOf('.');
      engineCursor = cursor.slice(0, dot);
      const mac = Buffer.from(cursor.slice(dot + 1));
      const expected = Buffer.from(cursorMac(engineCursor, indexName, key));
      if (dot < 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
        throw new ServiceError(400, 'Invalid cursor: pass the cursor of the previous browse answer unchanged');
      }
    }
    const { response, fields } = search.browse(indexName, rawParams(rest), key, engineCursor);
    if (response.cursor) response.cursor = `${response.cursor}.${cursorMac(response.cursor, indexName, key)}`;
    return c.json(withResponseFields(response, fields));
  };
  app.post('/1/indexes/:indexName/browse', (c) => browse(c, () => jsonBody(c, SEARCH_BODY)));
  app.get('/1/indexes/:indexName/browse', (c) => browse(c, () => queryParams(c)));

  app.get('/1/indexes/:indexName', async (c) => {
    const indexName = c.req.param('indexName');
    const key = authorize(services, c, 'search', indexName);
    services.catalog.require(indexName);
    return c.json(shaped(await search.run(indexName, rawParams(queryParams(c)), key, origin(c))));
  });
  return app;
}
