/** Mounts the example: `<div id="app"></div>` in your page, then this module. */
import { createApp, h } from 'vue';
import { createClient } from 'svc-search/client';
import { createSearchStore } from 'svc-search/store';
import { ShopSearch, isCustomElement } from './shop-search.js';

const client = createClient({ appId: 'SVCLOCAL', apiKey: 'local-search-key', hosts: ['http://127.0.0.1:8787'] });
const store = createSearchStore({ client, indexName: 'products' });

const app = createApp({
  render: () => h(ShopSearch, { store, onQuery: (query: string) => console.log('query', query) }),
});
app.config.compilerOptions.isCustomElement = isCustomElement;
app.mount('#app');
