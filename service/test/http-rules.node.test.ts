/**
 * Rules over HTTP: save / batch / get / delete / clear / search with their answers and errors, and
 * their effect on searches (pattern anchoring, contexts, params, query edits, promote, hide, userData,
 * enableRules, validity), forwarded to replicas, durable across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { index, SEARCH_KEY, securedKey, startService, type Running } from './service-helpers.js';

let svc: Running;
const asSearch = { key: SEARCH_KEY };
const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((hit) => hit.objectID);

before(async () => {
  svc = await startService();
  await index(
    svc,
    'shop',
    [
      { objectID: 'c1', name: 'Oak chair', brand: 'Hon', price: 120, sold: 50 },
      { objectID: 'c2', name: 'Office chair', brand: 'Hon', price: 300, sold: 40 },
      { objectID: 'c3', name: 'Cheap chair', brand: 'Acme', price: 15, sold: 30 },
      { objectID: 'l1', name: 'Desk lamp', brand: 'Tensor', price: 30, sold: 20 },
      { objectID: 'd1', name: 'Standing desk', brand: 'Bush', price: 450, sold: 10 },
    ],
    {
      searchableAttributes: ['name', 'brand'],
      attributesForFaceting: ['brand', 'price'],
      customRanking: ['desc(sold)'],
      replicas: ['shop_price_asc'],
    },
  );
});
after(() => svc.stop());

describe('rules endpoints', () => {
  test('save, get, search, delete, clear: answers as the document says', async () => {
    const saved = await svc.ok('PUT', '/1/indexes/shop/rules/cheap', {
      conditions: [{ pattern: 'cheap', anchoring: 'contains' }],
      consequence: { params: { filters: 'price < 50', query: { edits: [{ type: 'remove', delete: 'cheap' }] } } },
      description: 'Cheap means under 50',
    });
    assert.deepEqual(Object.keys(saved).sort(), ['objectID', 'taskID', 'updatedAt']);
    assert.equal(saved.objectID, 'cheap');
    assert.deepEqual(await svc.ok('GET', `/1/indexes/shop/task/${saved.taskID}`), { status: 'published' });

    const rule = await svc.ok('GET', '/1/indexes/shop/rules/cheap');
    assert.equal(rule.objectID, 'cheap');
    assert.equal(rule.description, 'Cheap means under 50');

    const found = await svc.ok('POST', '/1/indexes/shop/rules/search', { query: 'che' });
    assert.equal(found.nbHits, 1);
    assert.equal(found.page, 0);
    assert.equal(found.nbPages, 1);
    assert.equal(found.hits[0].objectID, 'cheap');
    assert.equal(found.hits[0]._highlightResult.conditions[0].pattern.value, '<em>cheap</em>');
    assert.equal(found.hits[0]._highlightResult.conditions[0].pattern.matchLevel, 'full');
    assert.deepEqual(found.hits[0]._highlightResult.conditions[0].pattern.matchedWords, ['che']);
    assert.equal((await svc.ok('POST', '/1/indexes/shop/rules/search', { query: 'nothing' })).nbHits, 0);

    const deleted = await svc.ok('DELETE', '/1/indexes/shop/rules/cheap');
    assert.deepEqual(Object.keys(deleted).sort(), ['taskID', 'updatedAt']);
    assert.equal((await svc.call('GET', '/1/indexes/shop/rules/cheap')).status, 404);
    assert.equal((await svc.call('DELETE', '/1/indexes/shop/rules/cheap')).status, 404);

    await svc.ok('PUT', '/1/indexes/shop/rules/a', { consequence: { userData: 1 } });
    const cleared = await svc.ok('POST', '/1/indexes/shop/rules/clear');
    assert.deepEqual(Object.keys(cleared).sort(), ['taskID', 'updatedAt']);
    assert.equal((await svc.ok('POST', '/1/indexes/shop/rules/search', { query: '' })).nbHits, 0);
  });

  test('batch with clearExistingRules replaces all rules', async () => {
    await svc.ok('PUT', '/1/indexes/shop/rules/old', { consequence: { userData: 'old' } });
    const answer = await svc.ok('POST', '/1/indexes/shop/rules/batch?clearExistingRules=true', [
      { objectID: 'b1', consequence: { userData: 1 } },
      { objectID: 'b2', consequence: { userData: 2 } },
    ]);
    assert.deepEqual(Object.keys(answer).sort(), ['taskID', 'updatedAt']);
    const all = await svc.ok('POST', '/1/indexes/shop/rules/search', { query: '' });
    assert.deepEqual(all.hits.map((hit: { objectID: string }) => hit.objectID).sort(), ['b1', 'b2']);
    await svc.ok('POST', '/1/indexes/shop/rules/batch', [{ objectID: 'b3', consequence: { userData: 3 } }]);
    assert.equal(
      (await svc.ok('POST', '/1/indexes/shop/rules/search', { query: '', hitsPerPage: 2, page: 1 })).hits.length,
      1,
    );
    await svc.ok('POST', '/1/indexes/shop/rules/clear');
  });

  test('rights and errors: search key refused, bad rules 400, unknown index 404', async () => {
    assert.equal((await svc.call('PUT', '/1/indexes/shop/rules/x', { consequence: {} }, asSearch)).status, 403);
    assert.equal((await svc.call('POST', '/1/indexes/shop/rules/search', { query: '' }, asSearch)).status, 403);
    const bad: unknown[] = [
      {},
      { consequence: 'x' },
      { consequence: {}, conditions: [{ pattern: 'x' }] },
      { consequence: {}, conditions: [{ pattern: 'x', anchoring: 'near' }] },
      { consequence: { params: { filters: 'price <' } } },
      { consequence: { params: { hitsPerPage: 'lots' } } },
      { consequence: { promote: [{ objectID: 'c1' }] } },
      { consequence: { hide: [{}] } },
      { consequence: {}, enabled: 'yes' },
    ];
    for (const body of bad) {
      const answer = await svc.call('PUT', '/1/indexes/shop/rules/x', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(typeof answer.body.message, 'string');
    }
    assert.equal((await svc.call('POST', '/1/indexes/shop/rules/batch', { objectID: 'x' })).status, 400);
    assert.equal((await svc.call('POST', '/1/indexes/shop/rules/batch?clearExistingRules=maybe', [])).status, 400);
    assert.equal((await svc.call('GET', '/1/indexes/nope/rules/x')).status, 404);
    assert.equal((await svc.call('POST', '/1/indexes/nope/rules/search', {})).status, 404);
  });
});

describe('rules applied to searches', () => {
  const search = (body: Record<string, unknown>, indexName = 'shop', key: string = SEARCH_KEY) =>
    svc.ok('POST', `/1/indexes/${indexName}/query`, body, { key });

  test('a pattern rule adds filters and edits the query; appliedRules and userData', async () => {
    await svc.ok('PUT', '/1/indexes/shop/rules/cheap', {
      conditions: [{ pattern: 'cheap', anchoring: 'contains' }],
      consequence: {
        params: { filters: 'price < 100', query: { edits: [{ type: 'remove', delete: 'cheap' }] } },
        userData: { banner: 'Bargains' },
      },
    });
    const answer = await search({ query: 'cheap chair' });
    assert.deepEqual(ids(answer), ['c3']);
    assert.deepEqual(answer.userData, [{ banner: 'Bargains' }]);
    assert.deepEqual(answer.appliedRules, [{ objectID: 'cheap' }]);
    const plain = await search({ query: 'chair' });
    assert.deepEqual(ids(plain), ['c1', 'c2', 'c3']);
    assert.equal(plain.userData, undefined);
    // enableRules=false turns rules off.
    assert.equal((await search({ query: 'cheap chair', enableRules: false })).appliedRules, undefined);
    await svc.ok('DELETE', '/1/indexes/shop/rules/cheap');
  });

  test('anchoring is / startsWith / endsWith', async () => {
    await svc.ok('POST', '/1/indexes/shop/rules/batch?clearExistingRules=true', [
      { objectID: 'is', conditions: [{ pattern: 'lamp', anchoring: 'is' }], consequence: { userData: 'is' } },
      {
        objectID: 'starts',
        conditions: [{ pattern: 'desk', anchoring: 'startsWith' }],
        consequence: { userData: 'starts' },
      },
      {
        objectID: 'ends',
        conditions: [{ pattern: 'Chair', anchoring: 'endsWith' }],
        consequence: { userData: 'ends' },
      },
    ]);
    assert.deepEqual((await search({ query: 'Lamp' })).userData, ['is']);
    assert.equal((await search({ query: 'lamp desk' })).userData?.includes('is') ?? false, false);
    assert.deepEqual((await search({ query: 'desk lamp' })).userData, ['starts']);
    assert.deepEqual((await search({ query: 'office chair' })).userData, ['ends']);
    assert.equal((await search({ query: 'chair office' })).userData, undefined);
  });

  test('contexts: a rule with a context applies only with that ruleContext', async () => {
    await svc.ok('POST', '/1/indexes/shop/rules/batch?clearExistingRules=true', [
      { objectID: 'mobile', conditions: [{ context: 'mobile' }], consequence: { params: { hitsPerPage: 1 } } },
    ]);
    assert.equal((await search({ query: '' })).hits.length, 5);
    const mobile = await search({ query: '', ruleContexts: ['mobile'] });
    assert.equal(mobile.hits.length, 1);
    assert.deepEqual(mobile.appliedRules, [{ objectID: 'mobile' }]);
  });

  test('promote pins records at positions (across pages); hide removes them', async () => {
    await svc.ok('POST', '/1/indexes/shop/rules/batch?clearExistingRules=true', [
      {
        objectID: 'pins',
        conditions: [{ pattern: 'chair', anchoring: 'contains' }],
        consequence: {
          promote: [
            { objectID: 'c3', position: 0 },
            { objectIDs: ['l1'], position: 2 },
          ],
          hide: [{ objectID: 'c2' }],
        },
      },
    ]);
    const answer = await search({ query: 'chair' });
    // Organic: c1 (c2 hidden, c3 pinned); pins: c3 at 0, l1 at 2 (l1 does not even match the query).
    assert.deepEqual(ids(answer), ['c3', 'c1', 'l1']);
    assert.equal(answer.nbHits, 3);
    assert.equal(answer.hits[0]._highlightResult.name.matchLevel, 'full');
    const page1 = await search({ query: 'chair', hitsPerPage: 2, page: 1 });
    assert.deepEqual(ids(page1), ['l1']);
    assert.equal(page1.page, 1);
    assert.equal(page1.nbPages, 2);
    assert.equal(page1.offset, undefined);
    const page0 = await search({ query: 'chair', hitsPerPage: 2 });
    assert.deepEqual(ids(page0), ['c3', 'c1']);
  });

  test('a secured key’s filters still apply to pinned records', async () => {
    const key = securedKey(SEARCH_KEY, { filters: 'brand:Hon' });
    const answer = await search({ query: 'chair' }, 'shop', key);
    assert.deepEqual(ids(answer), ['c1']);
    await svc.ok('POST', '/1/indexes/shop/rules/clear');
  });

  test('forwardToReplicas saves the rule on replicas too; validity limits when a rule applies', async () => {
    await svc.ok('PUT', '/1/indexes/shop/rules/fwd?forwardToReplicas=true', { consequence: { userData: 'fwd' } });
    assert.deepEqual((await search({ query: 'desk' }, 'shop_price_asc')).userData, ['fwd']);
    await svc.ok('PUT', '/1/indexes/shop/rules/local', { consequence: { userData: 'local' } });
    assert.deepEqual((await search({ query: 'desk' }, 'shop_price_asc')).userData, ['fwd']);
    const now = Math.floor(Date.now() / 1000);
    await svc.ok('POST', '/1/indexes/shop/rules/batch?clearExistingRules=true&forwardToReplicas=true', [
      { objectID: 'past', validity: [{ from: now - 100, until: now - 10 }], consequence: { userData: 'past' } },
      { objectID: 'current', validity: [{ from: now - 100, until: now + 100 }], consequence: { userData: 'current' } },
    ]);
    assert.deepEqual((await search({ query: 'desk' })).userData, ['current']);
    assert.deepEqual((await search({ query: 'desk' }, 'shop_price_asc')).userData, ['current']);
  });

  test('rules survive a restart and follow copy (scope rules) and index deletion', async () => {
    await svc.ok('POST', '/1/indexes/shop/rules/clear?forwardToReplicas=true');
    await svc.ok('PUT', '/1/indexes/shop/rules/kept', {
      conditions: [{ pattern: 'lamp', anchoring: 'is' }],
      consequence: { userData: 'kept' },
    });
    await svc.ok('POST', '/1/indexes/shop/operation', {
      operation: 'copy',
      destination: 'shop_rules_only',
      scope: ['rules'],
    });
    assert.equal((await svc.ok('GET', '/1/indexes/shop_rules_only/rules/kept')).objectID, 'kept');
    const dataDir = svc.dataDir;
    await svc.stop({ keepData: true });
    svc = await startService({ dataDir });
    assert.deepEqual((await search({ query: 'lamp' })).userData, ['kept']);
    await svc.ok('DELETE', '/1/indexes/shop_rules_only');
    await svc.ok('PUT', '/1/indexes/shop_rules_only/1', { name: 'x' });
    assert.equal((await svc.call('GET', '/1/indexes/shop_rules_only/rules/kept')).status, 404);
  });
});
