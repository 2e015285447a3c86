/**
 * Recommend over HTTP (`POST /1/indexes/*\/recommendations`) on the real service: every model's answer for a
 * small set of hand-written events, checked against values worked out by hand (the arithmetic is in the
 * comments); threshold, maxRecommendations, queryParameters and fallbackParameters each change the answer;
 * a new conversion through `POST /1/events` changes bought-together; the queryID makes clicks attributable;
 * errors name what is wrong.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ValidEvent } from '../src/insights/validate.js';
import { index, SEARCH_KEY, securedKey, startService, type Running } from './service-helpers.js';

const DAY = 24 * 3600 * 1000;
const MIN = 60 * 1000;

let svc: Running;

/** The catalogue of the hand-worked cases. Content weights: subCategory .35, category .15, brand .2, name .3. */
const SHOP = [
  { objectID: 'A', name: 'Red Pen', brand: 'Acme', category: 'Office', subCategory: 'Pens' },
  { objectID: 'B', name: 'Blue Pen', brand: 'Acme', category: 'Office', subCategory: 'Pens' },
  { objectID: 'C', name: 'Paper Pad', brand: 'Zeta', category: 'Office', subCategory: 'Paper' },
  { objectID: 'D', name: 'Desk Lamp', brand: 'Lumo', category: 'Furniture', subCategory: 'Lamps' },
  // E never appears in an event: a new item, recommended on content alone.
  { objectID: 'E', name: 'Red Pen Refill', brand: 'Acme', category: 'Office', subCategory: 'Pens' },
  { objectID: 'F', name: 'Oak Desk', brand: 'Lumo', category: 'Furniture', subCategory: 'Desks' },
];

const TREND = [
  { objectID: 'P1', title: 'One', category: 'Books' },
  { objectID: 'P2', title: 'Two', category: 'Books' },
  { objectID: 'P3', title: 'Three', category: 'Music' },
  { objectID: 'P4', title: 'Four', category: 'Music' },
  { objectID: 'P5', title: 'Five', category: 'Games' },
];

function ev(
  eventType: ValidEvent['eventType'],
  indexName: string,
  userToken: string,
  timestamp: number,
  objectIDs: string[],
): ValidEvent {
  const eventName = eventType === 'conversion' ? 'Purchase' : eventType === 'click' ? 'Product Clicked' : 'Viewed';
  return { eventType, eventName, index: indexName, userToken, timestamp, objectIDs };
}

async function recommend(requests: unknown[], key: string = SEARCH_KEY) {
  return svc.call('POST', '/1/indexes/*/recommendations', { requests }, { key });
}

async function one(request: Record<string, unknown>) {
  const answer = await recommend([request]);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.results[0] as { hits: Array<Record<string, any>>; nbHits: number; queryID: string };
}

const scores = (hits: Array<Record<string, any>>) => hits.map((h) => [h.objectID ?? h.facetValue, h._score]);

before(async () => {
  svc = await startService();
  await index(svc, 'shop', SHOP, { attributesForFaceting: ['brand', 'category', 'subCategory'] });
  await index(svc, 'trend', TREND, { attributesForFaceting: ['category'] });
  const now = Date.now();
  const t0 = now - 3 * 3600 * 1000;
  const events = svc.service.services.insights;
  // Sessions (same user, gaps ≤ 30 minutes):
  //   S1 = u1 {A, B converted at t0; C converted 5 min later}
  //   S2 = u1 {A, D converted 2 h later}          (a new session: the gap is over 30 minutes)
  //   S3 = u2 {A, B converted}
  //   S4 = u3 {A clicked, C clicked, B converted}
  await events.append([
    ev('conversion', 'shop', 'u1', t0, ['A', 'B']),
    ev('conversion', 'shop', 'u1', t0 + 5 * MIN, ['C']),
    ev('conversion', 'shop', 'u1', t0 + 120 * MIN, ['A', 'D']),
    ev('conversion', 'shop', 'u2', t0, ['A', 'B']),
    ev('click', 'shop', 'u3', t0, ['A']),
    ev('click', 'shop', 'u3', t0 + MIN, ['C']),
    ev('conversion', 'shop', 'u3', t0 + 2 * MIN, ['B']),
    // A view is not read by any model.
    ev('view', 'shop', 'u3', t0 + 3 * MIN, ['F']),
  ]);
  // Trending (half-life 7 days, window 30 days; click 0.5, conversion 1), ages in days:
  await events.append([
    ev('conversion', 'trend', 'v1', now, ['P1']), //                 P1: 1 × 2^0        = 1
    ev('click', 'trend', 'v2', now - 7 * DAY, ['P1']), //            P1: 0.5 × 2^-1     = 0.25
    ev('conversion', 'trend', 'v3', now - 7 * DAY, ['P2']), //       P2: 1 × 2^-1       = 0.5
    ev('click', 'trend', 'v4', now, ['P2']), //                      P2: 0.5 × 2^0      = 0.5
    ev('conversion', 'trend', 'v5', now - 14 * DAY, ['P3', 'P4']), // P3, P4: 1 × 2^-2 = 0.25 each
    ev('conversion', 'trend', 'v6', now - 40 * DAY, ['P4']), //      outside the 30-day window: 0
    ev('view', 'trend', 'v7', now, ['P3']), //                       views: 0
  ]);
});
after(() => svc.stop());

