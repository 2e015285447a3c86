/**
 * The tag → chunk map of the loader (`dist/svc-search.js`), generated from the element folders at build time:
 * every `src/elements/<folder>/define.ts` is a chunk, and the tags it registers are read from its
 * `customElements.define('svc-…', …)` calls. A new element folder is picked up without editing a list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** Tags that provide the store to the others (registered last in a batch: see src/loader.ts). */
const ROOT_TAGS = new Set(['svc-search']);

/**
 * Element folders whose chunk carries another element's chunk (rider → host). The two share a base (the search
 * field, the hit list with its fields, the Recommend list): left to the bundler, that base is a chunk of its own,
 * and a page with the host pays a file more — a request, and ≈ 0.1–0.2 kB of gzip that a file compressed alone
 * loses. With the host's define imported by the rider's chunk, the base travels inside the host's chunk: a page
 * with the host loads one file; a page with the rider alone loads the host's chunk too (its element class,
 * ≈ 0.3 kB, and its tag registered). The hosts are mission elements, found on most pages; their riders are not.
 */
const CHUNK_HOSTS: Readonly<Record<string, string>> = {
  autocomplete: 'search-box',
  'infinite-hits': 'hits',
  trending: 'recommendations',
};

/**
 * Prefix of the loader build's module per element folder (`svc-search-element:hits`): it imports the folder's
 * define file (after its host's, if any) and exports nothing, so the loader's `import()` of it needs no
 * namespace object, and the define files' exports (their classes, for bundler users) are left out of the chunks.
 */
const ELEMENT_MODULE = 'svc-search-element:';

/**
 * The name of an element chunk (`hits`) from its facade module, or `undefined` for another chunk.
 *
 * @example
 * elementChunkName('svc-search-element:hits') // 'hits'
 */
export function elementChunkName(facadeModuleId: string | null): string | undefined {
  return facadeModuleId?.startsWith(ELEMENT_MODULE) ? facadeModuleId.slice(ELEMENT_MODULE.length) : undefined;
}

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

/** Stands for the preload list of a module's chunk in the generated entry until the chunk graph is known. */
const PRELOAD_MARK = 'svc-search-preload:';
/**
 * The same for a root's chunk, whose list also names the chunk itself: the loader fetches it with the other
 * elements' chunks of its batch, though it imports (runs) it only once they are registered (src/loader.ts).
 */
const PRELOAD_SELF_MARK = 'svc-search-preload-self:';

/**
 * A Vite plugin providing {@link LOADER_ENTRY}: `startLoader({ 'svc-hits': { load: () => import(…), preload: […] },
 * … })` over the element folders of `elementsDir`, with `hydrateModule` as the hydration chunk of server-rendered
 * pages, and `discover` exported for pages with shadow roots.
 *
 * `preload` lists every chunk a tag's chunk imports, directly or not, so the loader fetches them together (Vite's
 * own preloading is not used: its helper weighed ≈ 0.6 kB min + gzip in the core, its tables ≈ 0.5 kB in the
 * loader). The lists are written when the chunks are rendered: the entry holds a mark per module
 * (`"svc-search-preload:<module>"`), replaced by the paths of its chunk's imports; the hash in each file name is
 * filled in by the bundler afterwards. A mark left over fails the build.
 */
export function loaderEntry(
  loaderModule: string,
  hydrateModule: string,
  elementsDir: string,
  prepaintModule: string,
): Plugin {
  const resolved = `\0${LOADER_ENTRY}`;
  /** An `ElementEntry` of src/loader.ts as code: `load` imports `module`, then `afterImport` (a function, as code) if given. */
  const entry = (module: string, options: { root?: boolean; afterImport?: string } = {}) => {
    const load = `() => import(${JSON.stringify(module)})${options.afterImport ? `.then(${options.afterImport})` : ''}`;
    const preload = JSON.stringify((options.root ? PRELOAD_SELF_MARK : PRELOAD_MARK) + module);
    return `{ load: ${load}, preload: ${preload}${options.root ? ', root: true' : ''} }`;
  };
  return {
    name: 'svc-search-loader-entry',
    // A library build names its entry by a path under the project root.
    resolveId(id) {
      if (id.startsWith(ELEMENT_MODULE)) return id;
      return id === LOADER_ENTRY || id.endsWith(`/${LOADER_ENTRY}`) ? resolved : undefined;
    },
    load(id) {
      const folder = elementChunkName(id);
      if (folder !== undefined) {
        const host = CHUNK_HOSTS[folder];
        const define = `import ${JSON.stringify(join(elementsDir, folder, 'define.ts'))};`;
        return host ? `import ${JSON.stringify(ELEMENT_MODULE + host)};\n${define}` : define;
      }
      if (id !== resolved) return undefined;
      const entries = elementChunks(elementsDir).map(
        ({ tag, folder }) =>
          `  ${JSON.stringify(tag)}: ${entry(ELEMENT_MODULE + folder, { root: ROOT_TAGS.has(tag) })},`,
      );
      const hydrate = entry(hydrateModule, { afterImport: '(chunk) => chunk.startHydration()' });
      return [
        `import { startLoader } from ${JSON.stringify(loaderModule)};`,
        `import { prepaint } from ${JSON.stringify(prepaintModule)};`,
        `const elements = {\n${entries.join('\n')}\n};`,
        `const loader = startLoader(elements, { hydrate: ${hydrate}, base: import.meta.url, prepaint });`,
        'export const discover = loader.discover;',
      ].join('\n');
    },
    renderChunk(code, chunk, _options, meta) {
      if (chunk.facadeModuleId !== resolved) return null;
      const byModule = new Map(Object.values(meta.chunks).map((c) => [c.facadeModuleId, c]));
      /** The chunks `file` imports, directly or not. */
      const imports = (file: string, seen = new Set<string>()): Set<string> => {
        for (const imported of meta.chunks[file]?.imports ?? []) {
          if (seen.has(imported)) continue;
          seen.add(imported);
          imports(imported, seen);
        }
        return seen;
      };
      const text = new MagicString(code);
      // The mark as a string literal, in whichever quotes the bundler printed it.
      const mark = new RegExp(`(["'\`])(${PRELOAD_SELF_MARK}|${PRELOAD_MARK})(.+?)\\1`, 'g');
      for (const match of code.matchAll(mark)) {
        const target = byModule.get(match[3]!);
        if (!target) throw new Error(`loader: no chunk for ${match[3]}`);
        const self = match[2] === PRELOAD_SELF_MARK ? [target.fileName] : [];
        // Paths relative to the loader, which sits at the root of the output (`chunks/…` beside it). The loader
        // itself is left out: a chunk importing it finds it loaded (it holds the first-paint script's modules).
        const files = [...self, ...imports(target.fileName)]
          .filter((file) => file !== chunk.fileName)
          .map((file) => `./${file}`);
        text.overwrite(match.index, match.index + match[0].length, JSON.stringify(files));
      }
      const result = text.toString();
      if (result.includes(PRELOAD_MARK) || result.includes(PRELOAD_SELF_MARK))
        throw new Error('loader: a preload mark was left in the entry');
      return { code: result, map: text.generateMap({ hires: true }) };
    },
  };
}
