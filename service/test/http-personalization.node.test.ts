/**
 * Personalization over HTTP (document 2, "Endpoints > Personalization") on the real service, events sent
 * through `POST /1/events`: strategy validation and round trip, profiles against values worked out by
 * hand, the bound of 20, delete + deletedUntil + later events, rights, personalised search ranking (and
 * unchanged results without it), the official v5 Personalization client, persistence across a restart; and
 * the engine path of the benchmark, unchanged when personalisation is off.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { algoliasearch } from 'algoliasearch';
import { syntheticProducts, syntheticQueries } from '../src/datasets/synthetic.js';
import { Index } from '../src/engine/index.js';
import { APP_ID, index, SEARCH_KEY, securedKey, startService, type Running } from './service-helpers.js';

const MIN = 60 * 1000;

/**
 * Every record matches "chair" the same way (one word, no typo, second word of the name, exact), so
 * without personalisation the custom ranking (popularity) alone orders them: C1, C2, C3, C4, C5.
 */
const CHAIRS = [
  { objectID: 'C1', name: 'Office chair', brand: 'Hon', category: 'Chairs', popularity: 50 },
  { objectID: 'C2', name: 'Desk chair', brand: 'Acme', category: 'Chairs', popularity: 40 },
  { objectID: 'C3', name: 'Lounge chair', brand: 'Hon', category: 'Lounge', popularity: 30 },
  { objectID: 'C4', name: 'Folding chair', brand: 'Acme', category: 'Outdoor', popularity: 20 },
  { objectID: 'C5', name: 'Kids chair', brand: 'Zeta', category: ['Chairs', 'Kids'], popularity: 10 },
  { objectID: 'L1', name: 'Desk lamp', brand: 'Acme', category: 'Lighting', popularity: 60 },
];
const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['brand', 'category'],
  customRanking: ['desc(popularity)'],
};
const BASELINE = ['C1', 'C2', 'C3', 'C4', 'C5'];

const STRATEGY = {
  eventsScoring: [
    { eventName: 'Product Clicked', eventType: 'click', score: 10 },
    { eventName: 'Order Completed', eventType: 'conversion', score: 50 },
    { eventName: 'Filter Applied', eventType: 'click', score: 20 },
  ],
  facetsScoring: [
    { facetName: 'brand', score: 60 },
    { facetName: 'category', score: 30 },
  ],
  personalizationImpact: 100,
};

let svc: Running;
let recommendKey: string;
const t0 = Date.now() - 60 * MIN;

type Event = Record<string, unknown>;
const click = (userToken: string, objectIDs: string[], timestamp: number): Event => ({
  eventType: 'click',
  eventName: 'Product Clicked',
  index: 'products',
  userToken,
  objectIDs,
  timestamp,
});
const order = (userToken: string, objectIDs: string[], timestamp: number): Event => ({
  eventType: 'conversion',
  eventName: 'Order Completed',
  index: 'products',
  userToken,
  objectIDs,
  timestamp,
});