describe('bought-together', () => {
  test('confidence 100 × co(A,X) / (sessions(A) + 1), best first', async () => {
    // A is converted in S1, S2, S3 → 3 sessions. Together with B in S1 and S3 (2), with C in S1 (1), with D in S2 (1).
    // B: 100 × 2 / (3 + 1) = 50;  C: 100 × 1 / 4 = 25;  D: 100 × 1 / 4 = 25 (tie: objectID order).
    const result = await one({ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 });
    assert.deepEqual(scores(result.hits), [
      ['B', 50],
      ['C', 25],
      ['D', 25],
    ]);
    assert.equal(result.nbHits, 3);
    assert.match(result.queryID, /^[0-9a-f]{32}$/);
    // Hits are the records plus _score.
    assert.deepEqual(result.hits[0], { ...SHOP[1], _score: 50 });
  });

  test('clicks do not count: B converted in S1, S3, S4; with A in S1 and S3, with C in S1', async () => {
    // A: 100 × 2 / (3 + 1) = 50;  C: 100 × 1 / 4 = 25 (C was only clicked in S4).
    const result = await one({ indexName: 'shop', model: 'bought-together', objectID: 'B', threshold: 0 });
    assert.deepEqual(scores(result.hits), [
      ['A', 50],
      ['C', 25],
    ]);
  });

  test('an item never converted has no bought-together recommendations', async () => {
    const result = await one({ indexName: 'shop', model: 'bought-together', objectID: 'E', threshold: 0 });
    assert.deepEqual(result.hits, []);
    assert.equal(result.nbHits, 0);
  });
});

describe('related-products', () => {
  test('behaviour or content: 100 × (1 − (1 − content)·(1 − λ·cosine))', async () => {
    // Interaction weights per session (conversion 1, click 0.5):
    //   S1 A1 B1 C1 · S2 A1 D1 · S3 A1 B1 · S4 A.5 C.5 B1
    // n(A) = 3.5, n(B) = 3, n(C) = 1.5, n(D) = 1; pairs count their weaker side:
    //   co(A,B) = 1 + 1 + .5 = 2.5, co(A,C) = 1 + .5 = 1.5, co(A,D) = 1
    // cosine: B 2.5/√(3.5·3) = .771517, C 1.5/√(3.5·1.5) = .654654, D 1/√(3.5·1) = .534522
    // λ = co / (co + 2): B 2.5/4.5 = .555556, C 1.5/3.5 = .428571, D 1/3
    // λ·cosine: B .428620, C .280566, D .178174
    // content of A (Red Pen, Acme, Office, Pens; name terms {red, pen}):
    //   B .35 + .15 + .2 + .3·(1/3) = .8;  C .15 (category);  D 0;  E .35 + .15 + .2 + .3·(2/3) = .9;  F 0
    // E: 100·(1 − .1·1)             = 90     (no behaviour: content alone)
    // B: 100·(1 − .2·(1 − .428620))  = 88.57
    // C: 100·(1 − .85·(1 − .280566)) = 38.85
    // D: 100·(1 − 1·(1 − .178174))   = 17.82
    const result = await one({ indexName: 'shop', model: 'related-products', objectID: 'A', threshold: 0 });
    assert.deepEqual(scores(result.hits), [
      ['E', 90],
      ['B', 88.57],
      ['C', 38.85],
      ['D', 17.82],
    ]);
  });

  test('a new item (no events, λ = 0) gets recommendations from content alone', async () => {
    // E: Red Pen Refill, Acme, Office, Pens; terms {red, pen, refill}
    //   A: .35 + .15 + .2 + .3·(2/3) = .9 → 90
    //   B: .35 + .15 + .2 + .3·(1/4) = .775 → 77.5   ({pen} shared of {red, pen, refill, blue})
    //   C: .15 → 15;  D, F: 0 (not recommended)
    const result = await one({ indexName: 'shop', model: 'related-products', objectID: 'E', threshold: 0 });
    assert.deepEqual(scores(result.hits), [
      ['A', 90],
      ['B', 77.5],
      ['C', 15],
    ]);
  });
});

