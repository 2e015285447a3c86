import { expect } from '@open-wc/testing';
import { SortByController } from '../../src/controllers/sort-by-controller.js';
import { admin, createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

async function waitTask(indexName: string, taskID: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const task = await admin.request<{ status: string }>(
      'GET',
      `/1/indexes/${encodeURIComponent(indexName)}/task/${taskID}`,
    );
    if (task.status === 'published') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskID} not published`);
}

describe('SortByController (headless)', () => {
  it('switches the store to a replica and back, and refuses an index it does not offer', async () => {
    const primary = await createIndex('ctrl_sort');
    const replica = `${primary}_price_desc`;
    const set = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${primary}/settings`, {
      replicas: [replica],
    });
    await waitTask(primary, set.taskID);
    const ranking = await admin.request<{ taskID: number }>('PUT', `/1/indexes/${replica}/settings`, {
      ranking: ['desc(price)', 'typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'],
    });
    await waitTask(replica, ranking.taskID);

    const store = storeFor(primary);
    const host = new PlainHost();
    const sort = new SortByController(host, { store });
    sort.items = [
      { value: primary, label: 'Relevance' },
      { value: replica, label: 'Price (high first)' },
    ];
    host.connect();
    await settled(store);
    expect(sort.currentIndex).to.equal(primary);
    expect(sort.currentItem?.label).to.equal('Relevance');
    expect(store.getSnapshot().results!.hits[0].objectID).to.equal('p0');

    sort.refine(replica);
    await settled(store);
    expect(sort.currentIndex).to.equal(replica);
    expect(store.getSnapshot().results!.hits[0].objectID).to.equal('p35'); // the most expensive
    expect(() => sort.refine('elsewhere')).to.throw(RangeError, /"elsewhere" is not one of the sort orders/);
    sort.refine(primary);
    await settled(store);
    expect(store.getSnapshot().results!.hits[0].objectID).to.equal('p0');
    host.disconnect();
    store.dispose();
  });
});
