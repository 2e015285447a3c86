import { expect, fixture, html } from '@open-wc/testing';
import { createClient } from '../../src/client/index.js';
import type { Hit } from '../../src/client/types.js';
import type { SvcSnippet } from '../../src/elements/snippet/svc-snippet.js';
import { HIGHLIGHT_PARAMS } from '../../src/elements/base/highlight.js';
import '../../src/elements/snippet/define.js';
import { APP_ID, HOSTILE, PRODUCTS, SEARCH_KEY, createIndex } from './search-fixture.js';

const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });

async function snippetOf(hit: Hit, attribute: string) {
  const wrapper = await fixture<HTMLElement>(
    html`<p><svc-snippet .hit=${hit} attribute=${attribute}></svc-snippet></p>`,
  );
  const snippet = wrapper.querySelector('svc-snippet') as SvcSnippet;
  await snippet.updateComplete;
  return snippet;
}

describe('<svc-snippet>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex('svc_snippet_el');
    hostileIndex = await createIndex('svc_snippet_hostile', HOSTILE);
  });

  it('is accessible and shows the part around the match, marked', async () => {
    const { hits } = await client.search(indexName, {
      query: 'batery', // typo
      attributesToSnippet: ['description:4'],
      ...HIGHLIGHT_PARAMS,
    });
    const snippet = await snippetOf(hits[0], 'description');
    await expect(snippet.parentElement).to.be.accessible();
    const text = snippet.shadowRoot!.textContent!;
    expect(text.length).to.be.below(PRODUCTS[0].description.length);
    expect(snippet.shadowRoot!.querySelector('mark[part="highlighted"]')!.textContent).to.match(/^batter/);
  });

  it('falls back to the raw value as text without a snippet result', async () => {
    const snippet = await snippetOf({ objectID: 'x', description: 'plain <em>text</em>' } as Hit, 'description');
    expect(snippet.shadowRoot!.textContent).to.equal('plain <em>text</em>');
    expect(snippet.shadowRoot!.querySelector('mark, em')).to.be.null;
  });

  it('never executes nor injects hostile values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const { hits } = await client.search(hostileIndex, {
      query: 'phone',
      attributesToSnippet: ['description:20'],
      ...HIGHLIGHT_PARAMS,
    });
    const evil = hits.find((hit) => hit.objectID === 'evil1')!;
    const snippet = await snippetOf(evil, 'description');
    await new Promise((r) => setTimeout(r, 50));
    expect(snippet.shadowRoot!.textContent).to.contain('<b onmouseover="window.__svcPwned = 3">bold</b>');
    expect(snippet.shadowRoot!.querySelectorAll('b, em')).to.have.length(0);
    expect([...snippet.shadowRoot!.querySelectorAll('mark')].map((m) => m.textContent)).to.deep.equal(['phone']);
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
  });
});
