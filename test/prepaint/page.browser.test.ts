/**
 * What the first-paint script accepts to paint (src/prepaint/page.ts) and the needs it reads from the attributes.
 * The elements are not defined here (as on a page before the chunks arrive). That the needs give the store's very
 * request is proven end to end by test/e2e/prepaint-paint.node.test.ts (one search on load).
 */
import { expect, fixture } from '@open-wc/testing';
import { REFINEMENT_LIST_DEFAULTS } from '../../src/controllers/first-search-needs.js';
import { hitAttributes } from '../../src/elements/base/hit-fields.js';
import { SvcHits } from '../../src/elements/hits/svc-hits.js';
import { HITS_LIST_LABEL } from '../../src/elements/hits/translations.js';
import { SvcRefinementList } from '../../src/elements/refinement-list/svc-refinement-list.js';
import { readPage } from '../../src/prepaint/page.js';

const ROOT = 'app-id="APP" api-key="key" index-name="products" hosts="http://127.0.0.1:1"';

async function page(markup: string) {
  await fixture(markup);
  return readPage(document);
}

describe('first paint: the pages it paints', () => {
  it("assumes the elements' own defaults: the refinement list's options, the hit list's strings", () => {
    // The classes are not registered here (no define file): read their field initialisers from a plain instance.
    customElements.define('prepaint-refinement-list', class extends SvcRefinementList {});
    const list = document.createElement('prepaint-refinement-list') as SvcRefinementList;
    const { operator, limit, showMore, showMoreLimit } = list;
    expect({ operator, limit, showMore, showMoreLimit }).to.deep.equal(REFINEMENT_LIST_DEFAULTS);
    expect(SvcHits.defaultTranslations.listLabel).to.equal(HITS_LIST_LABEL);
  });

  it('reads the root, the hit list and the needs of the six mission elements', async () => {
    const found = await page(`<svc-search ${ROOT}>
      <svc-search-box placeholder="Search"></svc-search-box>
      <svc-refinement-list attribute="brand" searchable show-more show-more-limit="30"></svc-refinement-list>
      <svc-hits attribute="name"></svc-hits>
      <svc-pagination></svc-pagination>
      <svc-recommendations object-id="p1"></svc-recommendations>
      <svc-trending></svc-trending>
    </svc-search>`);
    expect(found).to.not.equal(undefined);
    expect(found!.hits.localName).to.equal('svc-hits');
    expect(found!.hosts).to.equal('http://127.0.0.1:1');
    expect(found!.attribute).to.equal('name');
    expect(found!.needs).to.deep.equal([
      { disjunctiveFacets: ['brand'], maxValuesPerFacet: 30 },
      {
        params: { highlightPreTag: '__svc-highlight__', highlightPostTag: '__/svc-highlight__' },
        attributesToRetrieve: ['name'],
        attributesToHighlight: ['name'],
      },
    ]);
  });

  it('reads a refinement list as its element does: AND facets, an invalid limit as the default', async () => {
    const found = await page(`<svc-search ${ROOT}>
      <svc-refinement-list attribute="color" operator="and" limit="abc"></svc-refinement-list>
      <svc-hits></svc-hits>
    </svc-search>`);
    expect(found!.needs[0]).to.deep.equal({ facets: ['color'], maxValuesPerFacet: 10 });
  });

  it('reads a <template> child: the hits are that template, the request asks what it names, as the element does', async () => {
    const template = `<template>
      <style>p { margin: 0 }</style>
      <a data-href="url" data-attr-title="name"><svc-highlight attribute="name" part="name"></svc-highlight></a>
      <img data-src="image" data-attr-alt="name">
      <span data-text="price" data-currency="USD"></span>
      <svc-snippet attribute="description" words="5" separator=" / "></svc-snippet>
    </template>`;
    const found = await page(`<svc-search ${ROOT}><svc-hits attribute="brand">${template}</svc-hits></svc-search>`);
    expect(found).to.not.equal(undefined);
    expect(found!.template).to.equal(found!.hits.querySelector('template'));
    const element = { template: found!.template, attribute: 'brand', custom: false, explicit: undefined };
    expect(found!.needs).to.deep.equal([
      {
        params: { highlightPreTag: '__svc-highlight__', highlightPostTag: '__/svc-highlight__' },
        ...hitAttributes(element),
      },
    ]);
    expect(hitAttributes(element)).to.deep.equal({
      attributesToRetrieve: ['description', 'image', 'name', 'price', 'url'],
      attributesToHighlight: ['name'],
      attributesToSnippet: ['description:5'],
    });
  });

  const refused: Array<[string, string]> = [
    [
      'a <template> holding a custom element it does not know',
      `<svc-search ${ROOT}><svc-hits><template><p><my-card></my-card></p></template></svc-hits></svc-search>`,
    ],
    [
      'a <template> holding another svc element',
      `<svc-search ${ROOT}><svc-hits><template><svc-stats></svc-stats></template></svc-hits></svc-search>`,
    ],
    [
      'a <template> holding a customised built-in',
      `<svc-search ${ROOT}><svc-hits><template><button is="my-button"></button></template></svc-hits></svc-search>`,
    ],
    [
      'a highlight whose attributes a field sets',
      `<svc-search ${ROOT}><svc-hits><template><svc-highlight data-attr-attribute="field"></svc-highlight></template></svc-hits></svc-search>`,
    ],
    [
      'a highlight with an attribute it does not read',
      `<svc-search ${ROOT}><svc-hits><template><svc-highlight attribute="name" search="other"></svc-highlight></template></svc-hits></svc-search>`,
    ],
    [
      'a hit list with a child besides its <template>',
      `<svc-search ${ROOT}><svc-hits><template><p></p></template><p></p></svc-hits></svc-search>`,
    ],
    ['a hit list with a child that is no <template>', `<svc-search ${ROOT}><svc-hits><p></p></svc-hits></svc-search>`],
    ['an attribute it does not know', `<svc-search ${ROOT}><svc-hits data-x="1"></svc-hits></svc-search>`],
    ['a server-rendered root', `<svc-search ${ROOT} server-state="s"><svc-hits></svc-hits></svc-search>`],
    [
      'an element it does not know',
      `<svc-search ${ROOT}><svc-configure></svc-configure><svc-hits></svc-hits></svc-search>`,
    ],
    ['two roots', `<div><svc-search ${ROOT}><svc-hits></svc-hits></svc-search><svc-search ${ROOT}></svc-search></div>`],
    [
      'an element outside the root',
      `<div><svc-search ${ROOT}><svc-hits></svc-hits></svc-search><svc-pagination></svc-pagination></div>`,
    ],
    ['no hit list', `<svc-search ${ROOT}><svc-search-box></svc-search-box></svc-search>`],
    ['a root without its index', `<svc-search app-id="APP" api-key="key"><svc-hits></svc-hits></svc-search>`],
    ['a hit list naming another root', `<svc-search ${ROOT}><svc-hits search="other"></svc-hits></svc-search>`],
  ];
  for (const [name, markup] of refused) {
    it(`does not paint: ${name}`, async () => {
      expect(await page(markup)).to.equal(undefined);
    });
  }

  it('does not paint a hit list given a property by code before it is defined (renderHit)', async () => {
    const element = await fixture(`<svc-search ${ROOT}><svc-hits></svc-hits></svc-search>`);
    expect(readPage(document)).to.not.equal(undefined);
    Object.assign(element.querySelector('svc-hits')!, { renderHit: () => 'custom' });
    expect(readPage(document)).to.equal(undefined);
  });

  it("reads a routed root's URL state: the query string the store starts from, none without routing", async () => {
    const original = location.href;
    try {
      history.replaceState(null, '', `${location.pathname}?q=acme&page=2`);
      await fixture(`<svc-search ${ROOT} routing><svc-hits></svc-hits></svc-search>`);
      expect(readPage(document)!.route).to.equal('q=acme&page=2');
      document.querySelector('svc-search')!.removeAttribute('routing');
      expect(readPage(document)!.route).to.equal('');
    } finally {
      history.replaceState(null, '', original);
    }
  });

  it("reads the root's insightsConsent property set before it is defined, over the attribute, as <svc-search> does", async () => {
    const root = (await fixture(
      `<svc-search ${ROOT} insights-consent="false"><svc-hits></svc-hits></svc-search>`,
    )) as Element & { insightsConsent?: unknown; translations?: unknown };
    expect(readPage(document)!.insights!.consent).to.equal(false);
    root.insightsConsent = true;
    expect(readPage(document)!.insights!.consent).to.equal(true, 'the property wins over the attribute');
    root.removeAttribute('insights-consent');
    root.insightsConsent = 'denied';
    expect(readPage(document)!.insights!.consent).to.equal(false, 'read with the converter: it fails closed');
    root.translations = {};
    expect(readPage(document), 'any other property set by code').to.equal(undefined);
    delete root.translations;
    const hits = document.querySelector('svc-hits') as Element & { insightsConsent?: unknown };
    hits.insightsConsent = true;
    expect(readPage(document), 'on another element').to.equal(undefined);
  });

  it("reads the root's Insights attributes as <svc-search> does", async () => {
    const root = await fixture(`<svc-search ${ROOT}><svc-hits></svc-hits></svc-search>`);
    /** The Insights read with only `attributes` (name → value) besides the root's own. */
    const insights = (attributes: Record<string, string> = {}) => {
      for (const name of ['insights', 'insights-consent', 'insights-cookie', 'insights-user-token'])
        root.removeAttribute(name);
      for (const [name, value] of Object.entries(attributes)) root.setAttribute(name, value);
      return readPage(document)!.insights;
    };
    const granted = { consent: true, useCookie: false, userToken: null };
    expect(insights()).to.deep.equal(granted);
    expect(insights({ insights: 'false' })).to.equal(undefined);
    expect(insights({ insights: 'off' })).to.deep.equal(granted, 'only "false" turns it off');
    for (const value of ['', 'true', 'granted', 'GRANTED '])
      expect(insights({ 'insights-consent': value })).to.deep.equal(granted, value);
    for (const value of ['false', 'denied', 'no', 'grant'])
      expect(insights({ 'insights-consent': value })!.consent).to.equal(false, value);
    expect(insights({ 'insights-cookie': '', 'insights-user-token': 'user-42' })).to.deep.equal({
      consent: true,
      useCookie: true,
      userToken: 'user-42',
    });
  });
});