async function send(events: Event[]) {
  const answer = await svc.call('POST', '/1/events', { events }, { key: SEARCH_KEY });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

async function search(
  params: Record<string, unknown>,
  options: { key?: string; headers?: Record<string, string> } = {},
) {
  const answer = await svc.call(
    'POST',
    '/1/indexes/products/query',
    { query: 'chair', ...params },
    { key: options.key ?? SEARCH_KEY, ...(options.headers ? { headers: options.headers } : {}) },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as { hits: Array<Record<string, any>>; params: string; processingTimeMS: number };
}
const ids = (body: { hits: Array<Record<string, any>> }): string[] => body.hits.map((hit) => hit.objectID as string);
/** The answer without the one field that varies from call to call. */
const stable = (body: Record<string, unknown>) => JSON.stringify({ ...body, processingTimeMS: 0 });

const profile = (userToken: string, key = recommendKey) =>
  svc.call('GET', `/1/profiles/personalization/${encodeURIComponent(userToken)}`, undefined, { key });

/** Answers recorded before any strategy exists: what a search answers "today". */
let before0: { plain: string; plainWithUser: string; nobody: string };

before(async () => {
  svc = await startService();
  await index(svc, 'products', CHAIRS, SETTINGS);
  recommendKey = (await svc.ok('POST', '/1/keys', { acl: ['recommendation'], description: 'personalization backend' }))
    .key;
  before0 = {
    plain: stable(await search({ getRankingInfo: true })),
    plainWithUser: stable(await search({ getRankingInfo: true, userToken: 'alice', enablePersonalization: true })),
    nobody: stable(await search({ getRankingInfo: true, userToken: 'nobody', enablePersonalization: true })),
  };
});

after(async () => {
  await svc.stop();
});

describe('strategy', () => {
  test('GET before any strategy is 404', async () => {
    const answer = await svc.call('GET', '/1/strategies/personalization', undefined, { key: recommendKey });
    assert.equal(answer.status, 404);
    assert.match(answer.body.message, /No personalization strategy/);
  });

  test('invalid strategies are 422 naming the field; nothing is stored', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ facetsScoring: STRATEGY.facetsScoring, personalizationImpact: 50 }, /^eventsScoring: required/],
      [{ eventsScoring: STRATEGY.eventsScoring, personalizationImpact: 50 }, /^facetsScoring: required/],
      [
        { eventsScoring: STRATEGY.eventsScoring, facetsScoring: STRATEGY.facetsScoring },
        /^personalizationImpact: required/,
      ],
      [{ ...STRATEGY, personalizationImpact: 101 }, /^personalizationImpact: must be an integer from 0 to 100/],
      [{ ...STRATEGY, personalizationImpact: 'high' }, /^personalizationImpact: must be an integer/],
      [{ ...STRATEGY, eventsScoring: 'click' }, /^eventsScoring: must be an array/],
      [{ ...STRATEGY, eventsScoring: [] }, /^eventsScoring: must hold at least one entry/],
      [
        { ...STRATEGY, eventsScoring: [{ eventName: 'Bought', eventType: 'purchase', score: 5 }] },
        /^eventsScoring\[0\]\.eventType: must be one of click, conversion, view/,
      ],
      [{ ...STRATEGY, eventsScoring: [{ eventType: 'click', score: 5 }] }, /^eventsScoring\[0\]\.eventName: required/],
      [
        { ...STRATEGY, eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 0 }] },
        /^eventsScoring\[0\]\.score: must be an integer from 1 to 100/,
      ],
      [
        { ...STRATEGY, eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 2.5 }] },
        /^eventsScoring\[0\]\.score: must be an integer/,
      ],
      [
        { ...STRATEGY, eventsScoring: [STRATEGY.eventsScoring[0], { ...STRATEGY.eventsScoring[0], score: 3 }] },
        /^eventsScoring\[1\]: duplicate/,
      ],
      [
        { ...STRATEGY, facetsScoring: [{ facetName: '', score: 5 }] },
        /^facetsScoring\[0\]\.facetName: must be a non-empty string/,
      ],
      [
        { ...STRATEGY, facetsScoring: [{ facetName: 'brand', score: 500 }] },
        /^facetsScoring\[0\]\.score: must be an integer from 1 to 100/,
      ],
      [{ ...STRATEGY, facetsScoring: [{ facetName: 'brand' }] }, /^facetsScoring\[0\]\.score: required/],
      [
        { ...STRATEGY, facetsScoring: [{ facetName: 'brand', score: 5, weight: 2 }] },
        /^facetsScoring\[0\]\.weight: unexpected field/,
      ],
      [{ ...STRATEGY, extra: true }, /^body\.extra: unexpected field/],
      [[STRATEGY], /^body: must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const answer = await svc.call('POST', '/1/strategies/personalization', body, { key: recommendKey });
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.match(answer.body.message, message, JSON.stringify(body));
    }
    const malformed = await svc.call('POST', '/1/strategies/personalization', undefined, {
      key: recommendKey,
      raw: '{"eventsScoring": [',
    });
    assert.equal(malformed.status, 400);
    assert.equal(
      (await svc.call('GET', '/1/strategies/personalization', undefined, { key: recommendKey })).status,
      404,
    );
  });

  test('POST answers {status, message}; GET answers the strategy as set', async () => {
    const answer = await svc.call('POST', '/1/strategies/personalization', STRATEGY, { key: recommendKey });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 200, message: 'Strategy was successfully updated' });
    const read = await svc.call('GET', '/1/strategies/personalization', undefined, { key: recommendKey });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, STRATEGY);
  });
});

