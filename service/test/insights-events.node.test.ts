/**
 * `POST /1/events` over HTTP against the real service: every validation rule of the API document
 * (Insights event table, Events, Errors, Limits), each with a passing and a failing case, and the
 * durable store behind it (read back through the service's own `GET /1/_local/events`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService, DEV_CREDENTIALS } from '../src/index.js';
import { generateSecuredApiKey } from '../src/secured-key.js';

type Service = Awaited<ReturnType<typeof createService>>;

const ADMIN = { 'x-service-application-id': DEV_CREDENTIALS.appId, 'x-service-api-key': DEV_CREDENTIALS.adminKey };
const SEARCH = { 'x-service-application-id': DEV_CREDENTIALS.appId, 'x-service-api-key': DEV_CREDENTIALS.searchKey };

let dataDir: string;
let service: Service;
let base: string;
let tokenSeq = 0;

/** A fresh userToken per test so read-backs see only that test's events. */
function token(): string {
  return `node-test-${process.pid}-${++tokenSeq}`;
}

function view(userToken: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { eventType: 'view', eventName: 'Hits Viewed', index: 'products', userToken, objectIDs: ['1'], ...extra };
}

async function post(
  body: unknown,
  headers: Record<string, string> = SEARCH,
  query = '',
): Promise<{ status: number; body: { status?: number; message?: string } }> {
  const res = await fetch(`${base}/1/events${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { status?: number; message?: string } };
}

async function stored(userToken: string): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${base}/1/_local/events?userToken=${encodeURIComponent(userToken)}`, { headers: ADMIN });
  assert.equal(res.status, 200);
  return ((await res.json()) as { events: Array<Record<string, unknown>> }).events;
}

/** Sends one event and expects it accepted (200 `{status: 200, message: 'OK'}`) and stored. */
async function accepted(event: Record<string, unknown>): Promise<void> {
  const res = await post({ events: [event] });
  assert.deepEqual(res, { status: 200, body: { status: 200, message: 'OK' } }, JSON.stringify(res.body));
  assert.equal((await stored(event.userToken as string)).length, 1);
}

/** Sends one event and expects a 422 naming `events[0].<field>`, with nothing stored. */
async function refused(event: Record<string, unknown>, field: string): Promise<void> {
  const res = await post({ events: [event] });
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.status, 422);
  assert.match(res.body.message ?? '', new RegExp(`^events\\[0\\]\\.${field.replace(/[[\]]/g, '\\$&')}:`));
  if (typeof event.userToken === 'string' && /^[a-zA-Z0-9_\-=/+]{1,128}$/.test(event.userToken)) {
    assert.equal((await stored(event.userToken)).length, 0);
  }
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-insights-'));
  service = await createService({ dataDir });
  base = (await service.listen(0, '127.0.0.1')).url.replace(/\/$/, '');
});

