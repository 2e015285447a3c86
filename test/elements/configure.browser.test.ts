import { expect, html } from '@open-wc/testing';
import type { SvcConfigure } from '../../src/elements/configure/svc-configure.js';
import '../../src/elements/configure/define.js';
import { parameterName, parseParameter } from '../../src/controllers/configure-controller.js';
import { HOSTILE, createIndex, deepQueryAll, searchFixture, settled } from './search-fixture.js';

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

/** The params of the last search request the store sent for the main query. */
function lastParams(store: { requestLog: Array<{ kind: string; body: unknown }> }): Record<string, unknown> {
  const last = [...store.requestLog].reverse().find((entry) => entry.kind === 'search');
  const body = last!.body as { requests: Array<{ params: Record<string, unknown> | string }> };
  const params = body.requests[0].params;
  return typeof params === 'string' ? Object.fromEntries(new URLSearchParams(params)) : params;
}

describe('<svc-configure>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_configure_el', undefined, {
      attributesForFaceting: ['searchable(brand)', 'category', 'price'],
    });
  });

  async function setup(content: ReturnType<typeof html>) {
    const root = await searchFixture(indexName, content);
    const element = root.querySelector('svc-configure')!;
    await element.updateComplete;
    await settled(root.store!);
    return { root, element, store: root.store! };
  }

  it('is accessible and shows nothing', async () => {
    const { element } = await setup(html`<svc-configure hits-per-page="5"></svc-configure>`);
    await expect(element).to.be.accessible();
    expect(getComputedStyle(element).display).to.equal('none');
  });

  it('sends attributes as typed search parameters from the first search', async () => {
    const { store, element } = await setup(
      html`<svc-configure hits-per-page="5" filters="category:Phones AND price < 300" analytics="false" attributesToRetrieve="name,brand"></svc-configure>`,
    );
    const { results } = store.getSnapshot();
    expect(results!.hitsPerPage).to.equal(5);
    expect(results!.nbHits).to.equal(7); // phones p0…p18 (price 100…280)
    expect(
      Object.keys(results!.hits[0])
        .filter((key) => !key.startsWith('_'))
        .sort(),
    ).to.deep.equal(['brand', 'name', 'objectID']);
    expect(element.searchParameters).to.deep.equal({
      hitsPerPage: 5,
      filters: 'category:Phones AND price < 300',
      analytics: false,
      attributesToRetrieve: ['name', 'brand'],
    });
  });

  it('searches again when an attribute changes, and merges the params property over the attributes', async () => {
    const { store, element } = await setup(
      html`<svc-configure hits-per-page="5" filters="category:Phones"></svc-configure>`,
    );
    expect(store.getSnapshot().results!.nbHits).to.equal(12);
    element.setAttribute('filters', 'category:Laptops AND brand:Lenovo');
    await new Promise((r) => setTimeout(r));
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    element.params = { hitsPerPage: 2, distinct: false };
    await element.updateComplete;
    await settled(store);
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(2);
    expect(lastParams(store)).to.include({ hitsPerPage: 2 });
    element.removeAttribute('filters');
    await new Promise((r) => setTimeout(r));
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
    // No parameter left at all: the results are those of the plain search again.
    element.params = undefined;
    element.removeAttribute('hits-per-page');
    await new Promise((r) => setTimeout(r));
    await element.updateComplete;
    await settled(store);
    expect(element.searchParameters).to.deep.equal({});
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(20);
  });

  it('removes its parameters when removed from the page', async () => {
    const { store, element } = await setup(html`<svc-configure filters="brand:Sony"></svc-configure>`);
    expect(store.getSnapshot().results!.nbHits).to.equal(6);
    // Something shows the results (as the hits next to a configure element would): a store works while listened to.
    const unsubscribe = store.subscribe(() => {});
    element.remove();
    await new Promise((r) => setTimeout(r));
    await settled(store);
    expect(store.getSnapshot().results!.nbHits).to.equal(36);
    unsubscribe();
  });

  it('ignores its own and global attributes, and reports a value of the wrong type', async () => {
    let store!: Awaited<ReturnType<typeof setup>>['store'];
    let element!: SvcConfigure;
    const errors = await consoleErrors(async () => {
      ({ store, element } = await setup(
        html`<svc-configure id="cfg" class="x" data-test="1" aria-hidden="true" hits-per-page="many" get-ranking-info></svc-configure>`,
      ));
    });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.match(/<svc-configure>: hits-per-page="many" is not a number; the parameter is left out\./);
    expect(element.searchParameters).to.deep.equal({ getRankingInfo: true });
    expect(store.getSnapshot().results!.hits[0]._rankingInfo).to.be.an('object');
    expect(store.getSnapshot().results!.hitsPerPage).to.equal(20);
  });

  it('reads attributes by the type of each parameter', () => {
    expect(parameterName('hits-per-page')).to.equal('hitsPerPage');
    expect(parameterName('hitsperpage')).to.equal('hitsPerPage');
    expect(parameterName('min-word-sizefor1-typo')).to.equal('minWordSizefor1Typo');
    expect(parameterName('my-custom-param')).to.equal('myCustomParam');
    expect(parseParameter('query', '123')).to.deep.equal(['query', '123']);
    expect(parseParameter('distinct', '2')).to.deep.equal(['distinct', 2]);
    expect(parseParameter('distinct', '')).to.deep.equal(['distinct', true]);
    expect(parseParameter('typo-tolerance', 'min')).to.deep.equal(['typoTolerance', 'min']);
    expect(parseParameter('typo-tolerance', 'false')).to.deep.equal(['typoTolerance', false]);
    expect(parseParameter('ignore-plurals', 'fr,en')).to.deep.equal(['ignorePlurals', ['fr', 'en']]);
    expect(parseParameter('rule-contexts', '["a","b"]')).to.deep.equal(['ruleContexts', ['a', 'b']]);
    expect(parseParameter('facet-filters', '[["brand:Sony","brand:Dell"],"category:Phones"]')).to.deep.equal([
      'facetFilters',
      [['brand:Sony', 'brand:Dell'], 'category:Phones'],
    ]);
    expect(parseParameter('around-radius', 'all')).to.deep.equal(['aroundRadius', 'all']);
    expect(() => parseParameter('analytics', 'maybe')).to.throw(TypeError, /analytics="maybe" is not a boolean/);
    expect(() => parseParameter('numeric-filters', '[oops')).to.throw(TypeError, /not a JSON array/);
  });

  it('passes hostile attribute values to the service as data only', async () => {
    const hostile = await createIndex('svc_configure_hostile', HOSTILE);
    const root = await searchFixture(
      hostile,
      html`<svc-configure filters="brand:'<img src=x onerror=&quot;window.__svcPwned = 16&quot;>'" highlight-pre-tag="<script>window.__svcPwned = 17</script>"></svc-configure>`,
    );
    await settled(root.store!);
    expect(root.store!.getSnapshot().status).to.be.oneOf(['idle', 'error']);
    expect(deepQueryAll(root, 'img, script')).to.have.length(0);
    expect((window as unknown as { __svcPwned?: number }).__svcPwned).to.equal(undefined);
  });
});