describe('profiles', () => {
  before(async () => {
    await send([
      // alice: brand Acme 10×60 + 50×60 = 3,600 points; category Outdoor 10×30 = 300, Chairs 50×30 = 1,500,
      // Lighting 20×30 = 600 (a Filter Applied click: its attribute:value counts directly).
      click('alice', ['C4'], t0),
      order('alice', ['C2'], t0 + 1 * MIN),
      {
        eventType: 'click',
        eventName: 'Filter Applied',
        index: 'products',
        userToken: 'alice',
        filters: ['category:Lighting'],
        timestamp: t0 + 2 * MIN,
      },
      // Not in the strategy: no points, and not her lastEventAt.
      {
        eventType: 'view',
        eventName: 'Product Viewed',
        index: 'products',
        userToken: 'alice',
        objectIDs: ['C1'],
        timestamp: t0 + 9 * MIN,
      },
      {
        eventType: 'click',
        eventName: 'Other Click',
        index: 'products',
        userToken: 'alice',
        objectIDs: ['C3'],
        timestamp: t0 + 9 * MIN,
      },
      // An unknown record gives no points (the event still counts for lastEventAt).
      click('alice', ['NOPE'], t0 + 3 * MIN),
      // carol: one click on C3 → Hon 600, Lounge 300.
      click('carol', ['C3'], t0 + 4 * MIN),
      // bound: erin converts C2 ten times and clicks C4 once → Acme 10×3,000 + 600 = 30,600, Chairs 15,000, Outdoor 300.
      ...Array.from({ length: 10 }, (_, i) => order('erin', ['C2'], t0 + i * MIN)),
      click('erin', ['C4'], t0 + 20 * MIN),
      // frank's only event is not scored by the strategy: no profile.
      {
        eventType: 'view',
        eventName: 'Product Viewed',
        index: 'products',
        userToken: 'frank',
        objectIDs: ['C1'],
        timestamp: t0,
      },
    ]);
  });

  test('scores worked out by hand, scaled so the top value is 20', async () => {
    const answer = await profile('alice');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    // max = 3,600: Acme 20; Chairs round(20 × 1,500 / 3,600) = round(8.33) = 8; Lighting round(3.33) = 3; Outdoor round(1.67) = 2
    assert.deepEqual(answer.body, {
      userToken: 'alice',
      lastEventAt: new Date(t0 + 3 * MIN).toISOString(),
      scores: { brand: { Acme: 20 }, category: { Chairs: 8, Lighting: 3, Outdoor: 2 } },
    });
    // order of the answer: facets as in the strategy, values best first
    assert.deepEqual(Object.keys(answer.body.scores.category), ['Chairs', 'Lighting', 'Outdoor']);

    const carol = await profile('carol');
    // max = 600: Hon 20, Lounge round(20 × 300 / 600) = 10
    assert.deepEqual(carol.body, {
      userToken: 'carol',
      lastEventAt: new Date(t0 + 4 * MIN).toISOString(),
      scores: { brand: { Hon: 20 }, category: { Lounge: 10 } },
    });
  });

  test('scores are bounded 1–20 however many events', async () => {
    const answer = await profile('erin');
    // max = 30,600: Acme 20; Chairs round(20 × 15,000 / 30,600) = round(9.80) = 10; Outdoor round(0.196) = 0 → at least 1
    assert.deepEqual(answer.body.scores, { brand: { Acme: 20 }, category: { Chairs: 10, Outdoor: 1 } });
    for (const values of Object.values(answer.body.scores as Record<string, Record<string, number>>)) {
      for (const score of Object.values(values)) assert.ok(Number.isInteger(score) && score >= 1 && score <= 20);
    }
  });

  test('404 for a user without a counted event, and for an unknown user', async () => {
    for (const user of ['frank', 'nobody']) {
      const answer = await profile(user);
      assert.equal(answer.status, 404);
      assert.match(answer.body.message, /No personalization profile/);
    }
  });

  test('new events update a profile at once (incrementally)', async () => {
    await send([click('gina', ['C5'], t0)]);
    // C5 has two categories: each gets the points. Zeta 600, Chairs 300, Kids 300
    assert.deepEqual((await profile('gina')).body.scores, { brand: { Zeta: 20 }, category: { Chairs: 10, Kids: 10 } });
    await send([order('gina', ['C1'], t0 + MIN)]);
    // + Hon 3,000, Chairs 1,500: Hon 3,000 → 20; Chairs 1,800 → 12; Zeta 600 → 4; Kids 300 → 2
    const answer = await profile('gina');
    assert.deepEqual(answer.body.scores, { brand: { Hon: 20, Zeta: 4 }, category: { Chairs: 12, Kids: 2 } });
    assert.equal(answer.body.lastEventAt, new Date(t0 + MIN).toISOString());
  });
});