after(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /1/events: authentication (search right, headers or URL parameters)', () => {
  it('accepts the search key in headers', async () => {
    await accepted(view(token()));
  });

  it('accepts the credentials as URL parameters (allowed for Insights)', async () => {
    const userToken = token();
    const query = `?X-Service-Application-Id=${DEV_CREDENTIALS.appId}&X-Service-API-Key=${DEV_CREDENTIALS.searchKey}`;
    const res = await post({ events: [view(userToken)] }, {}, query);
    assert.deepEqual(res, { status: 200, body: { status: 200, message: 'OK' } });
    assert.equal((await stored(userToken)).length, 1);
    // The key given in the URL never reaches the call log (GET /1/logs), whatever its case.
    await post({ events: [view(token())] }, {}, `?x-service-api-key=${DEV_CREDENTIALS.searchKey}`);
    const logs = (await (await fetch(`${base}/1/logs?length=3`, { headers: ADMIN })).json()) as {
      logs: Array<{ url: string }>;
    };
    const urls = logs.logs.map((entry) => entry.url).filter((url) => url.startsWith('/1/events'));
    assert.deepEqual(urls, ['/1/events', `/1/events?X-Service-Application-Id=${DEV_CREDENTIALS.appId}`]);
  });

  it('reads the URL parameters whatever the case of their names (the official browser clients send them in lower case)', async () => {
    const { appId, searchKey } = DEV_CREDENTIALS;
    for (const query of [
      `?x-service-application-id=${appId}&x-service-api-key=${searchKey}`,
      `?X-SERVICE-APPLICATION-ID=${appId}&X-SERVICE-API-KEY=${searchKey}`,
      `?X-Service-Application-Id=${appId}&x-service-api-key=${searchKey}`,
      `?x-service-application-id=${appId}&X-Service-API-Key=${searchKey}`,
    ]) {
      const userToken = token();
      const res = await post({ events: [view(userToken)] }, {}, query);
      assert.deepEqual(res, { status: 200, body: { status: 200, message: 'OK' } }, query);
      assert.equal((await stored(userToken)).length, 1, query);
    }
  });

  it('checks the credentials before reading the body: wrong credentials and a malformed body answer 401, not 400', async () => {
    for (const headers of [{}, { ...SEARCH, 'x-service-api-key': 'wrong-key' }]) {
      const res = await post('{"events": [', headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.status, 401);
    }
    assert.equal((await post('{"events": [')).status, 400, 'the same body with the search key is a 400');
  });

  it('answers 401 with status and message when credentials are missing or wrong', async () => {
    for (const headers of [
      {},
      { ...SEARCH, 'x-service-api-key': 'wrong-key' },
      { ...SEARCH, 'x-service-application-id': 'OTHERAPP' },
    ]) {
      const res = await post({ events: [view(token())] }, headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.status, 401);
      assert.match(
        String(res.body.message),
        Object.keys(headers).length === 0 ? /are required/ : /^Invalid Application-Id or API-Key$/,
      );
    }
    const wrongQuery = `?X-Service-Application-Id=${DEV_CREDENTIALS.appId}&X-Service-API-Key=nope`;
    assert.equal((await post({ events: [view(token())] }, {}, wrongQuery)).status, 401);
  });

  it('refuses a key without the search right (401) and accepts one with it', async () => {
    const create = async (acl: string[]) => {
      const res = await fetch(`${base}/1/keys`, {
        method: 'POST',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ acl }),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { key: string }).key;
    };
    const writer = await create(['addObject']);
    const searcher = await create(['search']);
    const refusedRes = await post({ events: [view(token())] }, { ...SEARCH, 'x-service-api-key': writer });
    assert.equal(refusedRes.status, 401);
    assert.equal(refusedRes.body.status, 401);
    const userToken = token();
    assert.equal((await post({ events: [view(userToken)] }, { ...SEARCH, 'x-service-api-key': searcher })).status, 200);
    assert.equal((await stored(userToken)).length, 1);
  });

  it('a secured key restricted to some indices sends events of those indices only (401 otherwise)', async () => {
    const secured = generateSecuredApiKey(DEV_CREDENTIALS.searchKey, { restrictIndices: ['allowed_*'] });
    const headers = { ...SEARCH, 'x-service-api-key': secured };
    const userToken = token();
    assert.equal((await post({ events: [view(userToken, { index: 'allowed_products' })] }, headers)).status, 200);
    const res = await post(
      { events: [view(userToken, { index: 'allowed_products' }), view(userToken, { index: 'secret' })] },
      headers,
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.status, 401);
    assert.equal((await stored(userToken)).length, 1);
  });
});

describe('POST /1/events: body and request limits', () => {
  it('accepts a body of 2 MB minus one byte and answers 413 (with status) at 2 MB', async () => {
    const limit = 2 * 1024 * 1024;
    /** 1000 events whose JSON body is exactly `bytes` long (ASCII, so characters = bytes). */
    const bodyOf = (userToken: string, bytes: number) => {
      const events = Array.from({ length: 1000 }, (_, i) =>
        view(userToken, { objectIDs: [`${i}-${'x'.repeat(1900)}`] }),
      );
      const pad = bytes - JSON.stringify({ events }).length;
      assert.ok(pad > 0);
      events[0]!.objectIDs = [`0-${'x'.repeat(1900 + pad)}`];
      const json = JSON.stringify({ events });
      assert.equal(Buffer.byteLength(json), bytes);
      return json;
    };
    const under = token();
    assert.deepEqual(await post(bodyOf(under, limit - 1)), { status: 200, body: { status: 200, message: 'OK' } });
    assert.equal((await stored(under)).length, 1000);
    const over = token();
    const res = await post(bodyOf(over, limit));
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 413);
    assert.equal((await stored(over)).length, 0);
  });

  it('accepts 1000 events in one request and refuses 1001 (422)', async () => {
    const ok = token();
    assert.equal((await post({ events: Array.from({ length: 1000 }, () => view(ok)) })).status, 200);
    assert.equal((await stored(ok)).length, 1000);
    const tooMany = token();
    const res = await post({ events: Array.from({ length: 1001 }, () => view(tooMany)) });
    assert.equal(res.status, 422);
    assert.equal(res.body.status, 422);
    assert.match(res.body.message ?? '', /at most 1000/);
    assert.equal((await stored(tooMany)).length, 0);
  });

  it('refuses a body without an events array, an empty list, and malformed JSON', async () => {
    assert.equal((await post({})).status, 422);
    assert.equal((await post({ events: [] })).status, 422);
    assert.equal((await post({ events: 'nope' })).status, 422);
    const malformed = await post('{"events": [');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.status, 400);
  });

  it('names the first invalid event, and stores nothing when any event is invalid', async () => {
    const userToken = token();
    const res = await post({
      events: [
        view(userToken),
        view(userToken),
        view(userToken, { eventType: 'bogus' }),
        view(userToken, { userToken: 'b@d' }),
      ],
    });
    assert.equal(res.status, 422);
    assert.match(res.body.message ?? '', /^events\[2\]\.eventType/);
    assert.equal((await stored(userToken)).length, 0);
  });
});

