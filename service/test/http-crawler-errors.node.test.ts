/**
 * The Crawler API's authentication and every error status of document 3's endpoint table (401 missing or
 * invalid Basic credentials — 403 for invalid ones on /api/1/domains —, 403 unknown crawler, 400 naming
 * the field), configuration checks against this service's app id and keys, state flags, pagination,
 * domains and the CLI flags.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startService, type Running } from './service-helpers.js';

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
const BASIC = basic('local-crawler', 'local-crawler-key');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

function config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appId: APP_ID,
    apiKey: ADMIN_KEY,
    indexPrefix: 'crawler_',
    rateLimit: 8,
    startUrls: ['http://localhost:9/docs/'],
    actions: [
      {
        indexName: 'docs',
        pathsToMatch: ['http://localhost:9/docs/**'],
        recordExtractor: { __type: 'function', source: '({ $ }) => []' },
      },
    ],
    ...overrides,
  };
}

describe('Crawler API: authentication and errors', () => {
  let running: Running;
  let id: string;
  const call = (method: string, path: string, body?: unknown, authorization: string | null = BASIC) =>
    running.call(method, path, body, {
      key: null,
      appId: null,
      headers: authorization === null ? {} : { authorization },
    });

  before(async () => {
    running = await startService({ dataDir: ':memory:', crawlerDomains: ['docs.example.com', '*.example.org'] });
    const created = await call('POST', '/api/1/crawlers', { name: 'docs', config: config() });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    id = created.body.id;
  });
  after(() => running.stop());

  test('401 without, with malformed or with wrong Basic credentials (WWW-Authenticate); the search API keys do not open it', async () => {
    for (const authorization of [
      null,
      'Bearer local-crawler-key',
      basic('local-crawler', 'wrong'),
      basic('someone', 'local-crawler-key'),
      'Basic !!!',
    ]) {
      const answer = await call('GET', `/api/1/crawlers/${id}`, undefined, authorization);
      assert.equal(answer.status, 401, String(authorization));
      assert.equal(typeof answer.body.message, 'string');
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Basic realm="crawler"/);
    }
    const withSearchHeaders = await running.call('GET', `/api/1/crawlers/${id}`, undefined, { key: ADMIN_KEY });
    assert.equal(withSearchHeaders.status, 401);
    assert.equal((await call('POST', '/api/1/crawlers', { name: 'x', config: config() }, null)).status, 401);
  });

  test('no CORS on the Crawler API: a page of another origin cannot drive it (its key runs code); the search API keeps CORS', async () => {
    const preflight = (path: string, headers: string) =>
      fetch(`${running.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': headers,
        },
      });
    const crawler = await preflight('/api/1/crawlers', 'authorization,content-type');
    assert.equal(crawler.headers.get('access-control-allow-origin'), null);
    assert.equal(crawler.headers.get('access-control-allow-headers'), null);
    const answer = await fetch(`${running.url}/api/1/crawlers/${id}`, {
      headers: { origin: 'http://evil.example', authorization: BASIC },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), null, 'a browser would not let the page read it');
    const search = await preflight(
      '/1/indexes/products/query',
      'x-service-api-key,x-service-application-id,content-type',
    );
    assert.equal(search.headers.get('access-control-allow-origin'), '*');
    assert.doesNotMatch(search.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    const analytics = await preflight('/2/searches', 'x-service-api-key');
    assert.equal(analytics.headers.get('access-control-allow-origin'), '*');
  });

  test('no CORS on the Crawler API whatever the path ends with (a crawler id ending in 2 once matched the search API pattern)', async () => {
    for (const path of [
      '/api/1/crawlers/09d39add-09d7-4f4c-a33b-117f63373ab2',
      '/api/1/crawlers/12',
      '/api/1/crawlers/1',
      '/api/1/domains/2',
    ]) {
      const answer = await fetch(`${running.url}${path}`, {
        headers: { origin: 'http://evil.example', authorization: BASIC },
      });
      await answer.arrayBuffer();
      assert.equal(answer.headers.get('access-control-allow-origin'), null, path);
    }
    for (const path of ['/1/indexes', '/2/searches']) {
      const answer = await fetch(`${running.url}${path}`, { headers: { origin: 'http://evil.example' } });
      await answer.arrayBuffer();
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', path);
    }
  });

  test('/api/1/domains: 401 missing, 403 invalid; the loopback hosts and the configured domains, verified', async () => {
    assert.equal((await call('GET', '/api/1/domains', undefined, null)).status, 401);
    const invalid = await call('GET', '/api/1/domains', undefined, basic('local-crawler', 'nope'));
    assert.equal(invalid.status, 403);
    const domains = await call('GET', '/api/1/domains');
    assert.equal(domains.status, 200);
    assert.deepEqual(domains.body, {
      items: ['localhost', '127.0.0.1', '[::1]', 'docs.example.com', '*.example.org'].map((domain) => ({
        appId: APP_ID,
        domain,
        verified: true,
      })),
      itemsPerPage: 20,
      page: 1,
      total: 5,
    });
    const second = await call('GET', '/api/1/domains?itemsPerPage=2&page=2');
    assert.deepEqual(
      second.body.items.map((item: any) => item.domain),
      ['[::1]', 'docs.example.com'],
    );
    assert.equal((await call('GET', '/api/1/domains?itemsPerPage=0')).status, 400);
    assert.equal((await call('GET', `/api/1/domains?appId=OTHER`)).status, 400);
  });

  test('403 for an unknown crawler on every endpoint', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `/api/1/crawlers/${UNKNOWN}`],
      ['GET', '/api/1/crawlers/not-a-uuid'],
      ['PATCH', `/api/1/crawlers/${UNKNOWN}`, { name: 'x' }],
      ['PATCH', `/api/1/crawlers/${UNKNOWN}/config`, { rateLimit: 2 }],
      ['POST', `/api/1/crawlers/${UNKNOWN}/run`],
      ['POST', `/api/1/crawlers/${UNKNOWN}/pause`],
      ['POST', `/api/1/crawlers/${UNKNOWN}/reindex`],
      ['GET', `/api/1/crawlers/${UNKNOWN}/stats/urls`],
      ['POST', `/api/1/crawlers/${UNKNOWN}/urls/crawl`, { urls: ['http://localhost:9/docs/'] }],
      ['POST', `/api/1/crawlers/${UNKNOWN}/test`, { url: 'http://localhost:9/docs/' }],
      ['GET', `/api/1/crawlers/${UNKNOWN}/tasks/${UNKNOWN}`],
      ['POST', `/api/1/crawlers/${UNKNOWN}/tasks/${UNKNOWN}/cancel`],
    ];
    for (const [method, path, body] of paths) {
      const answer = await call(method, path, body);
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.match(answer.body.message, /No crawler/);
    }
  });

  test('400 naming the field', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/api/1/crawlers', { config: config() }, /^name: /],
      ['POST', '/api/1/crawlers', { name: 'x' }, /^config: required/],
      ['POST', '/api/1/crawlers', { name: 'x', config: config(), extra: 1 }, /^extra: unknown field/],
      ['POST', '/api/1/crawlers', { name: 'x', config: config({ appId: 'OTHERAPP' }) }, /^config\.appId: /],
      [
        'POST',
        '/api/1/crawlers',
        { name: 'x', config: config({ apiKey: SEARCH_KEY }) },
        /^config\.apiKey: the API key lacks the addObject right/,
      ],
      [
        'POST',
        '/api/1/crawlers',
        { name: 'x', config: config({ apiKey: 'no-such-key' }) },
        /^config\.apiKey: not an API key/,
      ],
      ['POST', '/api/1/crawlers', { name: 'x', config: config({ rateLimit: 0 }) }, /^config\.rateLimit: /],
      [
        'POST',
        '/api/1/crawlers',
        { name: 'x', config: config({ startUrls: ['ftp://x/'] }) },
        /^config\.startUrls\[0\]: /,
      ],
      ['POST', '/api/1/crawlers', { name: 'x', config: config({ actions: [] }) }, /^config\.actions: /],
      [
        'POST',
        '/api/1/crawlers',
        {
          name: 'x',
          config: config({
            actions: [{ indexName: 'docs', recordExtractor: { __type: 'function', source: '() => []' } }],
          }),
        },
        /^config\.actions\[0\]\.pathsToMatch: /,
      ],
      [
        'POST',
        '/api/1/crawlers',
        {
          name: 'x',
          config: config({
            actions: [
              {
                indexName: 'docs',
                pathsToMatch: ['**'],
                recordExtractor: { __type: 'function', source: '({ $ ) => [' },
              },
            ],
          }),
        },
        /^config\.actions\[0\]\.recordExtractor\.source: does not compile/,
      ],
      [
        'POST',
        '/api/1/crawlers',
        {
          name: 'x',
          config: config({
            actions: [
              {
                indexName: 'docs',
                pathsToMatch: ['**'],
                selectorsToMatch: ['!::::'],
                recordExtractor: { __type: 'function', source: '() => []' },
              },
            ],
          }),
        },
        /^config\.actions\[0\]\.selectorsToMatch\[0\]: /,
      ],
      [
        'POST',
        '/api/1/crawlers',
        {
          name: 'x',
          config: config({
            actions: [
              { indexName: 'a*b', pathsToMatch: ['**'], recordExtractor: { __type: 'function', source: '() => []' } },
            ],
          }),
        },
        /^config\.actions\[0\]\.indexName: /,
      ],
      ['GET', '/api/1/crawlers?itemsPerPage=101', undefined, /^itemsPerPage: /],
      ['GET', '/api/1/crawlers?page=x', undefined, /^page: /],
      ['GET', `/api/1/crawlers/${id}?withConfig=yes`, undefined, /^withConfig: /],
      ['PATCH', `/api/1/crawlers/${id}`, {}, /name, config: give at least one/],
      ['PATCH', `/api/1/crawlers/${id}`, { nme: 'typo' }, /^nme: unknown field/],
      ['PATCH', `/api/1/crawlers/${id}/config`, { rateLimit: 'fast' }, /^config\.rateLimit: /],
      ['PATCH', `/api/1/crawlers/${id}/config`, [], /must be a JSON object/],
      ['POST', `/api/1/crawlers/${id}/urls/crawl`, {}, /^urls: required/],
      [
        'POST',
        `/api/1/crawlers/${id}/urls/crawl`,
        { urls: Array.from({ length: 51 }, (_, i) => `http://localhost:9/docs/${i}`) },
        /^urls: at most 50/,
      ],
      ['POST', `/api/1/crawlers/${id}/urls/crawl`, { urls: ['not a url'] }, /^urls\[0\]: /],
      ['POST', `/api/1/crawlers/${id}/urls/crawl`, { urls: ['http://localhost:9/docs/'], save: 'yes' }, /^save: /],
      ['POST', `/api/1/crawlers/${id}/test`, { url: 'javascript:alert(1)' }, /^url: /],
      ['POST', `/api/1/crawlers/${id}/test`, { url: 'http://localhost:9/docs/', config: [] }, /^config: /],
      [
        'POST',
        `/api/1/crawlers/${id}/test`,
        { url: 'http://localhost:9/docs/', config: { apiKey: SEARCH_KEY } },
        /^config\.apiKey: /,
      ],
      ['GET', `/api/1/crawlers/${id}/tasks/${UNKNOWN}`, undefined, /^taskId: /],
      ['POST', `/api/1/crawlers/${id}/tasks/${UNKNOWN}/cancel`, undefined, /^taskId: /],
    ];
    for (const [method, path, body, message] of cases) {
      const answer = await call(method, path, body);
      assert.equal(
        answer.status,
        400,
        `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}: ${JSON.stringify(answer.body)}`,
      );
      assert.match(answer.body.message, message);
    }
    const malformed = await running.call('POST', '/api/1/crawlers', undefined, {
      key: null,
      appId: null,
      headers: { authorization: BASIC },
      raw: '{"name":',
    });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /Invalid JSON/);
  });

  test('config.apiKey: a key of this app with addObject on the indices', async () => {
    const writer = await running.ok('POST', '/1/keys', { acl: ['addObject'], indexes: ['crawler_*'] });
    const other = await running.ok('POST', '/1/keys', { acl: ['addObject'], indexes: ['shop_*'] });
    const ok = await call('POST', '/api/1/crawlers', { name: 'keyed', config: config({ apiKey: writer.key }) });
    assert.equal(ok.status, 200);
    const refused = await call('POST', '/api/1/crawlers', { name: 'keyed', config: config({ apiKey: other.key }) });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^config\.apiKey: the API key may not write to the index crawler_docs/);
  });

  test('PATCH, PATCH config, pause and run: tasks that end at once, flags and config as set', async () => {
    const renamed = await call('PATCH', `/api/1/crawlers/${id}`, { name: 'documentation' });
    assert.equal(renamed.status, 200);
    assert.equal((await call('GET', `/api/1/crawlers/${id}/tasks/${renamed.body.taskId}`)).body.pending, false);
    const patched = await call('PATCH', `/api/1/crawlers/${id}/config`, { rateLimit: 3, indexPrefix: 'site_' });
    assert.equal(patched.status, 200);
    const crawler = (await call('GET', `/api/1/crawlers/${id}?withConfig=true`)).body;
    assert.equal(crawler.name, 'documentation');
    assert.equal(crawler.config.rateLimit, 3);
    assert.equal(crawler.config.indexPrefix, 'site_');
    assert.deepEqual(crawler.config.startUrls, ['http://localhost:9/docs/'], 'other properties kept');
    assert.ok(Date.parse(crawler.updatedAt) >= Date.parse(crawler.createdAt));

    const replaced = await call('PATCH', `/api/1/crawlers/${id}`, { config: config({ rateLimit: 5 }) });
    assert.equal(replaced.status, 200);
    assert.equal((await call('GET', `/api/1/crawlers/${id}?withConfig=true`)).body.config.indexPrefix, 'crawler_');

    const paused = await call('POST', `/api/1/crawlers/${id}/pause`);
    assert.equal(paused.status, 200);
    assert.equal((await call('GET', `/api/1/crawlers/${id}/tasks/${paused.body.taskId}`)).body.pending, false);
    assert.equal((await call('GET', `/api/1/crawlers/${id}`)).body.running, false);

    const list = await call('GET', '/api/1/crawlers?name=documentation');
    assert.deepEqual(list.body, { items: [{ id, name: 'documentation' }], itemsPerPage: 20, page: 1, total: 1 });
    const all = await call('GET', '/api/1/crawlers?itemsPerPage=1&page=2');
    assert.equal(all.body.total, 2);
    assert.equal(all.body.items.length, 1);
    assert.equal(all.body.items[0].name, 'keyed');
  });

  test('stats/urls before any crawl: nothing', async () => {
    assert.deepEqual((await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body, { count: 0, data: [] });
  });
});

describe('Crawler API: credentials from the options and the CLI', () => {
  test('createService({ crawlerUserId, crawlerApiKey }) replaces the dev credentials', async () => {
    const running = await startService({ dataDir: ':memory:', crawlerUserId: 'ops', crawlerApiKey: 's3cret' });
    try {
      const dev = await running.call('GET', '/api/1/crawlers', undefined, {
        key: null,
        appId: null,
        headers: { authorization: BASIC },
      });
      assert.equal(dev.status, 401);
      const own = await running.call('GET', '/api/1/crawlers', undefined, {
        key: null,
        appId: null,
        headers: { authorization: basic('ops', 's3cret') },
      });
      assert.equal(own.status, 200);
    } finally {
      await running.stop();
    }
  });

  test('npm run serve prints the crawler credentials after the keys and takes --crawler-* flags', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('../src/cli.ts', import.meta.url)),
        'serve',
        '--port',
        '0',
        '--data-dir',
        ':memory:',
        '--crawler-user-id',
        'cli-user',
        '--crawler-api-key',
        'cli-key',
        '--crawler-domain',
        'docs.example.com',
        '--crawler-domain',
        'blog.example.com',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => (output += chunk));
      const end = Date.now() + 20_000;
      while (output.split('\n').length < 7 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = output.split('\n');
      assert.match(lines[0]!, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(lines[4], 'crawler user id: cli-user');
      assert.equal(lines[5], 'crawler api key: cli-key');
      const url = lines[0]!.slice('listening on '.length);
      const domains = await fetch(`${url}/api/1/domains`, { headers: { authorization: basic('cli-user', 'cli-key') } });
      assert.equal(domains.status, 200);
      assert.deepEqual(((await domains.json()) as any).items.map((item: any) => item.domain).slice(3), [
        'docs.example.com',
        'blog.example.com',
      ]);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
