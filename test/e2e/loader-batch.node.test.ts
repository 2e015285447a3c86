/**
 * The loader requests every chunk a page needs in one batch, the root's (`<svc-search>`) included: packed
 * `dist/`, a page on another origin than the service, real Chromium.
 *
 * The page server holds the responses of the other elements' chunks until the root's chunk has been requested. A
 * loader that asked for the root's chunk only once the others had arrived (a round trip more before the first
 * search) never gets them: the root's request does not come, and the test fails at its bound. A loader that
 * requests the root's chunk with the others gets them at once. The order is forced by the server, not raced.
 *
 * The same on a page served with a nonce Content-Security-Policy (`script-src 'nonce-…'`): the root's chunk is
 * requested early by a `<link rel="modulepreload">`, which the policy refuses unless it carries the nonce of the
 * loader's `<script>` — a loader adding preloads without it gets its root's chunk only once the others are
 * imported (never, here), and the page reports the refusals as `securitypolicyviolation` events.
 *
 * The three-element page is used: its two held chunks, the loader, the core and the root's chunk fit in the
 * browser's six connections per origin, so a held response cannot queue the root's request behind it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { catalogue, indexProducts } from '../client/fixture.js';
import { packAll } from '../package/pack.js';
import { FIRST_PAINT_INDEX, loaderPage, THREE_ELEMENTS } from '../size/pages.js';
import {
  type CrossOrigin,
  FIRST_PAINT_INIT,
  type FirstPaint,
  firstPaintScript,
  startCrossOrigin,
} from './cross-origin.js';

/** `hits` for `/dist/chunks/hits-AbC123.js` (a hash may start with `-`); `undefined` for another path. */
const chunkName = (path: string) => /^\/dist\/chunks\/([a-z-]+?)-[\w-]{6}\.js$/.exec(path)?.[1];
/** How long the root's chunk request is waited for: far more than it takes, so only a loader that never asks fails. */
const BOUND_MS = 10_000;

/** The nonce of the CSP page's policy and of its loader `<script>`. */
const NONCE = 'c3ZjLXNlYXJjaC1ub25jZQ';
const CSP_PAGE = loaderPage(THREE_ELEMENTS).replace(
  '<script type="module" src=',
  `<script type="module" nonce="${NONCE}" src=`,
);
/** Listens for CSP refusals from the start of the page (an init script runs outside the page's policy). */
const VIOLATIONS_INIT = `(() => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
})()`;

/** Held until the page being tested has requested its root's chunk: one per test. */
interface Hold {
  requested: Promise<void>;
  release(): void;
}
function newHold(): Hold {
  let release = () => {};
  const requested = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { requested, release };
}

describe('loader: one batch of requests, the root element chunk included (packed dist/, Chromium)', () => {
  let site: CrossOrigin;
  let packDir: string;
  let requested: string[] = [];
  let hold = newHold();

  before(async () => {
    packDir = mkdtempSync(join(tmpdir(), 'svc-loader-batch-'));
    const { library } = packAll(packDir);
    execFileSync('tar', ['-xzf', library.tarball, '-C', packDir]);
    site = await startCrossOrigin({
      dist: join(packDir, 'package/dist'),
      pages: { '/three': loaderPage(THREE_ELEMENTS), '/three-csp': CSP_PAGE },
      pageHeaders: { '/three-csp': { 'content-security-policy': `script-src 'nonce-${NONCE}'` } },
      beforeServe(path) {
        requested.push(path);
        const name = chunkName(path);
        if (name === 'search') hold.release();
        // The other elements' chunks wait for the root's request; the loader and the core do not.
        if (name === undefined || name === 'search' || name === 'core') return undefined;
        return hold.requested;
      },
    });
    await indexProducts(site.admin, FIRST_PAINT_INDEX, catalogue(40));
  });

  after(async () => {
    hold.release();
    await site?.close();
    if (packDir) rmSync(packDir, { recursive: true, force: true });
  });

  /**
   * Opens `page` in a new context and checks that the root's chunk was requested while the other element chunks
   * were held, both loaded, and the page made one search. Returns the tab (for more checks) and its context.
   */
  async function oneBatch(page: string) {
    hold = newHold();
    requested = [];
    const context = await site.browser.newContext();
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    await tab.addInitScript(FIRST_PAINT_INIT);
    await tab.addInitScript(VIOLATIONS_INIT);
    const searchesBefore = site.requests.length;
    await tab.goto(`${site.pageOrigin}${page}`);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      hold.requested.then(() => 'requested'),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('never'), BOUND_MS);
      }),
    ]);
    clearTimeout(timer);
    // Release the held chunks whatever happened, so the page and the servers can close.
    hold.release();
    assert.equal(
      outcome,
      'requested',
      `the root's chunk was not requested while the other element chunks were pending: ${requested.join(', ')}`,
    );
    const painted = (await tab.evaluate(firstPaintScript(100))) as FirstPaint;
    const scripts = [...painted.before, ...painted.after];
    const root = scripts.find((script) => chunkName(script.path) === 'search');
    const elements = scripts.filter((script) => ['search-box', 'hits'].includes(chunkName(script.path) ?? ''));
    assert.ok(root, `the root's chunk loaded: ${scripts.map((s) => s.path)}`);
    assert.equal(elements.length, 2, `both element chunks loaded: ${scripts.map((s) => s.path)}`);
    for (const element of elements)
      assert.ok(
        root.start < element.end,
        `${root.path} requested at ${root.start} ms, ${element.path} done at ${element.end} ms`,
      );
    const searches = site.requests
      .slice(searchesBefore)
      .filter((request) => request.method === 'POST' && request.url.startsWith('/1/indexes/*/queries'));
    assert.equal(searches.length, 1, 'every element is in the first search');
    assert.deepEqual(errors, []);
    return { tab, context, painted };
  }

  test("the root's chunk is requested before any other element's chunk has arrived; one search, hits painted", async () => {
    const { context } = await oneBatch('/three');
    await context.close();
  });

  test("under a nonce Content-Security-Policy the preloads carry the loader script's nonce: accepted, one batch", async () => {
    const { tab, context, painted } = await oneBatch('/three-csp');
    assert.ok(painted.preloaded.length > 0, 'the loader added preloads');
    const nonces = (await tab.evaluate(
      `[...document.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.nonce)`,
    )) as string[];
    assert.deepEqual(new Set(nonces), new Set([NONCE]), 'every preload has the nonce');
    assert.deepEqual(await tab.evaluate('window.__violations'), [], 'no CSP refusal');
    await context.close();
  });
});
