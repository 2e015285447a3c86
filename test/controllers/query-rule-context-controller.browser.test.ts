import { expect } from '@open-wc/testing';
import { QueryRuleContextController, ruleContextValue } from '../../src/controllers/query-rule-context-controller.js';
import { settled } from '../elements/search-fixture.js';
import { createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

const sent = (store: { requestLog: Array<{ body: unknown }> }) =>
  (store.requestLog.at(-1)!.body as { requests: Array<{ params: { ruleContexts?: string[] } }> }).requests[0]!.params
    .ruleContexts;

describe('QueryRuleContextController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_rule_context');
  });

  it('sends fixed and tracked contexts computed from the state searched; a new configuration searches again', async () => {
    expect(ruleContextValue('Office Supplies > Art')).to.equal('Office_Supplies___Art');
    const store = storeFor(indexName, { disjunctiveFacetRefinements: { brand: ['Avery'] } });
    const host = new PlainHost();
    const context = new QueryRuleContextController(host, { store });
    context.contexts = ['shop'];
    context.trackedFilters = ['brand'];
    host.connect();
    await settled(store);
    expect(sent(store)).to.deep.equal(['shop', 'svc-brand-Avery']);
    expect(context.contextsOf()).to.deep.equal(['shop', 'svc-brand-Avery']);
    context.contexts = ['mobile'];
    host.requestUpdate();
    await host.updateComplete;
    await settled(store);
    expect(sent(store)).to.deep.equal(['mobile', 'svc-brand-Avery']);
    host.disconnect();
    store.subscribe(() => {});
    store.toggleRefinement('brand', 'Hon', 'or');
    await settled(store);
    expect(sent(store), 'disconnected: no contexts').to.equal(undefined);
    store.dispose();
  });
});
