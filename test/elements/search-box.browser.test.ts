import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createClient } from '../../src/client/index.js';
import { createSearchStore } from '../../src/store/index.js';
import type { SvcSearch } from '../../src/elements/search/svc-search.js';
import type { SvcSearchBox } from '../../src/elements/search-box/svc-search-box.js';
import '../../src/elements/search-box/define.js';
import '../../src/elements/hits/define.js';
import { APP_ID, SEARCH_KEY, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const input = (box: SvcSearchBox) => shadow(box).querySelector('input')!;

describe('<svc-search-box>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_search_box_el');
  });

  async function setup(attributes = html`<svc-search-box></svc-search-box>`) {
    const root = await searchFixture(indexName, html`${attributes}<svc-hits></svc-hits>`);
    const box = root.querySelector('svc-search-box')!;
    await box.updateComplete;
    return { root, box, store: root.store! };
  }

  it('is accessible', async () => {
    const { box } = await setup();
    await expect(box).to.be.accessible();
  });

  it('is a search landmark with a labelled search field', async () => {
    const { box } = await setup();
    const form = shadow(box).querySelector('form')!;
    expect(form.getAttribute('role')).to.equal('search');
    expect(form.getAttribute('aria-busy')).to.equal('false');
    const label = shadow(box).querySelector(`label[for="${input(box).id}"]`)!;
    expect(label.textContent).to.equal('Search');
    expect(input(box).type).to.equal('search');
    expect(input(box).placeholder).to.equal('Search…');
    const reset = shadow(box).querySelector<HTMLButtonElement>('button[type="reset"]')!;
    expect(reset.hidden).to.be.true;
    expect(reset.getAttribute('aria-label')).to.equal('Clear the search');
  });

  it('searches as the user types (a typo query finds the word) and fires svc-search-input', async () => {
    const { box, store, root } = await setup();
    const queries: string[] = [];
    box.addEventListener('svc-search-input', (e) => queries.push(e.detail.query));
    box.focus();
    await sendKeys({ type: 'smartphnoe' });
    expect(queries.at(-1)).to.equal('smartphnoe');
    expect(queries).to.have.length(10);
    await settled(store);
    expect(store.getSnapshot().state.query).to.equal('smartphnoe');
    expect(store.getSnapshot().results!.nbHits).to.equal(12); // two typos allowed on a long word
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    expect(shadow(hits).querySelectorAll('li')).to.have.length(12);
    expect(shadow(box).querySelector<HTMLButtonElement>('button[type="reset"]')!.hidden).to.be.false;
  });

  it('clears with Escape (svc-search-reset) and with the reset button, keeping the focus in the field', async () => {
    const { box, store } = await setup();
    box.focus();
    await sendKeys({ type: 'notebook' });
    await settled(store);
    const reset = oneEvent(box, 'svc-search-reset');
    await sendKeys({ press: 'Escape' });
    expect((await reset).detail.query).to.equal('');
    expect(input(box).value).to.equal('');
    expect(store.getSnapshot().state.query).to.equal('');

    await sendKeys({ type: 'dell' });
    await box.updateComplete;
    const button = shadow(box).querySelector<HTMLButtonElement>('button[type="reset"]')!;
    button.click();
    await box.updateComplete;
    expect(input(box).value).to.equal('');
    expect(store.getSnapshot().state.query).to.equal('');
    expect(shadow(box).activeElement).to.equal(input(box));
  });

  it('with search-as-you-type="false", searches on Enter only (svc-search-submit)', async () => {
    const { box, store } = await setup(html`<svc-search-box search-as-you-type="false"></svc-search-box>`);
    box.focus();
    await sendKeys({ type: 'lenovo' });
    await new Promise((r) => setTimeout(r, 50));
    expect(store.getSnapshot().state.query).to.equal('');
    const submitted = oneEvent(box, 'svc-search-submit');
    await sendKeys({ press: 'Enter' });
    expect((await submitted).detail.query).to.equal('lenovo');
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
  });

  it('takes the focus with autofocus', async () => {
    const { box } = await setup(html`<svc-search-box autofocus></svc-search-box>`);
    expect(document.activeElement).to.equal(box);
    expect(shadow(box).activeElement).to.equal(input(box));
    await sendKeys({ type: 'sony' });
    expect(input(box).value).to.equal('sony');
  });

  it('follows the store’s query when it changes elsewhere', async () => {
    const { box, store } = await setup();
    store.setQuery('sony');
    await settled(store);
    await box.updateComplete;
    expect(input(box).value).to.equal('sony');
  });

  it('shows a loading indicator and aria-busy while the search is stalled', async () => {
    const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin], cache: false });
    const store = createSearchStore({ client, indexName, stalledDelayMs: 0, cache: false });
    const root = await fixture<SvcSearch>(
      html`<svc-search insights="false" .store=${store}><svc-search-box></svc-search-box></svc-search>`,
    );
    const box = root.querySelector('svc-search-box')!;
    await settled(store);
    const form = shadow(box).querySelector('form')!;
    const indicator = shadow(box).querySelector('[part="loading-indicator"]')!;
    // Record what the box shows once it has rendered the stalled status (before the answer arrives).
    const seen: Array<{ busy: string | null; label: string | null; hidden: boolean }> = [];
    const unsubscribe = store.subscribe(({ status }) => {
      if (status !== 'stalled') return;
      void box.updateComplete.then(() =>
        seen.push({
          busy: form.getAttribute('aria-busy'),
          label: indicator.getAttribute('aria-label'),
          hidden: indicator.querySelector('svg')!.hasAttribute('hidden'),
        }),
      );
    });
    store.setQuery('samsung');
    await waitUntil(() => seen.length > 0, 'never stalled');
    unsubscribe();
    expect(seen[0]).to.deep.equal({ busy: 'true', label: 'Searching…', hidden: false });
    await settled(store);
    await box.updateComplete;
    expect(form.getAttribute('aria-busy')).to.equal('false');
    expect(indicator.querySelector('svg')!.hasAttribute('hidden')).to.be.true;
    root.remove();
    store.dispose();
  });

  it('is translatable; the placeholder attribute wins', async () => {
    const { box } = await setup(html`<svc-search-box lang="fr"></svc-search-box>`);
    box.translations = { label: 'Rechercher', placeholder: 'Rechercher…', resetTitle: 'Effacer' };
    await box.updateComplete;
    expect(shadow(box).querySelector('label')!.textContent).to.equal('Rechercher');
    expect(input(box).placeholder).to.equal('Rechercher…');
    box.placeholder = 'Chercher un produit';
    await box.updateComplete;
    expect(input(box).placeholder).to.equal('Chercher un produit');
    await expect(box).to.be.accessible();
  });

  it('treats a hostile query as text everywhere', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const { box, store, root } = await setup();
    box.focus();
    const hostile = '<img src=x onerror="window.__svcPwned=1"><script>window.__svcPwned=2</script>';
    await sendKeys({ type: hostile });
    await settled(store);
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    await new Promise((r) => setTimeout(r, 100));
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
    expect(input(box).value).to.equal(hostile);
    expect(shadow(hits).querySelector('[part="empty"]')!.textContent).to.equal(`No results for “${hostile}”.`);
    expect(deepQueryAll(root, 'img, script, [onerror]')).to.deep.equal([]);
  });
});
