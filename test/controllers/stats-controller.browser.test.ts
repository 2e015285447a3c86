import { expect } from '@open-wc/testing';
import { StatsController } from '../../src/controllers/stats-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('StatsController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_stats');
  });

  it('gives the count, time, page figures and status of the latest results, and stops on disconnect', async () => {
    const store = storeFor(indexName, { hitsPerPage: 10 });
    const host = new PlainHost();
    const stats = new StatsController(host, { store });
    expect(stats.hasResults).to.be.false;
    expect(stats.nbHits).to.equal(0);
    host.connect();
    await settled(store);
    expect(stats.hasResults).to.be.true;
    expect(stats.nbHits).to.equal(36);
    expect(stats.nbPages).to.equal(4);
    expect(stats.hitsPerPage).to.equal(10);
    expect(stats.processingTimeMS).to.be.a('number').and.at.least(0);
    expect(stats.status).to.equal('idle');

    store.setQuery('notebok');
    await settled(store);
    expect(stats.nbHits).to.equal(12);
    expect(stats.query).to.equal('notebok');

    host.disconnect();
    const updates = host.updates;
    store.setQuery('');
    await settled(store);
    expect(host.updates).to.equal(updates);
    expect(stats.hasResults).to.be.false;
    store.dispose();
  });
});