describe('POST /1/events: event fields', () => {
  it('eventType: click, view and conversion are accepted; anything else or missing is refused', async () => {
    await accepted(view(token()));
    await accepted({ ...view(token()), eventType: 'conversion', eventName: 'Added to cart' });
    await accepted({ ...view(token()), eventType: 'click', eventName: 'Hit Clicked' });
    await refused(view(token(), { eventType: 'purchase' }), 'eventType');
    const { eventType: _omit, ...noType } = view(token());
    await refused(noType, 'eventType');
  });

  it('eventName: 1 to 64 ASCII characters without control characters', async () => {
    await accepted(view(token(), { eventName: 'x'.repeat(64) }));
    await accepted(view(token(), { eventName: 'A' }));
    await accepted(view(token(), { eventName: 'Product Added ~!@#$%^&*()' }));
    await refused(view(token(), { eventName: 'x'.repeat(65) }), 'eventName');
    await refused(view(token(), { eventName: '' }), 'eventName');
    await refused(view(token(), { eventName: 'Tab\tName' }), 'eventName');
    await refused(view(token(), { eventName: 'Vue détaillée' }), 'eventName');
    await refused(view(token(), { eventName: 42 }), 'eventName');
  });

  it('index: required string', async () => {
    await accepted(view(token(), { index: 'any-index_name' }));
    const { index: _omit, ...noIndex } = view(token());
    await refused(noIndex, 'index');
    await refused(view(token(), { index: '' }), 'index');
  });

  it('userToken: [a-zA-Z0-9_-=/+]{1,128}', async () => {
    await accepted(view(`aZ09_-=/+${process.pid}${++tokenSeq}`));
    await accepted(view(`${'a'.repeat(120)}${String(++tokenSeq).padStart(8, '0')}`));
    await refused(view('a'.repeat(129)), 'userToken');
    await refused(view('user@example.com'), 'userToken');
    await refused(view('with space'), 'userToken');
    await refused(view(''), 'userToken');
    const { userToken: _omit, ...noToken } = view(token());
    await refused(noToken, 'userToken');
  });

  it('timestamp: optional; at most four days old; not in the future beyond a small skew; integer ms', async () => {
    const now = Date.now();
    await accepted(view(token(), { timestamp: now - 3.9 * 24 * 3600 * 1000 }));
    await accepted(view(token(), { timestamp: now + 60_000 }));
    const t = token();
    await accepted(view(t));
    const [withoutTimestamp] = await stored(t);
    assert.ok(
      Math.abs((withoutTimestamp!.timestamp as number) - Date.now()) < 60_000,
      'defaults to the time of receipt',
    );
    await refused(view(token(), { timestamp: now - 4.1 * 24 * 3600 * 1000 }), 'timestamp');
    await refused(view(token(), { timestamp: now + 2 * 3600 * 1000 }), 'timestamp');
    await refused(view(token(), { timestamp: now + 0.5 }), 'timestamp');
    await refused(view(token(), { timestamp: String(now) }), 'timestamp');
  });

  it('queryID: optional non-empty string', async () => {
    await accepted(view(token(), { queryID: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4' }));
    await refused(view(token(), { queryID: '' }), 'queryID');
    await refused(view(token(), { queryID: 7 }), 'queryID');
  });

  it('objectIDs xor filters: one resource type per event', async () => {
    await accepted(view(token(), { objectIDs: ['1', '2', '3'] }));
    const t = token();
    const { objectIDs: _omit, ...filtersOnly } = view(t, { filters: ['brand:Apple'] });
    await accepted(filtersOnly);
    await refused(view(token(), { filters: ['brand:Apple'] }), 'objectIDs');
    const { objectIDs: _none, ...neither } = view(token());
    await refused(neither, 'objectIDs');
    await refused(view(token(), { objectIDs: [] }), 'objectIDs');
    await refused(view(token(), { objectIDs: [1] }), 'objectIDs');
  });

  it('filters: at most 10, each of the form attribute:value', async () => {
    const filters = (n: number) => Array.from({ length: n }, (_, i) => `brand:b${i}`);
    const event = (f: unknown) => {
      const { objectIDs: _omit, ...rest } = view(token(), { filters: f });
      return rest;
    };
    await accepted(event(filters(10)));
    await accepted(event(['price:10:20']));
    await refused(event(filters(11)), 'filters');
    await refused(event(['brand']), 'filters[0]');
    await refused(event(['brand:Apple', ':Apple']), 'filters[1]');
    await refused(event(['brand:']), 'filters[0]');
  });

  it('positions: only on clicks, one per objectID, required for clicks with a queryID', async () => {
    const click = (extra: Record<string, unknown>) =>
      view(token(), {
        eventType: 'click',
        eventName: 'Hit Clicked',
        queryID: 'q'.repeat(32),
        objectIDs: ['1', '2'],
        positions: [3, 13],
        ...extra,
      });
    await accepted(click({}));
    const { queryID: _q, positions: _p, ...clickWithoutSearch } = click({});
    await accepted(clickWithoutSearch);
    const { positions: _missing, ...clickWithoutPositions } = click({});
    await refused(clickWithoutPositions, 'positions');
    await refused(click({ positions: [3] }), 'positions');
    await refused(click({ positions: [3, 0] }), 'positions');
    await refused(click({ positions: [3, 1.5] }), 'positions');
    await refused(view(token(), { positions: [1] }), 'positions');
    await refused(view(token(), { eventType: 'conversion', queryID: 'q'.repeat(32), positions: [1] }), 'positions');
  });
});

describe('stored events', () => {
  it('are read back with what they refer to (the search of their queryID: index, query, position)', async () => {
    const indexName = `insights_refs_${process.pid}`;
    const records = Array.from({ length: 30 }, (_, i) => ({
      objectID: `p${i}`,
      name: `lamp model ${i}`,
      rank: 100 - i,
    }));
    const batch = await fetch(`${base}/1/indexes/${indexName}/batch`, {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: records.map((body) => ({ action: 'addObject', body })) }),
    });
    assert.equal(batch.status, 200);
    const settings = await fetch(`${base}/1/indexes/${indexName}/settings`, {
      method: 'PUT',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ customRanking: ['desc(rank)'] }),
    });
    assert.equal(settings.status, 200);
    const search = await fetch(`${base}/1/indexes/${indexName}/query`, {
      method: 'POST',
      headers: { ...SEARCH, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'lamp', page: 1, hitsPerPage: 10, clickAnalytics: true }),
    });
    assert.equal(search.status, 200);
    const answer = (await search.json()) as { queryID: string; hits: Array<{ objectID: string }> };
    assert.ok(answer.queryID);
    const third = answer.hits[2]!.objectID;
    const userToken = token();
    const res = await post({
      events: [
        {
          eventType: 'click',
          eventName: 'Hit Clicked',
          index: indexName,
          userToken,
          queryID: answer.queryID,
          objectIDs: [third],
          positions: [13],
        },
        {
          eventType: 'conversion',
          eventName: 'Added to cart',
          index: indexName,
          userToken,
          queryID: answer.queryID,
          objectIDs: [third, 'not-in-answer'],
        },
      ],
    });
    assert.equal(res.status, 200);
    const [click, conversion] = await stored(userToken);
    assert.equal(click!.queryID, answer.queryID);
    assert.deepEqual(click!.positions, [13]);
    assert.deepEqual(click!.search, {
      indexName,
      query: 'lamp',
      at: (click!.search as { at: number }).at,
      positions: [13],
      withinWindow: true,
    });
    assert.deepEqual((conversion!.search as { positions: unknown }).positions, [13, null]);
    assert.equal(conversion!.positions, undefined);
  });

  it('are stored once when a request is re-sent (same event, same client timestamp)', async () => {
    const userToken = token();
    const timestamp = Date.now();
    const events = [view(userToken, { timestamp }), view(userToken, { timestamp, objectIDs: ['2'] })];
    assert.equal((await post({ events })).status, 200);
    assert.equal((await post({ events })).status, 200);
    assert.equal((await stored(userToken)).length, 2);
    // Events without their own timestamp are distinct receipts.
    assert.equal((await post({ events: [view(userToken)] })).status, 200);
    assert.equal((await post({ events: [view(userToken)] })).status, 200);
    assert.equal((await stored(userToken)).length, 4);
  });

  it("signal 'events' in process and are readable through the EventStore", async () => {
    const userToken = token();
    const seen: unknown[] = [];
    const off = service.services.events.on('insights:events', (payload) => {
      seen.push(payload);
    });
    assert.equal((await post({ events: [view(userToken), view(userToken, { objectIDs: ['9'] })] })).status, 200);
    off();
    assert.equal(seen.length, 1);
    assert.deepEqual(
      (seen[0] as Array<{ userToken: string }>).map((e) => e.userToken),
      [userToken, userToken],
    );
    const store = service.services.insights;
    assert.deepEqual(
      (await store.query({ userToken })).map((e) => e.objectIDs),
      [['1'], ['9']],
    );
    assert.equal((await store.query({ userToken, eventType: 'click' })).length, 0);
    assert.equal((await store.query({ userToken, limit: 1 })).length, 1);
    assert.equal(await store.count({ userToken }), 2);
  });

  it('append validates shapes (no age rule, for seeded history) and query filters by index, type, time', async () => {
    const store = service.services.insights;
    const userToken = token();
    const old = Date.now() - 30 * 24 * 3600 * 1000;
    const rows = await store.append([
      {
        eventType: 'conversion',
        eventName: 'Order',
        index: 'seeded',
        userToken,
        objectIDs: ['a', 'b'],
        timestamp: old,
      },
      { eventType: 'conversion', eventName: 'Order', index: 'seeded', userToken, objectIDs: ['c'] },
    ]);
    assert.equal(rows.length, 2);
    assert.equal((await store.query({ index: 'seeded', userToken, since: old + 1 })).length, 1);
    assert.equal((await store.query({ index: 'seeded', userToken, until: old + 1 })).length, 1);
    await assert.rejects(
      () =>
        store.append([
          { eventType: 'view', eventName: 'x', index: 'seeded', userToken: 'bad token', objectIDs: ['a'] } as never,
        ]),
      /events\[0\]\.userToken/,
    );
  });

  it('survive a restart of the service (durable in sqlite)', async () => {
    const userToken = token();
    assert.equal((await post({ events: [view(userToken)] })).status, 200);
    await service.close();
    service = await createService({ dataDir });
    base = (await service.listen(0, '127.0.0.1')).url.replace(/\/$/, '');
    assert.equal((await stored(userToken)).length, 1);
  });
});

