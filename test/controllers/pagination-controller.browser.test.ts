import { expect } from '@open-wc/testing';
import { PaginationController } from '../../src/controllers/pagination-controller.js';
import { createIndex, settled } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('PaginationController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('ctrl_pagination');
  });

  it('gives the window of pages, real URLs, and clamps setPage', async () => {
    const store = storeFor(indexName, { hitsPerPage: 3 }); // 12 pages
    const host = new PlainHost();
    const pager = new PaginationController(host, { store });
    host.connect();
    await settled(store);
    expect(pager.nbPages).to.equal(12);
    expect(pager.pages).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    expect(pager.isFirstPage).to.be.true;
    pager.setPage(6);
    await settled(store);
    expect(pager.pages).to.deep.equal([3, 4, 5, 6, 7, 8, 9]);
    pager.setPage(50);
    await settled(store);
    expect(pager.currentPage).to.equal(11);
    expect(pager.isLastPage).to.be.true;
    expect(pager.pages).to.deep.equal([5, 6, 7, 8, 9, 10, 11]);
    const url = pager.createURL(4);
    expect(url.startsWith('?')).to.be.true;
    expect(store.fromQueryString(url.slice(1)).page).to.equal(4);
    pager.totalPages = 5;
    expect(pager.nbPages).to.equal(5);
    pager.padding = 1;
    expect(pager.pages).to.deep.equal([2, 3, 4]);
    host.disconnect();
    store.dispose();
  });
});
