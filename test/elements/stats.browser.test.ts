import { expect, html } from '@open-wc/testing';
import type { SvcStats } from '../../src/elements/stats/svc-stats.js';
import '../../src/elements/stats/define.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const region = (stats: SvcStats) => shadow(stats).querySelector('[part="base"]')!;
const text = (stats: SvcStats) => region(stats).textContent!.trim();

describe('<svc-stats>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_stats_el');
  });

  async function setup(content = html`<svc-stats></svc-stats>`) {
    const root = await searchFixture(indexName, content);
    const stats = root.querySelector('svc-stats')!;
    await stats.updateComplete;
    return { root, stats, store: root.store! };
  }

  it('is accessible', async () => {
    const { stats } = await setup();
    await expect(stats).to.be.accessible();
  });

  it('shows hits and time in a polite live region', async () => {
    const { stats, store } = await setup();
    const live = region(stats);
    expect(live.getAttribute('role')).to.equal('status');
    expect(live.getAttribute('aria-live')).to.equal('polite');
    expect(live.getAttribute('aria-atomic')).to.equal('true');
    const time = store.getSnapshot().results!.processingTimeMS;
    expect(text(stats)).to.equal(`36 results found in ${time} ms`);
    expect(stats.nbHits).to.equal(36);
    expect(stats.processingTimeMS).to.equal(time);
  });

  it('renders the live region before the first results (so the first count is announced)', async () => {
    const stats = document.createElement('svc-stats');
    document.body.append(stats);
    await stats.updateComplete;
    expect(region(stats)).to.exist;
    expect(text(stats)).to.equal('');
    stats.remove();
  });

  it('follows a typo query, a refinement and the singular and empty cases', async () => {
    const { stats, store } = await setup();
    store.setQuery('notebok'); // one typo: the 12 notebooks
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^12 results found in \d+ ms$/);

    store.toggleRefinement('brand', 'Lenovo', 'or');
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^6 results found in \d+ ms$/); // every Lenovo is a notebook

    store.clearRefinements();
    store.setQuery('model 7');
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^1 result found in \d+ ms$/);

    store.setQuery('zzqqxxjj');
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^No results found in \d+ ms$/);
  });

  it('keeps the count across pages', async () => {
    const { stats, store } = await setup();
    store.setPage(1);
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^36 results found in \d+ ms$/);
  });

  it('takes translations from the root and the element, with plural forms and formatted numbers', async () => {
    const { root, stats, store } = await setup();
    root.translations = { stats: '{count} Treffer', 'stats.one': 'ein Treffer' };
    await root.updateComplete;
    await stats.updateComplete;
    expect(text(stats)).to.equal('36 Treffer');
    store.setQuery('model 7');
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.equal('ein Treffer');
    stats.translations = { stats: '{count} produits en {time} ms', 'stats.one': '{count} produit en {time} ms' };
    await stats.updateComplete;
    expect(text(stats)).to.match(/^1 produit en \d+ ms$/);
    stats.lang = 'de';
    stats.translations = { stats: '{count} Produkte' };
    store.setQuery('');
    store.setHitsPerPage(1);
    await settled(store);
    await stats.updateComplete;
    expect(text(stats)).to.equal('36 Produkte');
  });

  it('shows a hostile query nowhere and injects nothing', async () => {
    const hostile = await createIndex('svc_stats_hostile', HOSTILE);
    const root = await searchFixture(hostile, html`<svc-stats></svc-stats>`);
    const stats = root.querySelector('svc-stats')!;
    root.store!.setQuery('<img src=x onerror="window.__svcPwned = 10">phone');
    await settled(root.store!);
    await stats.updateComplete;
    expect(text(stats)).to.match(/^\d+ results? found in \d+ ms$|^No results found in \d+ ms$/);
    expect(deepQueryAll(root, 'img, script')).to.have.length(0);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