describe('GET /1/_local/events (the service’s own admin listing)', () => {
  it('needs the admin key', async () => {
    assert.equal((await fetch(`${base}/1/_local/events`, { headers: SEARCH })).status, 403);
    assert.equal((await fetch(`${base}/1/_local/events`)).status, 403);
    assert.equal((await fetch(`${base}/1/_local/events?limit=1`, { headers: ADMIN })).status, 200);
  });

  it('filters by index, eventType and userToken and limits', async () => {
    const userToken = token();
    await post({
      events: [view(userToken), view(userToken, { eventType: 'conversion', eventName: 'Bought', index: 'other' })],
    });
    const get = async (query: string) =>
      (await (await fetch(`${base}/1/_local/events?userToken=${userToken}&${query}`, { headers: ADMIN })).json()) as {
        events: unknown[];
        nbEvents: number;
      };
    assert.equal((await get('')).nbEvents, 2);
    assert.equal((await get('index=other')).events.length, 1);
    assert.equal((await get('eventType=view')).events.length, 1);
    assert.equal((await get('limit=1')).events.length, 1);
    assert.equal((await get('limit=1')).nbEvents, 2);
    assert.equal((await fetch(`${base}/1/_local/events?eventType=bogus`, { headers: ADMIN })).status, 400);
  });
});
