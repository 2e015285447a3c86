/** Mounts the example: `<div id="app"></div>` in your page, then this module (built by Vite, esbuild, …). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Shop } from './Shop.js';

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <Shop
      appId="SVCLOCAL"
      apiKey="local-search-key"
      indexName="products"
      hosts="http://127.0.0.1:8787"
      onQuery={(query) => console.log('query', query)}
    />
  </StrictMode>,
);
