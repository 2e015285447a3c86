import { expect, fixture, html } from '@open-wc/testing';
import { createClient } from '../../src/client/index.js';
import type { Hit } from '../../src/client/types.js';
import type { SvcHighlight } from '../../src/elements/highlight/svc-highlight.js';
import { HIGHLIGHT_PARAMS, parseHighlight } from '../../src/elements/base/highlight.js';
import '../../src/elements/highlight/define.js';
import { APP_ID, HOSTILE, SEARCH_KEY, createIndex } from './search-fixture.js';

const client = createClient({ appId: APP_ID, apiKey: SEARCH_KEY, hosts: [location.origin] });

async function highlightOf(hit: Hit, attribute: string, extra = html``) {
  const element = await fixture<SvcHighlight>(
    html`<p><svc-highlight .hit=${hit} attribute=${attribute}></svc-highlight>${extra}</p>`,
  );
  const highlight = element.querySelector('svc-highlight')!;
  await highlight.updateComplete;
  return highlight;
}

describe('<svc-highlight>', () => {
  let indexName: string;
  let hostileIndex: string;
  before(async () => {
    indexName = await createIndex(
      'svc_highlight_el',
      [
        {
          objectID: 'a',
          name: 'Wireless noise cancelling headphones',
          tags: ['audio', 'wireless'],
          brand: { name: 'Sony' },
          rank: 0,
        },
      ],
      { searchableAttributes: ['name', 'tags', 'brand.name'] },
    );
    hostileIndex = await createIndex('svc_highlight_hostile', HOSTILE);
  });

  it('is accessible and marks the matched words of a real search (typo included)', async () => {
    const { hits } = await client.search(indexName, { query: 'wireles headphone', ...HIGHLIGHT_PARAMS });
    const highlight = await highlightOf(hits[0], 'name');
    await expect(highlight.parentElement).to.be.accessible();
    expect(highlight.shadowRoot!.textContent).to.equal('Wireless noise cancelling headphones');
    const marks = [...highlight.shadowRoot!.querySelectorAll('mark')];
    expect(marks.map((mark) => mark.getAttribute('part'))).to.deep.equal(['highlighted', 'highlighted']);
    expect(marks[0].textContent).to.match(/^Wireles/);
    expect(marks[1].textContent).to.match(/^headphone/);
  });

  it('joins array attributes, reads nested attributes and falls back to the raw value as text', async () => {
    const { hits } = await client.search(indexName, { query: 'sony audio', ...HIGHLIGHT_PARAMS });
    const tags = await highlightOf(hits[0], 'tags');
    expect(tags.shadowRoot!.textContent).to.equal('audio, wireless');
    expect(tags.shadowRoot!.querySelector('mark')!.textContent).to.equal('audio');
    tags.separator = ' · ';
    await tags.updateComplete;
    expect(tags.shadowRoot!.textContent).to.equal('audio · wireless');
    const brand = await highlightOf(hits[0], 'brand.name');
    expect(brand.shadowRoot!.querySelector('mark')!.textContent).to.equal('Sony');
    const raw = await highlightOf({ objectID: 'x', price: '<b>12 & 13</b>' } as Hit, 'price');
    expect(raw.shadowRoot!.textContent).to.equal('<b>12 & 13</b>');
    expect(raw.shadowRoot!.querySelector('mark, b')).to.be.null;
  });

  it('parses the service’s default <em> tags as well, and decodes escapes only as text', () => {
    expect(parseHighlight('a <em>b</em> &lt;i&gt; &amp;amp; &#39;')).to.deep.equal([
      { value: 'a ', highlighted: false },
      { value: 'b', highlighted: true },
      { value: " <i> &amp; '", highlighted: false },
    ]);
  });

  it('never executes nor injects hostile values', async () => {
    delete (window as { __svcPwned?: unknown }).__svcPwned;
    const { hits } = await client.search(hostileIndex, { query: 'evil phone', ...HIGHLIGHT_PARAMS });
    const evil = hits.find((hit) => hit.objectID === 'evil1')!;
    const name = await highlightOf(evil, 'name');
    const brand = await highlightOf(evil, 'brand');
    await new Promise((r) => setTimeout(r, 100));
    expect(name.shadowRoot!.textContent).to.equal(HOSTILE[0].name);
    expect(brand.shadowRoot!.textContent).to.equal(HOSTILE[0].brand);
    expect(name.shadowRoot!.querySelectorAll('script, img')).to.have.length(0);
    expect(brand.shadowRoot!.querySelectorAll('script, img')).to.have.length(0);
    expect((window as { __svcPwned?: unknown }).__svcPwned).to.be.undefined;
  });
});
