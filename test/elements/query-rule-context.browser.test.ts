/**
 * <svc-query-rule-context> in real Chromium against the real service: its contexts are sent with every search
 * (a rule with a context condition applies), refined values of tracked filters become contexts in the same
 * request as the refinement, united with a <svc-configure>'s, transformRuleContexts, removal, and it shows nothing.
 */
import { expect, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/query-rule-context/define.js';
import '../../src/elements/configure/define.js';
import { admin, searchFixture, settled } from './search-fixture.js';
import { createShopIndex } from './shop-fixture.js';

async function saveRule(indexName: string, objectID: string, rule: Record<string, unknown>) {
  const { taskID } = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/rules/${objectID}`, rule);
  await waitUntil(
    async () =>
      (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status === 'published',
  );
}

/** The `ruleContexts` of the main query of the store's last request. */
const sentContexts = (store: { requestLog: Array<{ body: unknown }> }) =>
  (store.requestLog.at(-1)!.body as { requests: Array<{ params: { ruleContexts?: string[] } }> }).requests[0]!.params
    .ruleContexts;

describe('<svc-query-rule-context>', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('svc_rule_context');
    await saveRule(indexName, 'shop-banner', {
      conditions: [{ context: 'shop' }],
      consequence: { userData: { message: 'shop context' } },
    });
    await saveRule(indexName, 'hon-banner', {
      conditions: [{ context: 'svc-brand-Hon' }],
      consequence: { userData: { message: 'Hon refined' } },
    });
  });

  it('sends its contexts with every search: a rule with that context applies; it shows nothing', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-query-rule-context contexts="shop,mobile"></svc-query-rule-context>`,
    );
    const store = root.store!;
    await waitUntil(() => store.getSnapshot().results?.userData !== undefined, 'the rule of the context');
    expect(sentContexts(store)).to.deep.equal(['mobile', 'shop']);
    expect(store.getSnapshot().results!.userData).to.deep.equal([{ message: 'shop context' }]);
    const element = root.querySelector('svc-query-rule-context')!;
    expect(element.ruleContexts).to.deep.equal(['shop', 'mobile']);
    expect(getComputedStyle(element).display).to.equal('none');
    expect(element.shadowRoot!.childElementCount).to.equal(0);
    await expect(root).to.be.accessible();
  });

  it('tracked filters: a refined value becomes svc-<attribute>-<value>, in the same request as the refinement', async () => {
    const root = await searchFixture(
      indexName,
      html`<svc-query-rule-context tracked-filters="brand,category"></svc-query-rule-context>
        <svc-configure rule-contexts="page-search"></svc-configure>`,
    );
    const store = root.store!;
    await settled(store);
    expect(sentContexts(store)).to.deep.equal(['page-search']);
    const logged = store.requestLog.length;
    store.toggleRefinement('brand', 'Hon', 'or');
    store.toggleRefinement('category', 'Office Supplies');
    await settled(store);
    expect(store.requestLog.length).to.equal(logged + 1, 'one request');
    expect(sentContexts(store)).to.deep.equal(['page-search', 'svc-brand-Hon', 'svc-category-Office_Supplies']);
    expect(store.getSnapshot().results!.userData).to.deep.equal([{ message: 'Hon refined' }]);
    const element = root.querySelector('svc-query-rule-context')!;
    element.transformRuleContexts = (contexts) => contexts.filter((context) => !context.includes('category'));
    await settled(store);
    await waitUntil(() => !JSON.stringify(sentContexts(store)).includes('category'));
    expect(sentContexts(store)).to.deep.equal(['page-search', 'svc-brand-Hon']);
    element.remove();
    store.toggleRefinement('brand', 'Global', 'or');
    await settled(store);
    expect(sentContexts(store), 'removed: its contexts go').to.deep.equal(['page-search']);
  });
});
