/**
 * `renderingContent` (an extension beyond the API documents, as the hosted API has it): an index setting, a
 * search parameter and a rule consequence's parameter, returned with the search answer — the query's (or the
 * rule's) replacing the setting's; a wrong shape is a 400 naming its path, wherever it is given.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { index, SEARCH_KEY, startService, type Running } from './service-helpers.js';

let svc: Running;
const asSearch = { key: SEARCH_KEY };

const SETTING = {
  facetOrdering: {
    facets: { order: ['brand', 'price', '*'] },
    values: { brand: { order: ['Hon'], sortRemainingBy: 'alpha', hide: ['Acme'] } },
  },
};
const RULE_CONTENT = {
  facetOrdering: { facets: { order: ['price', 'brand'] } },
  redirect: { url: 'https://example.com/sale' },
};

before(async () => {
  svc = await startService();
  await index(
    svc,
    'rc',
    [
      { objectID: '1', name: 'Oak chair', brand: 'Hon', price: 120 },
      { objectID: '2', name: 'Garden chair', brand: 'Acme', price: 80 },
      { objectID: '3', name: 'Desk lamp', brand: 'Tensor', price: 30 },
    ],
    { searchableAttributes: ['name', 'brand'], attributesForFaceting: ['brand', 'price'] },
  );
  await index(svc, 'plain', [{ objectID: '1', name: 'Oak chair' }]);
});
after(() => svc.stop());

const search = (indexName: string, body: Record<string, unknown>) =>
  svc.call('POST', `/1/indexes/${indexName}/query`, body, asSearch);

describe('renderingContent', () => {
  test('no setting, no parameter: the answer has no renderingContent', async () => {
    const answer = await search('plain', { query: 'chair' });
    assert.equal(answer.status, 200);
    assert.equal('renderingContent' in answer.body, false);
  });

  test('an index setting: kept by the settings and returned with every search, also in a multi-query', async () => {
    await svc.ok('PUT', '/1/indexes/rc/settings', { renderingContent: SETTING });
    assert.deepEqual((await svc.ok('GET', '/1/indexes/rc/settings')).renderingContent, SETTING);
    assert.deepEqual((await search('rc', { query: 'chair' })).body.renderingContent, SETTING);
    const multi = await svc.call(
      'POST',
      '/1/indexes/*/queries',
      { requests: [{ indexName: 'rc', params: 'query=lamp' }, { indexName: 'plain' }] },
      asSearch,
    );
    assert.equal(multi.status, 200);
    assert.deepEqual(multi.body.results[0].renderingContent, SETTING);
    assert.equal('renderingContent' in multi.body.results[1], false);
  });

  test('a search parameter (JSON or in the params string) replaces the setting for that search', async () => {
    const own = { facetOrdering: { facets: { order: ['price'] } } };
    assert.deepEqual((await search('rc', { renderingContent: own })).body.renderingContent, own);
    const encoded = `query=chair&renderingContent=${encodeURIComponent(JSON.stringify(own))}`;
    assert.deepEqual((await search('rc', { params: encoded })).body.renderingContent, own);
  });

  test('a rule consequence replaces it for the queries the rule matches', async () => {
    await svc.ok('PUT', '/1/indexes/rc/rules/sale', {
      conditions: [{ pattern: 'lamp', anchoring: 'is' }],
      consequence: { params: { renderingContent: RULE_CONTENT }, userData: { banner: 'Lamps on sale' } },
    });
    const lamp = await search('rc', { query: 'lamp' });
    assert.deepEqual(lamp.body.renderingContent, RULE_CONTENT);
    assert.deepEqual(lamp.body.userData, [{ banner: 'Lamps on sale' }]);
    assert.deepEqual((await search('rc', { query: 'chair' })).body.renderingContent, SETTING);
  });

  test('a wrong shape is a 400 naming the path: in the settings, a search and a rule', async () => {
    const wrong: Array<[unknown, RegExp]> = [
      [[], /"renderingContent": expected an object/],
      [{ facetOrdering: { facets: { order: 'brand' } } }, /renderingContent\.facetOrdering\.facets\.order/],
      [
        { facetOrdering: { values: { brand: { sortRemainingBy: 'random' } } } },
        /sortRemainingBy.*count, alpha, hidden/,
      ],
      [{ facetOrdering: { values: { brand: { hide: [1] } } } }, /values\.brand\.hide/],
      [{ facetOrdering: { sort: {} } }, /renderingContent\.facetOrdering\.sort/],
      [{ redirect: { url: 3 } }, /redirect\.url/],
      [{ widgets: {} }, /renderingContent\.widgets/],
    ];
    for (const [value, message] of wrong) {
      const settings = await svc.call('PUT', '/1/indexes/rc/settings', { renderingContent: value });
      assert.equal(settings.status, 400, JSON.stringify(value));
      assert.match(settings.body.message, message);
      const query = await search('rc', { renderingContent: value });
      assert.equal(query.status, 400, JSON.stringify(value));
      assert.match(query.body.message, Array.isArray(value) ? /renderingContent/ : message);
      const rule = await svc.call('PUT', '/1/indexes/rc/rules/bad', {
        consequence: { params: { renderingContent: value } },
      });
      assert.equal(rule.status, 400, JSON.stringify(value));
      assert.match(rule.body.message, /consequence\.params/);
    }
    assert.equal((await search('rc', { params: 'renderingContent=%7Bnot%20json' })).status, 400);
    // Nothing wrong was stored: the setting is the one of the earlier test.
    assert.deepEqual((await svc.ok('GET', '/1/indexes/rc/settings')).renderingContent, SETTING);
  });

  test('null resets the setting', async () => {
    await svc.ok('PUT', '/1/indexes/rc/settings', { renderingContent: null });
    assert.equal('renderingContent' in (await search('rc', { query: 'chair' })).body, false);
  });
});
