/**
 * Which Usage operation each synonyms call counts as (the other paths are covered over HTTP in
 * http-usage.node.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { categoryOf, operationOf } from '../src/usage/operations.js';

test('synonyms calls count as synonym operations of their index', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['PUT', '/1/indexes/shop/synonyms/s1', 'update_synonym'],
    ['GET', '/1/indexes/shop/synonyms/s1', 'get_synonym'],
    ['DELETE', '/1/indexes/shop/synonyms/s1', 'delete_synonym'],
    ['POST', '/1/indexes/shop/synonyms/batch', 'batch_synonym'],
    ['POST', '/1/indexes/shop/synonyms/clear', 'delete_synonym'],
    ['POST', '/1/indexes/shop/synonyms/search', 'query_synonym'],
    ['POST', '/1/indexes/shop/synonyms/s1', undefined],
  ];
  for (const [method, path, op] of cases) {
    const operation = operationOf(method, path);
    assert.equal(operation?.op, op, `${method} ${path}`);
    if (op) {
      assert.equal(categoryOf(op), 'synonym');
      assert.equal(operation!.indexName, 'shop');
    }
  }
});