describe('rights', () => {
  test('no or wrong credentials: 401; a key without the recommendation right (the search key): 403', async () => {
    const searchOnly = (await svc.ok('POST', '/1/keys', { acl: ['search', 'analytics'] })).key as string;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/1/strategies/personalization'],
      ['POST', '/1/strategies/personalization', STRATEGY],
      ['GET', '/1/profiles/personalization/alice'],
      ['DELETE', '/1/profiles/alice'],
    ];
    for (const [method, path, body] of calls) {
      assert.equal((await svc.call(method, path, body, { key: null })).status, 401, `${method} ${path} without a key`);
      const wrong = await svc.call(method, path, body, { key: 'not-a-key' });
      assert.equal(wrong.status, 401, `${method} ${path} wrong key`);
      assert.equal(wrong.body.message, 'Invalid Application-Id or API-Key');
      assert.equal(
        (await svc.call(method, path, body, { key: SEARCH_KEY })).status,
        403,
        `${method} ${path} search key`,
      );
      const other = await svc.call(method, path, body, { key: searchOnly });
      assert.equal(other.status, 403, `${method} ${path} key without the right`);
      assert.match(other.body.message, /recommendation/);
    }
    // the admin key has every right
    assert.equal((await svc.call('GET', '/1/profiles/personalization/alice')).status, 200);
    assert.equal(
      (await svc.call('GET', '/1/profiles/personalization/alice', undefined, { key: recommendKey })).status,
      200,
    );
  });
});