describe('trending-items', () => {
  test('decayed popularity relative to the hottest item', async () => {
    // P1 1 + .25 = 1.25 → 100;  P2 .5 + .5 = 1 → 80;  P3 .25 → 20;  P4 .25 → 20;  P5 no events.
    const result = await one({ indexName: 'trend', model: 'trending-items', threshold: 0 });
    assert.deepEqual(scores(result.hits), [
      ['P1', 100],
      ['P2', 80],
      ['P3', 20],
      ['P4', 20],
    ]);
  });

  test('within one facet value the hottest item of that value is 100', async () => {
    // Music: P3 .25, P4 .25 → 100 each.  Books: P1 1.25 → 100, P2 1 → 80.
    assert.deepEqual(
      scores(
        (
          await one({
            indexName: 'trend',
            model: 'trending-items',
            threshold: 0,
            facetName: 'category',
            facetValue: 'Music',
          })
        ).hits,
      ),
      [
        ['P3', 100],
        ['P4', 100],
      ],
    );
    assert.deepEqual(
      scores(
        (
          await one({
            indexName: 'trend',
            model: 'trending-items',
            threshold: 0,
            facetName: 'category',
            facetValue: 'Books',
          })
        ).hits,
      ),
      [
        ['P1', 100],
        ['P2', 80],
      ],
    );
  });
});

describe('trending-facets', () => {
  test('facet values of recently converted items (conversions only)', async () => {
    // Books: P1 conversion 1 + P2 conversion .5 = 1.5 → 100 (the clicks do not count)
    // Music: P3 .25 + P4 .25 = .5 → 33.33 (P4's 40-day-old conversion is outside the window)
    const result = await one({ indexName: 'trend', model: 'trending-facets', threshold: 0, facetName: 'category' });
    assert.deepEqual(result.hits, [
      { facetName: 'category', facetValue: 'Books', _score: 100 },
      { facetName: 'category', facetValue: 'Music', _score: 33.33 },
    ]);
  });
});

