/**
 * Hits painted from a `<template>` by the first-paint script (src/prepaint/paint.ts), and the upgrade of the
 * `<svc-highlight>` it painted: the element replaces the painted nodes with the same render (no doubled text), as
 * it does when it is defined before `<svc-hits>` takes its list over. That the painted list equals `<svc-hits>`'
 * render is proven end to end by test/e2e/prepaint-paint.node.test.ts.
 */
import { expect, fixture } from '@open-wc/testing';
import { SvcHighlight } from '../../src/elements/highlight/svc-highlight.js';
import { isPrepainted } from '../../src/prepaint/takeover.js';
import { paintHits } from '../../src/prepaint/paint.js';
import type { SearchResults } from '../../src/store/types.js';

const HIT = {
  objectID: 'p1',
  name: 'Acme <b>phone</b>',
  price: 1234.5,
  _highlightResult: { name: { value: '__svc-highlight__Acme__/svc-highlight__ &lt;b&gt;phone&lt;/b&gt;' } },
};
const RESULTS = { hits: [HIT], page: 0, hitsPerPage: 20, queryID: 'q1', index: 'products' } as unknown as SearchResults;

const withoutComments = (markup: string | undefined) => markup?.replace(/<!--[\s\S]*?-->/g, '');

describe('first paint: hits from a <template>', () => {
  it('fills the template for the language, paints the highlight, which its upgrade renders once', async () => {
    const host = await fixture<HTMLElement>(`<div lang="de"><section>
      <template><style>p { margin: 0 }</style><p data-text="price" data-currency="EUR"></p><svc-highlight attribute="name"></svc-highlight></template>
    </section></div>`);
    const section = host.querySelector('section')!;
    const painted = paintHits(section, RESULTS, 'products', { template: section.querySelector('template')! });
    expect(painted).to.not.equal(undefined);
    const root = painted!.root;
    expect(root.querySelector('style')!.textContent).to.equal('p { margin: 0 }');
    expect(root.querySelector('li p')!.textContent).to.equal('1.234,50\u00a0€');
    const highlight = root.querySelector('svc-highlight')!;
    expect(highlight.shadowRoot!.innerHTML).to.equal('<mark part="highlighted">Acme</mark> &lt;b&gt;phone&lt;/b&gt;');
    expect(isPrepainted(highlight.shadowRoot)).to.equal(true);

    customElements.define('svc-highlight', SvcHighlight);
    await (highlight as SvcHighlight).updateComplete;
    expect(isPrepainted(highlight.shadowRoot)).to.equal(false);
    expect(withoutComments(highlight.shadowRoot!.innerHTML)).to.equal(
      '<mark part="highlighted">Acme</mark> &lt;b&gt;phone&lt;/b&gt;',
    );
  });
});