describe('search', () => {
  test('a profile favouring Acme ranks Acme first among records tied on the text (hand-checked order)', async () => {
    assert.deepEqual(ids(await search({})), BASELINE);
    const body = await search({ enablePersonalization: true, userToken: 'alice', getRankingInfo: true });
    // filtersScore = brand + category: C1 0 + 8 = 8, C2 20 + 8 = 28, C3 0, C4 20 + 2 = 22, C5 0 + 8 (Chairs) = 8
    // → C2 (28), C4 (22), C1 and C5 (8; popularity 50 before 10), C3 (0)
    assert.deepEqual(ids(body), ['C2', 'C4', 'C1', 'C5', 'C3']);
    assert.deepEqual(
      body.hits.map((hit) => hit._rankingInfo.personalization),
      [
        { filtersScore: 28, rankingScore: 28, score: 28 },
        { filtersScore: 22, rankingScore: 22, score: 22 },
        { filtersScore: 8, rankingScore: 8, score: 8 },
        { filtersScore: 8, rankingScore: 8, score: 8 },
        { filtersScore: 0, rankingScore: 0, score: 0 },
      ],
    );
    // "desk" matches C2 and the lamp L1 alike; L1 is more popular, but for alice C2 scores 20 (Acme) + 8 (Chairs)
    // = 28 and L1 20 + 3 (Lighting) = 23
    const desk = await svc.call(
      'POST',
      '/1/indexes/products/query',
      { query: 'desk', enablePersonalization: true, userToken: 'alice' },
      { key: SEARCH_KEY },
    );
    assert.deepEqual(ids(desk.body), ['C2', 'L1']);
    assert.deepEqual(
      ids((await svc.call('POST', '/1/indexes/products/query', { query: 'desk' }, { key: SEARCH_KEY })).body),
      ['L1', 'C2'],
    );
  });

  test('another user gets their own order; a user without profile and a search without enablePersonalization the usual one', async () => {
    // carol: Hon 20, Lounge 10 → C3 30, C1 20, others 0 (popularity: C2, C4, C5)
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'carol' })), [
      'C3',
      'C1',
      'C2',
      'C4',
      'C5',
    ]);
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'nobody' })), BASELINE);
    assert.deepEqual(ids(await search({ enablePersonalization: false, userToken: 'alice' })), BASELINE);
    assert.deepEqual(ids(await search({ userToken: 'alice' })), BASELINE);
    assert.deepEqual(ids(await search({ enablePersonalization: true })), BASELINE, 'no user');
  });

  test('without personalisation the answers are byte for byte those from before any strategy', async () => {
    assert.equal(stable(await search({ getRankingInfo: true })), before0.plain);
    // alice had no profile then; now she has one but the query does not ask for personalisation
    const noFlag = await search({ getRankingInfo: true, userToken: 'alice', enablePersonalization: false });
    assert.deepEqual(JSON.stringify(noFlag.hits), JSON.stringify(JSON.parse(before0.plain).hits));
    // with the flag and impact 0: the hits alice got before she had a profile
    const impactZero = await search({
      getRankingInfo: true,
      userToken: 'alice',
      enablePersonalization: true,
      personalizationImpact: 0,
    });
    assert.equal(JSON.stringify(impactZero.hits), JSON.stringify(JSON.parse(before0.plainWithUser).hits));
    // a user without profile, with the flag: the whole answer is the one from before any strategy
    const nobody = await search({ getRankingInfo: true, userToken: 'nobody', enablePersonalization: true });
    assert.equal(stable(nobody), before0.nobody);
    assert.equal(JSON.stringify(nobody.hits), JSON.stringify(JSON.parse(before0.plain).hits));
    assert.ok(!('personalization' in nobody.hits[0]!._rankingInfo));
  });

  test('a smaller impact buckets the scores: it decides less often', async () => {
    const at = async (impact: number) =>
      search({ enablePersonalization: true, userToken: 'alice', personalizationImpact: impact, getRankingInfo: true });
    // 50: ⌊28/2⌋ = 14, ⌊22/2⌋ = 11, 4, 4, 0 → the same order as 100
    assert.deepEqual(ids(await at(50)), ['C2', 'C4', 'C1', 'C5', 'C3']);
    // 10: ⌊2.8⌋ = 2, ⌊2.2⌋ = 2, ⌊0.8⌋ = 0, 0, 0 → C2 and C4 tie (popularity), then C1, C3, C5 by popularity
    const ten = await at(10);
    assert.deepEqual(ids(ten), ['C2', 'C4', 'C1', 'C3', 'C5']);
    assert.deepEqual(ten.hits[1]!._rankingInfo.personalization, { filtersScore: 22, rankingScore: 2, score: 2.2 });
    // 3: ⌊0.84⌋ = 0 for everyone → the usual order
    assert.deepEqual(ids(await at(3)), BASELINE);
    const bad = await svc.call(
      'POST',
      '/1/indexes/products/query',
      { query: 'chair', enablePersonalization: true, userToken: 'alice', personalizationImpact: 120 },
      { key: SEARCH_KEY },
    );
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /personalizationImpact/);
  });

  test('the user from the X-Service-UserToken header, a secured key, GET and multi-query', async () => {
    assert.deepEqual(
      ids(await search({ enablePersonalization: true }, { headers: { 'X-Service-UserToken': 'alice' } })),
      ['C2', 'C4', 'C1', 'C5', 'C3'],
    );
    // a secured key's userToken replaces the query's
    const carolKey = securedKey(SEARCH_KEY, { userToken: 'carol' });
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' }, { key: carolKey })), [
      'C3',
      'C1',
      'C2',
      'C4',
      'C5',
    ]);
    const get = await svc.call(
      'GET',
      '/1/indexes/products?query=chair&enablePersonalization=true&userToken=alice',
      undefined,
      { key: SEARCH_KEY },
    );
    assert.deepEqual(ids(get.body), ['C2', 'C4', 'C1', 'C5', 'C3']);
    const multi = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      {
        requests: [
          { indexName: 'products', query: 'chair', enablePersonalization: true, userToken: 'carol' },
          { indexName: 'products', params: 'query=chair&enablePersonalization=true&userToken=alice' },
        ],
      },
      { key: SEARCH_KEY },
    );
    assert.deepEqual(multi.body.results.map(ids), [
      ['C3', 'C1', 'C2', 'C4', 'C5'],
      ['C2', 'C4', 'C1', 'C5', 'C3'],
    ]);
  });

  test('a strategy with impact 0 turns it off; a new strategy recomputes the profiles', async () => {
    await svc.ok(
      'POST',
      '/1/strategies/personalization',
      { ...STRATEGY, personalizationImpact: 0 },
      { key: recommendKey },
    );
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' })), BASELINE);
    // the query's own impact still applies
    assert.deepEqual(
      ids(await search({ enablePersonalization: true, userToken: 'alice', personalizationImpact: 100 })),
      ['C2', 'C4', 'C1', 'C5', 'C3'],
    );

    // category only: alice Chairs 1,500 → 20, Lighting 600 → 8, Outdoor 300 → 4
    await svc.ok(
      'POST',
      '/1/strategies/personalization',
      { ...STRATEGY, facetsScoring: [{ facetName: 'category', score: 30 }] },
      { key: recommendKey },
    );
    assert.deepEqual((await profile('alice')).body.scores, { category: { Chairs: 20, Lighting: 8, Outdoor: 4 } });
    // C1, C2, C5 (Chairs, 20) by popularity, then C4 (4), C3 (0)
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' })), [
      'C1',
      'C2',
      'C5',
      'C4',
      'C3',
    ]);
    await svc.ok('POST', '/1/strategies/personalization', STRATEGY, { key: recommendKey });
    assert.deepEqual((await profile('alice')).body.scores, {
      brand: { Acme: 20 },
      category: { Chairs: 8, Lighting: 3, Outdoor: 2 },
    });
  });
});

