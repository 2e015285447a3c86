/**
 * AutocompleteController driven by a host that is not an element (headless use), against the local service:
 * suggestions asked per text with out-of-order answers ignored, move wrapping, select / submit as store
 * actions, close, clear, and a new store resetting what was suggested.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { AutocompleteController } from '../../src/controllers/autocomplete-controller.js';
import { admin, createIndex } from '../elements/search-fixture.js';
import { PlainHost, storeFor } from './host.js';

describe('AutocompleteController (headless)', () => {
  let indexName: string;
  before(async () => {
    indexName = await createIndex('svc_ac_controller');
    const batch = await admin.request<{ taskID: number }>('POST', `/1/indexes/${indexName}_query_suggestions/batch`, {
      requests: ['apple', 'apple notebook', 'apple headset', 'dell'].map((query, i) => ({
        action: 'addObject',
        body: { objectID: query, query, popularity: 10 - i },
      })),
    });
    await waitUntil(
      async () =>
        (
          await admin.request<{ status: string }>(
            'GET',
            `/1/indexes/${indexName}_query_suggestions/task/${batch.taskID}`,
          )
        ).status === 'published',
    );
  });

  function setup() {
    const host = new PlainHost();
    const store = storeFor(indexName);
    const ac = new AutocompleteController(host, { store });
    host.connect();
    return { host, store, ac };
  }

  it('asks the default suggestions index for the text; only the latest text is shown', async () => {
    const { ac, store } = setup();
    expect(ac.indexName).to.equal(`${indexName}_query_suggestions`);
    ac.setInput('d'); // its answer comes with the next one's (same tick: one batch) and is ignored
    ac.setInput('app');
    expect(ac.status).to.equal('loading');
    await waitUntil(() => ac.status === 'ready');
    expect(ac.suggestions.map((s) => s.query)).to.deep.equal(['apple', 'apple notebook', 'apple headset']);
    expect(ac.suggestions[0]!.highlighted).to.equal('__svc-highlight__app__/svc-highlight__le');
    expect(ac.expanded).to.be.true;
    // One call carried both texts' suggestions: here the store's first search, queued in the same tick, took them
    // along (kind 'search'); without a search due they go alone (kind 'multiSearch').
    const suggestionCalls = store.requestLog.filter(
      (entry) =>
        !entry.cached &&
        (entry.body as { requests: Array<{ indexName: string }> }).requests.some(
          (request) => request.indexName === `${indexName}_query_suggestions`,
        ),
    );
    expect(suggestionCalls).to.have.length(1);
    store.dispose();
  });

  it('move wraps, select and submit are store actions, close keeps the suggestions, clear empties all', async () => {
    const { ac, store } = setup();
    ac.setInput('app');
    await waitUntil(() => ac.status === 'ready');
    ac.move(-1);
    expect(ac.activeIndex).to.equal(2);
    ac.move(1);
    expect(ac.activeIndex).to.equal(0);
    store.setPage(1);
    expect(ac.select()).to.equal('apple');
    expect(store.getSnapshot().state).to.include({ query: 'apple', page: 0 });
    expect(ac.expanded).to.be.false;
    ac.move(1); // opens again on the first
    expect([ac.expanded, ac.activeIndex]).to.deep.equal([true, 0]);
    ac.close();
    expect([ac.expanded, ac.activeIndex, ac.suggestions.length]).to.deep.equal([false, -1, 3]);
    expect(ac.input, 'the text is the results’ query').to.equal('apple');
    expect(ac.select(1), 'nothing to select in a closed list').to.equal(undefined);
    ac.setInput('dell');
    expect(ac.submit()).to.equal('dell');
    expect(store.getSnapshot().state.query).to.equal('dell');
    ac.clear();
    expect([ac.input, ac.suggestions.length, store.getSnapshot().state.query]).to.deep.equal(['', 0, '']);
    store.dispose();
  });

  it('a new store drops what the old one suggested', async () => {
    const { ac, host } = setup();
    ac.setInput('app');
    await waitUntil(() => ac.status === 'ready');
    const other = storeFor(indexName);
    (ac as unknown as { options: { store: unknown } }).options.store = other;
    host.requestUpdate();
    await host.updateComplete;
    expect([ac.suggestions.length, ac.status, ac.expanded]).to.deep.equal([0, 'idle', false]);
    other.dispose();
  });
});
