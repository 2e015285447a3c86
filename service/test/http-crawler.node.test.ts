/**
 * The Crawler API (document 3) over HTTP against a real static site on loopback ports: a reindex with
 * every kind of URL outcome worked out by hand, records searched through /1/indexes/{name}/query, the
 * URL statistics, rateLimit timing, immediate URL crawling into the live and the temporary index, the
 * test endpoint, blocked + cancel, restart durability.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { page, startSite, type Site } from './http-crawler-site.js';
import { ADMIN_KEY, APP_ID, startService, tempDir, type Running } from './service-helpers.js';

const BASIC = `Basic ${Buffer.from('local-crawler:local-crawler-key').toString('base64')}`;

function crawlerCall(running: Running, authorization: string | null = BASIC) {
  return (method: string, path: string, body?: unknown) =>
    running.call(method, path, body, {
      key: null,
      appId: null,
      headers: authorization === null ? {} : { authorization },
    });
}

async function waitTask(running: Running, id: string, taskId: string, timeoutMs = 20_000): Promise<void> {
  const call = crawlerCall(running);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call('GET', `/api/1/crawlers/${id}/tasks/${taskId}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    if (answer.body.pending === false) return;
    if (Date.now() > end) throw new Error(`task ${taskId} still pending`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const objectId = (url: string) => `${createHash('sha256').update(url).digest('hex').slice(0, 24)}-0`;

const EXTRACTOR = `({ url, $ }) => {
  console.log('extracting', url.pathname);
  return [{ title: $('h1').first().text(), body: $('article').text().trim(), path: url.pathname }];
}`;

/** The documentation site: 5 pages extracted, a draft excluded by selector, robots.txt, a 404, links outside. */
async function docsSite(otherOrigin: string): Promise<Site> {
  return startSite(
    '127.0.0.1',
    {
      '/docs/index.html': page('Welcome', 'Welcome to the guide', [
        '/docs/install.html',
        '/docs/usage.html',
        '/docs/draft.html',
        '/docs/missing.html',
        '/private/notes.html',
        `${otherOrigin}/docs/elsewhere.html`,
        '/docs/secret.html',
        '/docs/install.html#step-2',
        'mailto:team@example.com',
      ]),
      '/docs/install.html': page('Install', 'Run npm install', ['/docs/index.html']),
      '/docs/usage.html': page('Usage', 'Call the search method', ['advanced.html']),
      '/docs/advanced.html': page('Advanced', 'Tune the ranking', []),
      '/docs/draft.html': page('Draft', 'Not ready', ['/docs/from-draft.html'], 'draft'),
      '/docs/from-draft.html': page('Linked from draft', 'Found through the draft', []),
      '/docs/secret.html': page('Secret', 'Never fetched', []),
      '/docs/extra.html': page('Extra', 'Only crawled on demand', []),
      '/private/notes.html': page('Notes', 'Outside pathsToMatch', []),
    },
    'User-agent: *\nDisallow: /docs/secret.html\n',
  );
}

function docsConfig(site: Site, other: Site, rateLimit = 20): Record<string, unknown> {
  return {
    appId: APP_ID,
    apiKey: ADMIN_KEY,
    indexPrefix: 'crawler_',
    rateLimit,
    startUrls: [`${site.origin}/docs/index.html`],
    actions: [
      {
        indexName: 'docs',
        pathsToMatch: [`${site.origin}/docs/**`, `${other.origin}/docs/**`],
        selectorsToMatch: ['article', '!.draft'],
        fileTypesToMatch: ['html'],
        recordExtractor: { __type: 'function', source: EXTRACTOR },
      },
    ],
  };
}