describe('official client', () => {
  test('the algoliasearch v5 Personalization client (credential header names renamed only) reads and writes the same resources', async () => {
    const requester = {
      async send(request: {
        method: string;
        url: string;
        headers: Record<string, string>;
        data?: string | Uint8Array;
      }) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          headers[name.replace(/^x-algolia-/i, 'x-service-')] = value;
        const body = request.data;
        const response = await fetch(request.url, {
          method: request.method,
          headers,
          body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
        });
        return { content: await response.text(), isTimedOut: false, status: response.status };
      },
    };
    const { host } = new URL(svc.url);
    const client = algoliasearch(APP_ID, recommendKey).initPersonalization({
      region: 'us',
      options: { hosts: [{ url: host, accept: 'readWrite', protocol: 'http' }], requester },
    });
    assert.deepEqual(await client.getPersonalizationStrategy(), STRATEGY);
    const set = await client.setPersonalizationStrategy(
      STRATEGY as Parameters<typeof client.setPersonalizationStrategy>[0],
    );
    assert.equal(set.message, 'Strategy was successfully updated');
    const carol = await client.getUserTokenProfile({ userToken: 'carol' });
    assert.deepEqual(carol.scores, { brand: { Hon: 20 }, category: { Lounge: 10 } });
    await assert.rejects(
      client.getUserTokenProfile({ userToken: 'nobody' }),
      (error: { status?: number }) => error.status === 404,
    );
  });
});

