/**
 * Key restrictions: `restrictSources` networks through `node:net`'s BlockList (IPv4 and IPv6, over a real
 * IPv6 connection), the `*` wildcard of index and referer patterns (no other glob syntax), and the bounded
 * counters of `maxQueriesPerIPPerHour`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiter } from '../../src/keys/rate-limit.js';
import { indexAllowed, refererAllowed, sourceAllowed, wildcardMatch } from '../../src/keys/restrictions.js';
import { createService } from '../../src/index.js';
import { caller, SEARCH_KEY, securedKey } from '../service-helpers.js';

describe('restrictSources', () => {
  test('IPv4 networks and addresses, as the socket reports them', () => {
    assert.equal(sourceAllowed('192.168.1.0/24', '192.168.1.77'), true);
    assert.equal(sourceAllowed('192.168.1.0/24', '192.168.2.1'), false);
    assert.equal(sourceAllowed('10.0.0.1', '10.0.0.1'), true);
    assert.equal(sourceAllowed('10.0.0.1', '10.0.0.2'), false);
    assert.equal(sourceAllowed('192.168.1.0/24;10.0.0.0/8', '10.200.3.4'), true, 'several networks, ; separated');
    assert.equal(sourceAllowed('192.168.1.0/24, 10.0.0.0/8', '10.200.3.4'), true, ', separated');
    assert.equal(sourceAllowed('0.0.0.0/0', '8.8.8.8'), true);
    // An IPv4 client on a dual-stack socket: ::ffff:a.b.c.d is a.b.c.d.
    assert.equal(sourceAllowed('192.168.1.0/24', '::ffff:192.168.1.9'), true);
    assert.equal(sourceAllowed('192.168.1.0/24', '::FFFF:192.168.1.9'), true);
  });

  test('IPv6 networks and addresses', () => {
    assert.equal(sourceAllowed('2001:db8::/32', '2001:db8:1234::5'), true);
    assert.equal(sourceAllowed('2001:db8::/32', '2001:db9::5'), false);
    assert.equal(sourceAllowed('2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001'), true, 'any spelling');
    assert.equal(sourceAllowed('fe80::/10;10.0.0.0/8', 'fe80::1'), true);
    assert.equal(sourceAllowed('::1/128', '::1'), true);
    // The IPv6 loopback is the machine's loopback: an IPv4 loopback network allows it.
    assert.equal(sourceAllowed('127.0.0.0/8', '::1'), true);
    assert.equal(sourceAllowed('10.0.0.0/8', '::1'), false);
  });

  test('entries that are not networks allow nothing; no address is never allowed', () => {
    assert.equal(sourceAllowed('not-a-network', '10.0.0.1'), false);
    assert.equal(sourceAllowed('10.0.0.0/33', '10.0.0.1'), false, 'prefix too long for IPv4');
    assert.equal(sourceAllowed('2001:db8::/129', '2001:db8::1'), false, 'prefix too long for IPv6');
    assert.equal(sourceAllowed('10.0.0.0/x', '10.0.0.1'), false);
    assert.equal(sourceAllowed('10.0.0.0/8', undefined), false);
    assert.equal(sourceAllowed('10.0.0.0/8', 'garbage'), false);
  });

  test('over a real IPv6 connection: ::1/128 allows it, another IPv6 network refuses it', async () => {
    const service = await createService({ dataDir: ':memory:' });
    try {
      const { url } = await service.listen(0, '::1');
      const call = caller(url);
      assert.equal((await call('PUT', '/1/indexes/books/1', { title: 'Dune' })).status, 200);
      const allowed = securedKey(SEARCH_KEY, { restrictSources: '::1/128' });
      assert.equal((await call('POST', '/1/indexes/books/query', {}, { key: allowed })).status, 200);
      const other = securedKey(SEARCH_KEY, { restrictSources: '2001:db8::/32' });
      const refused = await call('POST', '/1/indexes/books/query', {}, { key: other });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.message, 'Source IP not allowed with this secured API key');
      const ipv4 = securedKey(SEARCH_KEY, { restrictSources: '127.0.0.0/8' });
      assert.equal((await call('POST', '/1/indexes/books/query', {}, { key: ipv4 })).status, 200);
    } finally {
      await service.close();
    }
  });
});

describe('index and referer patterns', () => {
  test('`*` stands for any characters, `/` included; nothing else is a wildcard; case does not matter', () => {
    assert.equal(wildcardMatch('dev_*', 'dev_products'), true);
    assert.equal(wildcardMatch('dev_*', 'DEV_Products'), true);
    assert.equal(wildcardMatch('*_prod', 'shop_prod'), true);
    assert.equal(wildcardMatch('a*b*c', 'a-x-b-y-c'), true);
    assert.equal(wildcardMatch('a*b*c', 'a-x-c-y-b'), false);
    assert.equal(wildcardMatch('ab*ba', 'aba'), false, 'the ends may not overlap');
    assert.equal(wildcardMatch('https://shop.example/*', 'https://shop.example/a/b?q=1'), true);
    assert.equal(wildcardMatch('a?b', 'axb'), false);
    assert.equal(wildcardMatch('a?b', 'a?b'), true);
    assert.equal(wildcardMatch('[ab]', 'a'), false);
    assert.equal(wildcardMatch('{a,b}', 'a'), false);
    assert.equal(wildcardMatch('.*', 'x'), false, 'regular-expression syntax is text');
    assert.equal(wildcardMatch('*', ''), true);
  });

  test('a key restricted to a literal index with glob characters opens that index only', () => {
    assert.equal(indexAllowed({ indexes: ['a?b'] }, 'axb'), false);
    assert.equal(indexAllowed({ indexes: ['a?b'] }, 'a?b'), true);
    assert.equal(indexAllowed({ indexes: ['dev_*'], parentIndexes: ['*_fr'] }, 'dev_fr'), true);
    assert.equal(indexAllowed({ indexes: ['dev_*'], parentIndexes: ['*_fr'] }, 'dev_en'), false);
  });

  test('referers: the whole referer, without its scheme, or its host', () => {
    assert.equal(refererAllowed(['*.partner.example'], 'https://www.partner.example/'), true);
    assert.equal(refererAllowed(['shop.example/*'], 'https://shop.example/search'), true);
    assert.equal(refererAllowed(['https://shop.example/*'], 'https://evil.example/shop.example/'), false);
    assert.equal(refererAllowed([], undefined), true);
    assert.equal(refererAllowed(['*'], undefined), false);
  });
});

describe('maxQueriesPerIPPerHour counters', () => {
  test('random callers cannot grow memory past the bound, nor escape the limit', () => {
    const limiter = new RateLimiter(() => Date.UTC(2026, 10, 25, 10), 100);
    let refused = 0;
    for (let i = 0; i < 5000; i += 1) {
      try {
        limiter.count('limited-key', 3, `random-token-${i}`);
      } catch (error) {
        assert.equal((error as { status?: number }).status, 429);
        refused += 1;
      }
    }
    assert.ok(limiter.size <= 101, `${limiter.size} counters`);
    // The first 100 callers have their own counters; the 4,900 after share one, limited to 3 calls.
    assert.equal(refused, 4900 - 3);
  });

  test("a new hour drops the previous hour's counters", () => {
    let now = Date.UTC(2026, 10, 25, 10, 59);
    const limiter = new RateLimiter(() => now);
    for (let i = 0; i < 50; i += 1) limiter.count('key', 10, `user-${i}`);
    assert.equal(limiter.size, 50);
    assert.throws(() => limiter.count('key', 1, 'user-0'), /maxQueriesPerIPPerHour/, 'its second call this hour');
    now += 60_000; // 11:00
    limiter.count('key', 1, 'user-0');
    assert.equal(limiter.size, 1);
  });
});
