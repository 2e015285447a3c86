/**
 * The worker of `bench/local.ts` (bundled with esbuild): one engine per worker — ours (`LocalEngine` over a
 * `.svcidx`, what `svc-search/local` runs), MiniSearch or Orama (built from the records' JSON, configured as in
 * `bench/engines.ts`) — answering `{ op: 'load', engine, url }` with the load time (fetch, decode, build), the part
 * of it spent fetching and decoding the file, and the first search's, and `{ op: 'search', q }` with the top 20 records.
 */
import { decodeBundle } from '../src/engine/bundle.js';
import { LocalEngine } from '../src/local/engine-host.js';
import type { SyntheticProduct } from '../service/src/datasets/synthetic.js';
import { type Engine, minisearch, orama } from './engines.js';

type Request = { op: 'load'; engine: string; url: string; indexName: string } | { op: 'search'; q: string };

let search: (q: string) => Promise<unknown[]> | unknown[] = () => [];

async function load(
  engine: string,
  url: string,
  indexName: string,
): Promise<{ loadMs: number; firstMs: number; readMs: number }> {
  const started = performance.now();
  const response = await fetch(url);
  let read = started;
  if (engine === 'ours') {
    const local = new LocalEngine();
    const bundle = await decodeBundle(new Uint8Array(await response.arrayBuffer()));
    read = performance.now();
    await local.load(bundle);
    search = (q) =>
      (
        local.multiSearch([{ indexName, params: `query=${encodeURIComponent(q)}&hitsPerPage=20` }]).results[0] as {
          hits: unknown[];
        }
      ).hits;
  } else {
    const products = (await response.json()) as SyntheticProduct[];
    read = performance.now();
    const byId = new Map(products.map((product) => [product.objectID, product]));
    const peer: Engine = engine === 'minisearch' ? minisearch() : orama();
    await peer.build(products);
    search = async (q) => (await peer.query(q, 20)).map((id) => byId.get(id));
  }
  const loaded = performance.now();
  await search('a');
  return { loadMs: loaded - started, firstMs: performance.now() - loaded, readMs: read - started };
}

self.addEventListener('message', async (event: MessageEvent<Request>) => {
  const request = event.data;
  if (request.op === 'load') {
    self.postMessage(await load(request.engine, request.url, request.indexName));
  } else {
    self.postMessage({ hits: await search(request.q) });
  }
});