describe('request parameters change the answer', () => {
  test('threshold keeps only scores at or above it', async () => {
    const bt = await one({ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 30 });
    assert.deepEqual(scores(bt.hits), [['B', 50]]);
    const rp = await one({ indexName: 'shop', model: 'related-products', objectID: 'A', threshold: 38.85 });
    assert.deepEqual(scores(rp.hits), [
      ['E', 90],
      ['B', 88.57],
      ['C', 38.85],
    ]);
    const tf = await one({ indexName: 'trend', model: 'trending-facets', threshold: 50, facetName: 'category' });
    assert.deepEqual(scores(tf.hits), [['Books', 100]]);
    const none = await one({ indexName: 'trend', model: 'trending-items', threshold: 100 });
    assert.deepEqual(scores(none.hits), [['P1', 100]]);
  });

  test('maxRecommendations caps the hits (0 = all)', async () => {
    assert.deepEqual(
      scores(
        (
          await one({
            indexName: 'shop',
            model: 'related-products',
            objectID: 'A',
            threshold: 0,
            maxRecommendations: 2,
          })
        ).hits,
      ),
      [
        ['E', 90],
        ['B', 88.57],
      ],
    );
    assert.equal(
      (await one({ indexName: 'shop', model: 'related-products', objectID: 'A', threshold: 0, maxRecommendations: 0 }))
        .nbHits,
      4,
    );
    assert.equal(
      (
        await one({
          indexName: 'trend',
          model: 'trending-facets',
          threshold: 0,
          facetName: 'category',
          maxRecommendations: 1,
        })
      ).nbHits,
      1,
    );
  });

  test('queryParameters filter the recommended records and shape them', async () => {
    const lumo = await one({
      indexName: 'shop',
      model: 'bought-together',
      objectID: 'A',
      threshold: 0,
      queryParameters: { facetFilters: ['brand:Lumo'] },
    });
    assert.deepEqual(scores(lumo.hits), [['D', 25]]);
    const office = await one({
      indexName: 'shop',
      model: 'related-products',
      objectID: 'A',
      threshold: 0,
      queryParameters: { filters: 'category:Office AND NOT subCategory:Paper', attributesToRetrieve: ['name'] },
    });
    assert.deepEqual(office.hits, [
      { objectID: 'E', name: 'Red Pen Refill', _score: 90 },
      { objectID: 'B', name: 'Blue Pen', _score: 88.57 },
    ]);
    const music = await one({
      indexName: 'trend',
      model: 'trending-items',
      threshold: 0,
      queryParameters: { filters: 'category:Music' },
    });
    assert.deepEqual(scores(music.hits), [
      ['P3', 20],
      ['P4', 20],
    ]);
  });

  test('fallbackParameters fill up to maxRecommendations with a search (score 0) when the model has too few', async () => {
    // bought-together(B) has A and C; two more are asked for: the Furniture records D and F fill up.
    const filled = await one({
      indexName: 'shop',
      model: 'bought-together',
      objectID: 'B',
      threshold: 0,
      maxRecommendations: 4,
      fallbackParameters: { filters: 'category:Furniture' },
    });
    assert.deepEqual(scores(filled.hits.slice(0, 2)), [
      ['A', 50],
      ['C', 25],
    ]);
    assert.deepEqual(
      filled.hits
        .slice(2)
        .map((h) => [h.objectID, h._score])
        .sort(),
      [
        ['D', 0],
        ['F', 0],
      ],
    );
    assert.equal(filled.nbHits, 4);
    // The source record and records already recommended are not repeated.
    const dedup = await one({
      indexName: 'shop',
      model: 'bought-together',
      objectID: 'B',
      threshold: 0,
      maxRecommendations: 6,
      fallbackParameters: { filters: 'category:Office' },
    });
    assert.deepEqual(dedup.hits.map((h) => h.objectID).sort(), ['A', 'C', 'E']);
    const without = await one({
      indexName: 'shop',
      model: 'bought-together',
      objectID: 'B',
      threshold: 0,
      maxRecommendations: 4,
    });
    assert.equal(without.nbHits, 2);
    const trending = await one({
      indexName: 'trend',
      model: 'trending-items',
      threshold: 0,
      maxRecommendations: 3,
      facetName: 'category',
      facetValue: 'Music',
      fallbackParameters: { facetFilters: ['category:Games'] },
    });
    assert.deepEqual(scores(trending.hits), [
      ['P3', 100],
      ['P4', 100],
      ['P5', 0],
    ]);
  });

  test("a secured key's filters restrict the recommended records too", async () => {
    const acmeOnly = securedKey(SEARCH_KEY, { filters: 'brand:Acme' });
    const answer = await recommend(
      [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 }],
      acmeOnly,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    // C (Zeta) and D (Lumo) are filtered out; B (Acme) keeps its 50.
    assert.deepEqual(scores(answer.body.results[0].hits), [['B', 50]]);
  });

  test('several requests answer in order', async () => {
    const answer = await recommend([
      { indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 30 },
      { indexName: 'trend', model: 'trending-facets', facetName: 'category', threshold: 0 },
    ]);
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.results.map((r: { hits: unknown[] }) => scores(r.hits as Array<Record<string, unknown>>)),
      [
        [['B', 50]],
        [
          ['Books', 100],
          ['Music', 33.33],
        ],
      ],
    );
    assert.notEqual(answer.body.results[0].queryID, answer.body.results[1].queryID);
  });
});

