/**
 * The tag → chunk map of the loader (`dist/svc-search.js`), generated from the element folders at build time:
 * every `src/elements/<folder>/define.ts` is a chunk, and the tags it registers are read from its
 * `customElements.define('svc-…', …)` calls. A new element folder is picked up without editing a list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** Tags that provide the store to the others (registered last in a batch: see src/loader.ts). */
const ROOT_TAGS = new Set(['svc-search']);

export interface ElementChunk {
  tag: string;
  /** The element folder (`hits`). */
  folder: string;
  /** Absolute path of its define file. */
  define: string;
}

/**
 * Every tag defined by an element folder's define file.
 *
 * @example
 * elementChunks('/repo/src/elements').find((c) => c.tag === 'svc-hits')?.folder // 'hits'
 */
export function elementChunks(elementsDir: string): ElementChunk[] {
  const chunks: ElementChunk[] = [];
  for (const folder of readdirSync(elementsDir).sort()) {
    const define = join(elementsDir, folder, 'define.ts');
    if (!existsSync(define)) continue;
    const source = readFileSync(define, 'utf8');
    const tags = [...source.matchAll(/customElements\.define\(\s*['"](svc-[a-z0-9-]+)['"]/g)].map((m) => m[1]!);
    if (!tags.length) throw new Error(`${define} registers no svc-* tag with customElements.define('svc-…', …)`);
    for (const tag of tags) chunks.push({ tag, folder, define });
  }
  return chunks;
}

/** Id of the generated loader entry. */
export const LOADER_ENTRY = 'virtual:svc-search-loader';

/**
 * A Vite plugin providing {@link LOADER_ENTRY}: `startLoader({ 'svc-hits': { load: () => import(…) }, … })` over
 * the element folders of `elementsDir`, with `hydrateModule` as the hydration chunk of server-rendered pages, and
 * `discover` exported for pages with shadow roots.
 */
export function loaderEntry(loaderModule: string, hydrateModule: string, elementsDir: string): Plugin {
  const resolved = `\0${LOADER_ENTRY}`;
  return {
    name: 'svc-search-loader-entry',
    resolveId: (id) => (id === LOADER_ENTRY ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      const entries = elementChunks(elementsDir).map(
        ({ tag, define }) =>
          `  ${JSON.stringify(tag)}: { load: () => import(${JSON.stringify(define)})${ROOT_TAGS.has(tag) ? ', root: true' : ''} },`,
      );
      return [
        `import { startLoader } from ${JSON.stringify(loaderModule)};`,
        `const loader = startLoader({\n${entries.join('\n')}\n}, { hydrate: () => import(${JSON.stringify(hydrateModule)}).then((chunk) => chunk.startHydration()) });`,
        'export const discover = loader.discover;',
      ].join('\n');
    },
  };
}
