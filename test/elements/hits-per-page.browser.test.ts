import { expect, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { SvcHitsPerPage } from '../../src/elements/hits-per-page/svc-hits-per-page.js';
import '../../src/elements/hits-per-page/define.js';
import '../../src/elements/hits/define.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled, shadow } from './search-fixture.js';

const select = (element: SvcHitsPerPage) => shadow(element).querySelector<HTMLSelectElement>('select[part="select"]')!;

/** Captures console.error calls during `run` (to assert the message a page author would see). */
async function consoleErrors(run: () => Promise<void>): Promise<string[]> {
  const original = console.error;
  const messages: string[] = [];
  console.error = (...args: unknown[]) => void messages.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return messages;
}

describe('<svc-hits-per-page>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_hpp_el');
  });

  async function setup(
    content = html`<svc-hits-per-page>
      <option value="8" selected>8 per page</option>
      <option value="16">16 per page</option>
      <option value="40">40 per page</option>
    </svc-hits-per-page>`,
  ) {
    const root = await searchFixture(indexName, html`${content}<svc-hits></svc-hits>`);
    const element = root.querySelector('svc-hits-per-page')!;
    await element.updateComplete;
    const hits = root.querySelector('svc-hits')!;
    await hits.updateComplete;
    return { root, element, hits, store: root.store! };
  }

  it('is accessible', async () => {
    const { element } = await setup();
    await expect(element).to.be.accessible();
  });

  it('uses the selected option as the default from the first search on', async () => {
    const { element, hits, store } = await setup();
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(8);
    expect(shadow(hits).querySelectorAll('li[part~="item"]')).to.have.length(8);
    expect(select(element).value).to.equal('8');
    expect(element.value).to.equal(8);
    const label = shadow(element).querySelector('label')!;
    expect(label.textContent!.trim()).to.equal('Results per page');
    expect(label.htmlFor).to.equal(select(element).id);
    // The default is not written into the state (so not into the URL).
    expect(store.getSnapshot().state.hitsPerPage).to.equal(undefined);
  });

  it('changes the page size with the keyboard, fires svc-hits-per-page-change, back to the first page', async () => {
    const { element, hits, store } = await setup();
    store.setPage(2);
    await settled(store);
    select(element).focus();
    const changed = oneEvent(element, 'svc-hits-per-page-change');
    await sendKeys({ press: 'ArrowDown' });
    expect((await changed).detail).to.deep.equal({ value: 16 });
    await settled(store);
    await hits.updateComplete;
    const { state, results } = store.getSnapshot();
    expect(state.hitsPerPage).to.equal(16);
    expect(state.page).to.equal(0);
    expect(results!.hitsPerPage).to.equal(16);
    expect(shadow(hits).querySelectorAll('li[part~="item"]')).to.have.length(16);
    await sendKeys({ press: 'ArrowDown' });
    await settled(store);
    await hits.updateComplete;
    expect(shadow(hits).querySelectorAll('li[part~="item"]')).to.have.length(36);
    // Back to the default: the state forgets the size.
    await sendKeys({ press: 'Home' });
    await settled(store);
    expect(store.getSnapshot().state.hitsPerPage).to.equal(undefined);
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(8);
  });

  it('shows a size set elsewhere without firing events', async () => {
    const { element, store } = await setup();
    let fired = 0;
    element.addEventListener('svc-hits-per-page-change', () => fired++);
    store.setHitsPerPage(40);
    await settled(store);
    await element.updateComplete;
    expect(select(element).value).to.equal('40');
    element.refine(16);
    await settled(store);
    await element.updateComplete;
    expect(select(element).value).to.equal('16');
    expect(fired).to.equal(0);
    expect(() => element.refine(17)).to.throw(RangeError, /17 is not one of the sizes offered \(8, 16, 40\)/);
  });

  it('takes items as a property (first item the default when none is marked)', async () => {
    const { element, store } = await setup(html`<svc-hits-per-page></svc-hits-per-page>`);
    element.items = [
      { value: 5, label: 'Five' },
      { value: 10, label: 'Ten' },
    ];
    await element.updateComplete;
    await settled(store);
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(5);
    expect([...select(element).options].map((o) => o.textContent!.trim())).to.deep.equal(['Five', 'Ten']);
  });

  it('reports an invalid size clearly and keeps the valid ones', async () => {
    let element!: SvcHitsPerPage;
    const errors = await consoleErrors(async () => {
      ({ element } = await setup(html`<svc-hits-per-page>
        <option value="ten">ten</option>
        <option value="12" selected>12 per page</option>
      </svc-hits-per-page>`));
    });
    expect(errors.some((message) => /<svc-hits-per-page>: .*is not a page size/.test(message))).to.be.true;
    expect([...select(element).options].map((o) => o.value)).to.deep.equal(['12']);
  });

  it('renders hostile labels as text', async () => {
    const hostile = await createIndex('svc_hpp_hostile', HOSTILE);
    const root = await searchFixture(hostile, html`<svc-hits-per-page></svc-hits-per-page>`);
    const element = root.querySelector('svc-hits-per-page')!;
    element.items = [{ value: 1, label: '<img src=x onerror="window.__svcPwned = 15">', default: true }];
    await element.updateComplete;
    expect(select(element).options[0].textContent!.trim()).to.equal('<img src=x onerror="window.__svcPwned = 15">');
    expect(deepQueryAll(root, 'img, script')).to.have.length(0);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