describe('Crawler API: a reindex of a real site', () => {
  let running: Running;
  let site: Site;
  let other: Site;
  let id: string;
  let call: ReturnType<typeof crawlerCall>;

  before(async () => {
    other = await startSite('127.0.0.2', { '/docs/elsewhere.html': page('Elsewhere', 'On an unregistered host') });
    site = await docsSite(other.origin);
    running = await startService();
    call = crawlerCall(running);
  });
  after(async () => {
    await running.stop();
    await site.close();
    await other.close();
  });

  test('create, then the crawler object before any crawl', async () => {
    const created = await call('POST', '/api/1/crawlers', { name: 'docs', config: docsConfig(site, other) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    id = created.body.id;
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const crawler = await call('GET', `/api/1/crawlers/${id}`);
    assert.equal(crawler.status, 200);
    assert.deepEqual(
      { ...crawler.body, createdAt: undefined, updatedAt: undefined },
      {
        id,
        name: 'docs',
        running: false,
        reindexing: false,
        blocked: false,
        lastReindexStartedAt: null,
        lastReindexEndedAt: null,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    assert.equal(crawler.body.config, undefined);
    assert.ok(!Number.isNaN(Date.parse(crawler.body.createdAt)));
    const withConfig = await call('GET', `/api/1/crawlers/${id}?withConfig=true`);
    assert.equal(withConfig.body.config.indexPrefix, 'crawler_');
    assert.equal(withConfig.body.config.actions[0].recordExtractor.source, EXTRACTOR);
    const list = await call('GET', '/api/1/crawlers');
    assert.deepEqual(list.body, { items: [{ id, name: 'docs' }], itemsPerPage: 20, page: 1, total: 1 });
    assert.equal(site.requests.length, 0, 'creating a crawler fetches nothing');
  });

  test('reindex: records of the five extracted pages, searchable; URL statistics worked out by hand', async () => {
    const started = await call('POST', `/api/1/crawlers/${id}/reindex`);
    assert.equal(started.status, 200);
    const { taskId } = started.body;
    const during = await call('GET', `/api/1/crawlers/${id}`);
    assert.equal(during.body.reindexing, true);
    assert.equal(during.body.running, true);
    await waitTask(running, id, taskId);

    const crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
    assert.equal(crawler.reindexing, false);
    assert.equal(crawler.blocked, false);
    assert.ok(Date.parse(crawler.lastReindexEndedAt) >= Date.parse(crawler.lastReindexStartedAt));

    // Fetched: robots.txt, then breadth-first from the start URL. Never: /private (outside pathsToMatch),
    // /docs/secret.html (robots.txt), the unregistered host 127.0.0.2, the fragment duplicate, mailto.
    assert.deepEqual(
      site.requests.map((request) => request.path),
      [
        '/robots.txt',
        '/docs/index.html',
        '/docs/install.html',
        '/docs/usage.html',
        '/docs/draft.html',
        '/docs/missing.html',
        '/docs/advanced.html',
        '/docs/from-draft.html',
      ],
    );
    assert.equal(other.requests.length, 0, 'a host outside the registered domains is never fetched');
    assert.match(site.requests[0]!.userAgent, /SvcSearchCrawler/);

    const all = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '', hitsPerPage: 20 });
    assert.equal(all.nbHits, 5);
    const byPath = new Map(all.hits.map((hit: any) => [hit.path, hit]));
    assert.deepEqual([...byPath.keys()].sort(), [
      '/docs/advanced.html',
      '/docs/from-draft.html',
      '/docs/index.html',
      '/docs/install.html',
      '/docs/usage.html',
    ]);
    assert.deepEqual(
      { ...(byPath.get('/docs/install.html') as any), _highlightResult: undefined },
      {
        title: 'Install',
        body: 'Run npm install',
        path: '/docs/install.html',
        objectID: objectId(`${site.origin}/docs/install.html`),
        _highlightResult: undefined,
      },
    );
    const install = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'npm install' });
    assert.deepEqual(
      install.hits.map((hit: any) => hit.title),
      ['Install'],
    );
    const indices = await running.ok('GET', '/1/indexes');
    assert.ok(
      !indices.items.some((item: any) => item.name.endsWith('.tmp')),
      'the temporary index was moved over the live one',
    );

    const stats = await call('GET', `/api/1/crawlers/${id}/stats/urls`);
    assert.equal(stats.status, 200);
    assert.equal(stats.body.count, 10);
    const lines = Object.fromEntries(stats.body.data.map((item: any) => [item.reason, item]));
    assert.deepEqual(lines.success, {
      reason: 'success',
      status: 'DONE',
      category: 'success',
      readable: 'Success',
      count: 5,
    });
    assert.deepEqual(
      Object.fromEntries(stats.body.data.map((item: any) => [item.reason, [item.status, item.category, item.count]])),
      {
        success: ['DONE', 'success', 5],
        domain_not_registered: ['SKIPPED', 'domain', 1],
        forbidden_by_robotstxt: ['SKIPPED', 'robots', 1],
        no_action_applied: ['SKIPPED', 'filter', 1],
        no_matching_action: ['SKIPPED', 'filter', 1],
        http_404: ['FAILED', 'fetch', 1],
      },
    );
    assert.equal(lines.http_404.readable, 'HTTP 404 Not Found');
  });

  test('the test endpoint answers records, links and logs and writes nothing', async () => {
    const before = site.requests.length;
    const statsBefore = (await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body;
    site.pages.set(
      '/docs/install.html',
      page('Install now', 'Run npm install today', ['/docs/index.html', '/private/notes.html']),
    );
    const answer = await call('POST', `/api/1/crawlers/${id}/test`, {
      url: `${site.origin}/docs/install.html`,
      config: { indexPrefix: 'preview_' },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const record = {
      title: 'Install now',
      body: 'Run npm install today',
      path: '/docs/install.html',
      objectID: objectId(`${site.origin}/docs/install.html`),
    };
    assert.deepEqual(answer.body.records, [
      {
        indexName: 'preview_docs',
        records: [record],
        recordsPerExtractor: [{ index: 0, type: 'custom', records: [record] }],
      },
    ]);
    assert.deepEqual(answer.body.links, [`${site.origin}/docs/index.html`], 'only links an action would follow');
    assert.deepEqual(answer.body.logs, [['extracting', '/docs/install.html']]);
    assert.deepEqual(answer.body.externalData, {});
    assert.deepEqual(answer.body.error, {});
    assert.ok(Date.parse(answer.body.endDate) >= Date.parse(answer.body.startDate));
    assert.equal(site.requests.length, before + 2, 'robots.txt and the page');
    // Nothing written: the live record is the old one, no preview index, the statistics are unchanged.
    const live = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'today' });
    assert.equal(live.nbHits, 0);
    const indices = await running.ok('GET', '/1/indexes');
    assert.ok(!indices.items.some((item: any) => item.name.startsWith('preview_')));
    assert.deepEqual((await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body, statsBefore);

    const failed = await call('POST', `/api/1/crawlers/${id}/test`, { url: `${site.origin}/docs/missing.html` });
    assert.equal(failed.status, 200);
    assert.deepEqual(failed.body.records, []);
    assert.deepEqual(failed.body.error, { code: 'http_404', message: 'HTTP 404 Not Found' });

    const broken = await call('POST', `/api/1/crawlers/${id}/test`, {
      url: `${site.origin}/docs/usage.html`,
      config: {
        actions: [
          {
            indexName: 'docs',
            pathsToMatch: [`${site.origin}/docs/**`],
            recordExtractor: { __type: 'function', source: '() => { while (true) {} }' },
          },
        ],
      },
    });
    assert.equal(broken.status, 200);
    assert.equal(broken.body.error.code, 'extractor_error');
    assert.match(broken.body.logs.at(-1)[0], /longer than 1000 ms/);

    const sandbox = await call('POST', `/api/1/crawlers/${id}/test`, {
      url: `${site.origin}/docs/usage.html`,
      config: {
        actions: [
          {
            indexName: 'docs',
            pathsToMatch: [`${site.origin}/docs/**`],
            recordExtractor: {
              __type: 'function',
              source: `({ url, $, contentLength, fileType, dataSources, helpers }) => [{ objectID: 'probe', require: typeof require, process: typeof process,
                evalBlocked: (() => { try { eval('1'); return false; } catch { return true; } })(), fileType, big: contentLength > 100,
                dataSources: JSON.stringify(dataSources), parts: helpers.splitContentIntoRecords({ $elements: $('article'), baseRecord: { u: url.pathname } }) }]`,
            },
          },
        ],
      },
    });
    assert.equal(sandbox.status, 200, JSON.stringify(sandbox.body));
    assert.deepEqual(sandbox.body.records[0].records, [
      {
        objectID: 'probe',
        require: 'undefined',
        process: 'undefined',
        evalBlocked: true,
        fileType: 'html',
        big: true,
        dataSources: '{}',
        parts: [{ u: '/docs/usage.html', text: 'Call the search method' }],
      },
    ]);
  });

  test('urls/crawl without a reindex writes into the live index; save adds extraUrls', async () => {
    const answer = await call('POST', `/api/1/crawlers/${id}/urls/crawl`, {
      urls: [`${site.origin}/docs/install.html`, `${site.origin}/docs/extra.html`],
      save: true,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    await waitTask(running, id, answer.body.taskId);
    const today = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'today' });
    assert.deepEqual(
      today.hits.map((hit: any) => [hit.objectID, hit.title]),
      [[objectId(`${site.origin}/docs/install.html`), 'Install now']],
    );
    const all = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' });
    assert.equal(all.nbHits, 6, 'install replaced in place, extra added');
    const config = (await call('GET', `/api/1/crawlers/${id}?withConfig=true`)).body.config;
    assert.deepEqual(config.extraUrls, [`${site.origin}/docs/install.html`, `${site.origin}/docs/extra.html`]);
    const stats = (await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body;
    assert.equal(stats.count, 11, 'extra.html joins the statistics of the live crawl');
  });

  test('urls/crawl during a reindex writes into the temporary index, which becomes live at the end', async () => {
    site.pages.set('/docs/later.html', page('Later', 'Added while reindexing'));
    site.held.add('/docs/advanced.html');
    const reindex = await call('POST', `/api/1/crawlers/${id}/reindex`);
    await waitFor(
      () => site.requests.some((request) => request.path === '/docs/advanced.html' && site.held.size > 0),
      'the held page',
    );
    const urls = await call('POST', `/api/1/crawlers/${id}/urls/crawl`, { urls: [`${site.origin}/docs/later.html`] });
    assert.equal(urls.status, 200);
    await waitTask(running, id, urls.body.taskId);
    const temporary = await running.ok('POST', '/1/indexes/crawler_docs.tmp/query', { query: 'later' });
    assert.equal(temporary.nbHits, 1);
    const live = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'later' });
    assert.equal(live.nbHits, 0, 'rule 1: not the live index while a reindex runs');
    assert.equal((await call('GET', `/api/1/crawlers/${id}`)).body.reindexing, true);
    site.release();
    await waitTask(running, id, reindex.body.taskId);
    const after = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'later' });
    assert.equal(after.nbHits, 1);
    // 5 pages + extra.html (saved in extraUrls) + later.html (crawled into the temporary index).
    const all = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' });
    assert.equal(all.nbHits, 7);
  });

  test('the log and usage middlewares and next() are not confused by /api/1/', async () => {
    const logs = await running.ok('GET', '/1/logs?length=1000');
    assert.ok(!logs.logs.some((entry: any) => entry.url.startsWith('/api/')));
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => running.service.handler(req, res, () => res.end('next')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/api/2/crawlers`)).text(), 'next');
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/apidocs/1/`)).text(), 'next');
      const answered = await fetch(`http://127.0.0.1:${port}/api/1/domains`, { headers: { authorization: BASIC } });
      assert.equal(answered.status, 200);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe('Crawler API: rateLimit', () => {
  test('at most rateLimit requests start in any second (rateLimit 4 → starts ≥ 250 ms apart)', async () => {
    const pages: Record<string, string> = {
      '/docs/index.html': page('Index', 'Start', [
        '/docs/1.html',
        '/docs/2.html',
        '/docs/3.html',
        '/docs/4.html',
        '/docs/5.html',
      ]),
    };
    for (let i = 1; i <= 5; i++) pages[`/docs/${i}.html`] = page(`Page ${i}`, `Number ${i}`);
    const site = await startSite('127.0.0.1', pages);
    const running = await startService({ dataDir: ':memory:' });
    const call = crawlerCall(running);
    try {
      const config: Record<string, any> = {
        ...docsConfig(site, site, 4),
        startUrls: [`${site.origin}/docs/index.html`],
      };
      config.actions[0].pathsToMatch = [`${site.origin}/docs/**`];
      const { id } = (await call('POST', '/api/1/crawlers', { name: 'paced', config })).body;
      const { taskId } = (await call('POST', `/api/1/crawlers/${id}/run`)).body; // never crawled: run starts the first reindex
      await waitTask(running, id, taskId);
      // robots.txt (404 here: everything allowed) + 6 pages = 7 requests whose starts are ≥ 250 ms apart, so
      // the reindex lasted at least six gaps (1 ms each for timer rounding). Measured on the crawler's side:
      // arrival times at the site carry the event loop's lag, which on a loaded machine shortened one gap to
      // 72 ms. Each gap of the pace itself is checked by the Pace test (crawler-pace).
      assert.equal(site.requests.length, 7);
      const crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      const lasted = Date.parse(crawler.lastReindexEndedAt) - Date.parse(crawler.lastReindexStartedAt);
      assert.ok(lasted >= 6 * 249, `the reindex lasted ${lasted} ms: six gaps of 250 ms`);
      const hits = await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' });
      assert.equal(hits.nbHits, 6);
    } finally {
      await running.stop();
      await site.close();
    }
  });
});

describe('Crawler API: blocked reindex and cancel (rule 3)', () => {
  test('every URL failing blocks the crawler, keeps the live index; only the blocking task can be cancelled', async () => {
    const site = await startSite('127.0.0.1', {
      '/docs/index.html': page('Home', 'Welcome home', ['/docs/a.html']),
      '/docs/a.html': page('A', 'Page A'),
    });
    const running = await startService({ dataDir: ':memory:' });
    const call = crawlerCall(running);
    try {
      const config = docsConfig(site, site);
      const { id } = (await call('POST', '/api/1/crawlers', { name: 'fragile', config })).body;
      const first = (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId;
      await waitTask(running, id, first);
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' })).nbHits, 2);

      site.down = true;
      const second = (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId;
      await waitFor(
        () => site.requests.filter((request) => request.path === '/docs/index.html').length === 2,
        'the second fetch',
      );
      let crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      for (let i = 0; i < 200 && !crawler.blocked; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      }
      assert.equal(crawler.blocked, true);
      assert.equal(crawler.blockingTaskId, second);
      assert.equal(crawler.reindexing, false);
      assert.equal(
        (await call('GET', `/api/1/crawlers/${id}/tasks/${second}`)).body.pending,
        true,
        'the blocking task waits for the cancel',
      );
      assert.equal(
        (await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' })).nbHits,
        2,
        'the live index is kept',
      );
      const stats = (await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body;
      assert.deepEqual(stats, {
        count: 1,
        data: [
          {
            reason: 'http_500',
            status: 'FAILED',
            category: 'fetch',
            readable: 'HTTP 500 Internal Server Error',
            count: 1,
          },
        ],
      });

      // While blocked: reindex, run and urls/crawl are refused; cancelling another task is an error.
      for (const path of ['reindex', 'run']) {
        const refused = await call('POST', `/api/1/crawlers/${id}/${path}`);
        assert.equal(refused.status, 400);
        assert.match(refused.body.message, /blocked/);
      }
      assert.equal(
        (await call('POST', `/api/1/crawlers/${id}/urls/crawl`, { urls: [`${site.origin}/docs/a.html`] })).status,
        400,
      );
      const wrong = await call('POST', `/api/1/crawlers/${id}/tasks/${first}/cancel`);
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.message, /^taskId: /);

      const cancelled = await call('POST', `/api/1/crawlers/${id}/tasks/${second}/cancel`);
      assert.equal(cancelled.status, 200);
      crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      assert.equal(crawler.blocked, false);
      assert.equal(crawler.blockingTaskId, undefined);
      assert.equal((await call('GET', `/api/1/crawlers/${id}/tasks/${second}`)).body.pending, false);
      const indices = await running.ok('GET', '/1/indexes');
      assert.deepEqual(
        indices.items.map((item: any) => item.name),
        ['crawler_docs'],
        'the temporary index is discarded',
      );
      assert.equal(
        (await call('POST', `/api/1/crawlers/${id}/tasks/${second}/cancel`)).status,
        400,
        'no longer blocking',
      );
      // Statistics are those of the live crawl again.
      assert.equal((await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body.count, 2);
    } finally {
      await running.stop();
      await site.close();
    }
  });

  test('a reindex that would lose most records of a live index of at least 10 blocks too', async () => {
    const pages: Record<string, string> = {};
    const links = Array.from({ length: 12 }, (_, i) => `/docs/${i}.html`);
    pages['/docs/index.html'] = page('Home', 'Index', links);
    for (const link of links) pages[link] = page(link, 'Some page');
    const site = await startSite('127.0.0.1', pages);
    const running = await startService({ dataDir: ':memory:' });
    const call = crawlerCall(running);
    try {
      const { id } = (await call('POST', '/api/1/crawlers', { name: 'shrinking', config: docsConfig(site, site, 100) }))
        .body;
      await waitTask(running, id, (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId);
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' })).nbHits, 13);
      site.pages.set('/docs/index.html', page('Home', 'Index', links.slice(0, 3))); // 4 records would remain of 13
      const taskId = (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId;
      let crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      for (let i = 0; i < 250 && !crawler.blocked; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        crawler = (await call('GET', `/api/1/crawlers/${id}`)).body;
      }
      assert.equal(crawler.blocked, true);
      assert.equal(crawler.blockingTaskId, taskId);
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' })).nbHits, 13);
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs.tmp/query', { query: '' })).nbHits, 4);
    } finally {
      await running.stop();
      await site.close();
    }
  });
});

describe('Crawler API: restart', () => {
  test('crawlers, tasks, statistics and records survive; an interrupted reindex ends, its temporary index goes', async () => {
    const site = await startSite('127.0.0.1', {
      '/docs/index.html': page('Home', 'Welcome home', ['/docs/a.html']),
      '/docs/a.html': page('A', 'Page A'),
    });
    const dataDir = tempDir();
    let running = await startService({ dataDir });
    let call = crawlerCall(running);
    const { id } = (await call('POST', '/api/1/crawlers', { name: 'durable', config: docsConfig(site, site) })).body;
    const first = (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId;
    await waitTask(running, id, first);
    const pause = (await call('POST', `/api/1/crawlers/${id}/pause`)).body.taskId;
    await waitTask(running, id, pause);
    const before = (await call('GET', `/api/1/crawlers/${id}?withConfig=true`)).body;
    assert.equal(before.running, false);
    // A second reindex (it runs the crawler again), held on a page, then the service stops.
    site.held.add('/docs/a.html');
    const interrupted = (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId;
    await waitFor(
      () => site.held.size > 0 && site.requests.filter((request) => request.path === '/docs/a.html').length === 2,
      'the held page',
    );
    await running.stop({ keepData: true });
    site.release();

    running = await startService({ dataDir });
    call = crawlerCall(running);
    try {
      const after = (await call('GET', `/api/1/crawlers/${id}?withConfig=true`)).body;
      assert.equal(after.name, 'durable');
      assert.equal(after.reindexing, false, 'the interrupted reindex is over');
      assert.equal(after.running, true);
      assert.equal(after.lastReindexEndedAt, before.lastReindexEndedAt);
      assert.ok(Date.parse(after.lastReindexStartedAt) > Date.parse(after.lastReindexEndedAt));
      assert.deepEqual(after.config, before.config);
      assert.equal((await call('GET', `/api/1/crawlers/${id}/tasks/${interrupted}`)).body.pending, false);
      assert.equal((await call('GET', `/api/1/crawlers/${id}/tasks/${first}`)).body.pending, false);
      const indices = await running.ok('GET', '/1/indexes');
      assert.deepEqual(
        indices.items.map((item: any) => item.name),
        ['crawler_docs'],
      );
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs/query', { query: 'welcome' })).nbHits, 1);
      assert.equal(
        (await call('GET', `/api/1/crawlers/${id}/stats/urls`)).body.count,
        2,
        'the statistics of the last finished crawl',
      );
      // And it crawls again after the restart.
      await waitTask(running, id, (await call('POST', `/api/1/crawlers/${id}/reindex`)).body.taskId);
      assert.equal((await running.ok('POST', '/1/indexes/crawler_docs/query', { query: '' })).nbHits, 2);
    } finally {
      await running.stop();
      await site.close();
    }
  });
});
