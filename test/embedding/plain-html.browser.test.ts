/**
 * Plain HTML, with the example users copy (examples/plain-html/index.html): a page with one
 * `<script type="module">` (the loader `dist/svc-search.js`, which imports the chunks beside it) and the tags,
 * nothing else. The test
 * loads the example as it is, only pointing `hosts` and `index-name` at this test server's service, in an
 * iframe, and searches in it. `dist/svc-search.js` comes from `npm run build` (the Node tests build it first).
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { hitTexts, indexProducts, until, clearInsightsStorage } from './fixture.js';

describe('plain HTML page (only the module script and the tags)', () => {
  let indexName: string;
  let frame: HTMLIFrameElement;

  before(async () => {
    indexName = await indexProducts('embed_plain');
    const bundle = await fetch('/dist/svc-search.js', { method: 'HEAD' });
    expect(
      bundle.ok,
      'dist/svc-search.js is missing: run `npm run build` (npm test builds it in the Node tests)',
    ).to.equal(true);
  });

  after(() => clearInsightsStorage());

  afterEach(() => frame?.remove());

  /** The example file; the test server injects its own web-socket script into HTML, which is taken out. */
  async function examplePage(): Promise<Document> {
    const html = await (await fetch('/examples/plain-html/index.html')).text();
    const page = new DOMParser().parseFromString(html, 'text/html');
    for (const script of page.querySelectorAll('script[src^="/__web-dev-server"]')) script.remove();
    return page;
  }

  async function loadExample(): Promise<Document> {
    const page = await examplePage();
    // The user's own settings: their service and index.
    const search = page.querySelector('svc-search')!;
    search.setAttribute('hosts', location.origin);
    search.setAttribute('index-name', indexName);
    // The example's relative script URL, resolved as if the file were served from its folder.
    const base = page.createElement('base');
    base.href = `${location.origin}/examples/plain-html/`;
    page.head.prepend(base);
    frame = document.createElement('iframe');
    frame.style.cssText = 'width: 900px; height: 1200px';
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.srcdoc = `<!doctype html>${page.documentElement.outerHTML}`;
    document.body.append(frame);
    await loaded;
    return frame.contentDocument!;
  }

  it('the example has one module script and the tags, nothing else', async () => {
    const page = await examplePage();
    const scripts = [...page.querySelectorAll('script')];
    expect(scripts.map((s) => [s.type, s.getAttribute('src'), s.textContent!.trim()])).to.deep.equal([
      ['module', '../../dist/svc-search.js', ''],
    ]);
    expect(page.querySelectorAll('link, style, [style]').length).to.equal(0);
    const tags = [...page.body.querySelectorAll('*')].map((el) => el.localName);
    expect(tags).to.deep.equal(['svc-search', 'svc-search-box', 'svc-refinement-list', 'svc-hits', 'svc-pagination']);
  });

  it('searches, refines and pages in the page, loading nothing but the bundle and the service API', async () => {
    const doc = await loadExample();
    const win = doc.defaultView!;
    await until(() => Boolean(win.customElements.get('svc-hits')), 'the bundle registered the tags');
    const hits = doc.querySelector('svc-hits')!;
    await until(() => hitTexts(hits).length === 20, 'first page of hits');
    expect(hitTexts(hits)[0]).to.equal('Acme Phone 1');

    const pager = doc.querySelector('svc-pagination')!;
    await until(
      () => Boolean(pager.shadowRoot?.querySelector('a[part~="page"]:not([part~="current"])')),
      'a link to page 2',
    );
    pager.shadowRoot!.querySelector<HTMLAnchorElement>('a[part~="page"]:not([part~="current"])')!.click();
    await until(() => hitTexts(hits).length === 2, 'page 2: the last 2 of 22 products');
    expect(frame.contentWindow!.location.href).to.equal('about:srcdoc'); // the link click stayed in the page

    const input = doc.querySelector('svc-search-box')!.shadowRoot!.querySelector('input')!;
    input.focus();
    await sendKeys({ type: 'globx' }); // one typo
    await until(() => hitTexts(hits).length === 6, 'the 6 Globex phones despite the typo');

    const list = doc.querySelector('svc-refinement-list')!;
    await until(() => list.shadowRoot?.querySelectorAll('input[type="checkbox"]').length === 1, 'one brand value');
    list.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await until(() => doc.querySelector('svc-search')!.store!.isRefined('brand', 'Globex'), 'refined');

    const requested = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    const other = requested.filter(
      (path) => path !== '/dist/svc-search.js' && !/^\/dist\/chunks\/[\w-]+\.js$/.test(path) && !/^\/1\//.test(path),
    );
    expect(other).to.deep.equal([]);
    expect(requested).to.include('/dist/svc-search.js');
    // The loader brought the chunks of the page's elements (named after their folders) and the shared core.
    for (const chunk of ['core', 'search-box', 'refinement-list', 'hits', 'pagination'])
      expect(requested.some((path) => path.startsWith(`/dist/chunks/${chunk}-`))).to.equal(true, chunk);
  });
});
