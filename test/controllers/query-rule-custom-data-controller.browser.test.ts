import { expect, waitUntil } from '@open-wc/testing';
import { QueryRuleCustomDataController } from '../../src/controllers/query-rule-custom-data-controller.js';
import { admin, settled } from '../elements/search-fixture.js';
import { createShopIndex } from '../elements/shop-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('QueryRuleCustomDataController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createShopIndex('ctrl_custom_data');
    const { taskID } = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${indexName}/rules/sale`, {
      conditions: [{ pattern: 'sale', anchoring: 'is' }],
      consequence: { userData: { banner: 'Summer sale' } },
    });
    await waitUntil(
      async () =>
        (await admin.request<{ status: string }>('GET', `/1/indexes/${indexName}/task/${taskID}`)).status ===
        'published',
    );
  });

  it('gives the rules’ userData of the results, through transformItems', async () => {
    const store = storeFor(indexName);
    const host = new PlainHost();
    const data = new QueryRuleCustomDataController<{ banner: string }>(host, { store });
    host.connect();
    await settled(store);
    expect(data.items).to.deep.equal([]);
    store.setQuery('sale');
    await settled(store);
    expect(data.items).to.deep.equal([{ banner: 'Summer sale' }]);
    data.transformItems = (items) => items.map((item) => ({ banner: item.banner.toUpperCase() }));
    expect(data.items).to.deep.equal([{ banner: 'SUMMER SALE' }]);
    store.dispose();
  });
});