describe('events feed the models incrementally', () => {
  test('a conversion through POST /1/events changes bought-together for that pair', async () => {
    // Before: D converted only in S2 (with A) → A: 100 × 1 / (1 + 1) = 50.
    assert.deepEqual(
      scores((await one({ indexName: 'shop', model: 'bought-together', objectID: 'D', threshold: 0 })).hits),
      [['A', 50]],
    );
    const sent = await svc.call(
      'POST',
      '/1/events',
      {
        events: [
          { eventType: 'conversion', eventName: 'Purchase', index: 'shop', userToken: 'u9', objectIDs: ['C', 'D'] },
        ],
      },
      { key: SEARCH_KEY },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    // After: D in 2 sessions, with A once and with C once → A 100 × 1 / 3 = 33.33, C 33.33.
    assert.deepEqual(
      scores((await one({ indexName: 'shop', model: 'bought-together', objectID: 'D', threshold: 0 })).hits),
      [
        ['A', 33.33],
        ['C', 33.33],
      ],
    );
  });

  test('the queryID of an answer makes a click on a recommendation attributable (position 1..n)', async () => {
    const result = await one({ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 });
    const second = result.hits[1]!.objectID as string;
    const sent = await svc.call(
      'POST',
      '/1/events',
      {
        events: [
          {
            eventType: 'click',
            eventName: 'Recommendation Clicked',
            index: 'shop',
            userToken: 'u10',
            queryID: result.queryID,
            objectIDs: [second],
            positions: [2],
          },
        ],
      },
      { key: SEARCH_KEY },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const listed = await svc.ok('GET', `/1/_local/events?userToken=u10`);
    const stored = (listed.events ?? listed).find((e: { queryID?: string }) => e.queryID === result.queryID);
    assert.ok(stored, JSON.stringify(listed));
    assert.equal(stored.search.indexName, 'shop');
    assert.deepEqual(stored.search.positions, [2]);
  });
});

describe('errors', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['requests missing', {}, /requests/],
    ['requests not a list', { requests: {} }, /requests/],
    [
      'threshold missing',
      { requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'A' }] },
      /requests\[0\]\.threshold is required/,
    ],
    [
      'threshold over 100',
      { requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 101 }] },
      /threshold must be a number from 0 to 100/,
    ],
    [
      'threshold a string',
      { requests: [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: '5' }] },
      /threshold/,
    ],
    [
      'unknown model',
      { requests: [{ indexName: 'shop', model: 'looking-similar', objectID: 'A', threshold: 0 }] },
      /model must be one of/,
    ],
    [
      'objectID missing',
      { requests: [{ indexName: 'shop', model: 'related-products', threshold: 0 }] },
      /objectID is required/,
    ],
    [
      'facetName without facetValue',
      { requests: [{ indexName: 'trend', model: 'trending-items', threshold: 0, facetName: 'category' }] },
      /facetName and facetValue/,
    ],
    [
      'trending-facets without facetName',
      { requests: [{ indexName: 'trend', model: 'trending-facets', threshold: 0 }] },
      /facetName is required/,
    ],
    [
      'field of another model',
      {
        requests: [
          { indexName: 'trend', model: 'trending-facets', threshold: 0, facetName: 'category', objectID: 'A' },
        ],
      },
      /objectID is not a parameter of the trending-facets model/,
    ],
    [
      'maxRecommendations negative',
      {
        requests: [
          { indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0, maxRecommendations: -1 },
        ],
      },
      /maxRecommendations/,
    ],
    [
      'bad search parameter',
      {
        requests: [
          {
            indexName: 'shop',
            model: 'bought-together',
            objectID: 'A',
            threshold: 0,
            queryParameters: { hitsPerPage: 'many' },
          },
        ],
      },
      /queryParameters.*hitsPerPage/,
    ],
    [
      'bad filter syntax',
      {
        requests: [
          {
            indexName: 'shop',
            model: 'bought-together',
            objectID: 'A',
            threshold: 0,
            queryParameters: { filters: 'brand:(' },
          },
        ],
      },
      /queryParameters/,
    ],
    [
      'the second request is checked too',
      {
        requests: [
          { indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 },
          { indexName: 'shop', model: 'bought-together', threshold: 0 },
        ],
      },
      /requests\[1\]\.objectID/,
    ],
  ];
  for (const [name, body, message] of cases) {
    test(`400: ${name}`, async () => {
      const answer = await svc.call('POST', '/1/indexes/*/recommendations', body, { key: SEARCH_KEY });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(answer.body.message, message);
    });
  }

  test('401 for missing or wrong credentials', async () => {
    const request = [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 }];
    for (const options of [{ key: null }, { key: 'wrong' }, { appId: 'OTHER', key: SEARCH_KEY }]) {
      const answer = await svc.call('POST', '/1/indexes/*/recommendations', { requests: request }, options);
      assert.equal(answer.status, 401, JSON.stringify(options));
      assert.match(answer.body.message, options.key === null ? /are required/ : /^Invalid Application-Id or API-Key$/);
    }
  });

  test('403 for a key without the search right or restricted to other indices', async () => {
    const noSearch = await svc.ok('POST', '/1/keys', { acl: ['browse'] });
    const otherIndex = await svc.ok('POST', '/1/keys', { acl: ['search'], indexes: ['trend'] });
    const request = [{ indexName: 'shop', model: 'bought-together', objectID: 'A', threshold: 0 }];
    assert.equal((await recommend(request, noSearch.key)).status, 403);
    assert.equal((await recommend(request, otherIndex.key)).status, 403);
    assert.equal(
      (await recommend([{ indexName: 'trend', model: 'trending-items', threshold: 0 }], otherIndex.key)).status,
      200,
    );
  });

  test('404 for an index that does not exist', async () => {
    const answer = await recommend([{ indexName: 'nope', model: 'trending-items', threshold: 0 }]);
    assert.equal(answer.status, 404);
  });
});