describe('delete and restart', () => {
  let deletedUntil: string;

  test('DELETE answers {userToken, deletedUntil}; the profile is gone; earlier events stay ignored, later ones start a new profile', async () => {
    const answer = await svc.call('DELETE', '/1/profiles/alice', undefined, { key: recommendKey });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body), ['userToken', 'deletedUntil']);
    assert.equal(answer.body.userToken, 'alice');
    deletedUntil = answer.body.deletedUntil;
    assert.equal(new Date(deletedUntil).toISOString(), deletedUntil);
    // at least her latest stored event (the view at t0 + 9 min), and now
    assert.ok(Date.parse(deletedUntil) >= t0 + 9 * MIN);
    assert.ok(Math.abs(Date.parse(deletedUntil) - Date.now()) < 60_000);
    assert.equal((await profile('alice')).status, 404);
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' })), BASELINE);

    // an event from before deletedUntil (sent late) is ignored
    await send([order('alice', ['C2'], Date.parse(deletedUntil) - 5 * MIN)]);
    assert.equal((await profile('alice')).status, 404);
    // nothing new since the deletion: 404
    assert.equal((await svc.call('DELETE', '/1/profiles/alice', undefined, { key: recommendKey })).status, 404);
    assert.equal((await svc.call('DELETE', '/1/profiles/nobody', undefined, { key: recommendKey })).status, 404);

    // a later event starts a new profile: one click on C3 → Hon 20, Lounge 10
    const later = Date.parse(deletedUntil) + 1000;
    await send([click('alice', ['C3'], later)]);
    assert.deepEqual((await profile('alice')).body, {
      userToken: 'alice',
      lastEventAt: new Date(later).toISOString(),
      scores: { brand: { Hon: 20 }, category: { Lounge: 10 } },
    });
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' })), [
      'C3',
      'C1',
      'C2',
      'C4',
      'C5',
    ]);
  });

  test('strategy, deletions and profiles survive a restart', async () => {
    const profilesBefore = await Promise.all(
      ['alice', 'carol', 'erin', 'gina'].map(async (user) => (await profile(user)).body),
    );
    const dataDir = svc.dataDir;
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir });
    assert.deepEqual(
      (await svc.call('GET', '/1/strategies/personalization', undefined, { key: recommendKey })).body,
      STRATEGY,
    );
    const profilesAfter = await Promise.all(
      ['alice', 'carol', 'erin', 'gina'].map(async (user) => (await profile(user)).body),
    );
    assert.deepEqual(profilesAfter, profilesBefore);
    // alice's deletion still holds: only the click after it counts
    assert.deepEqual(profilesAfter[0].scores, { brand: { Hon: 20 }, category: { Lounge: 10 } });
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'alice' })), [
      'C3',
      'C1',
      'C2',
      'C4',
      'C5',
    ]);
    assert.deepEqual(ids(await search({ enablePersonalization: true, userToken: 'carol' })), [
      'C3',
      'C1',
      'C2',
      'C4',
      'C5',
    ]);
    assert.deepEqual(ids(await search({})), BASELINE);
  });
});

describe('engine benchmark path', () => {
  test('the bench engine section searches give the same answers with personalisation off (no options, or options without a profile)', () => {
    // The same index as bench/engine.ts (`ours()`), on a smaller corpus of the same generator.
    const products = syntheticProducts({ count: 4000 });
    const queries = syntheticQueries(products, { count: 60 });
    const engine = new Index('bench');
    engine.setSettings({
      searchableAttributes: ['name', 'brand', 'category'],
      attributesForFaceting: ['brand', 'category', 'price'],
      customRanking: ['desc(popularity)'],
    });
    engine.saveObjects(products);
    engine.search({ query: 'a' });
    const same = (params: Record<string, unknown>) => {
      const plain = engine.search(params);
      const withUndefined = engine.search(params, undefined);
      const withEmpty = engine.search(params, {});
      const impactZero = engine.search(params, {
        personalization: { impact: 0, scores: { brand: { [products[0]!.brand]: 20 } } },
      });
      for (const other of [withUndefined, withEmpty, impactZero])
        assert.equal(stable(other as never), stable(plain as never), JSON.stringify(params));
    };
    for (const q of queries.prefix) same({ query: q, hitsPerPage: 20 });
    for (const q of queries.typo) same({ query: q.query, hitsPerPage: 20 });
    for (const q of queries.faceted) same({ query: q, hitsPerPage: 20, facets: ['brand', 'category'] });

    // and a profile given to it does change the order: with an empty query every record ties on the
    // text, so the profile's brand comes first (by popularity among its records)
    const brand = products[0]!.brand;
    const ofBrand = products.filter((product) => product.brand === brand).sort((a, b) => b.popularity - a.popularity);
    const personal = engine.search(
      { query: '', hitsPerPage: 20 },
      { personalization: { impact: 100, scores: { brand: { [brand]: 20 } } } },
    );
    const expected = ofBrand.slice(0, 20).map((product) => product.objectID);
    assert.deepEqual(
      personal.hits.slice(0, expected.length).map((hit) => hit.objectID),
      expected,
    );
    assert.notDeepEqual(ids(engine.search({ query: '', hitsPerPage: 20 })), ids(personal));
  });
});
