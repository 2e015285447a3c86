/**
 * Compiling the search code ahead of the first search of a large index. V8 compiles a function to
 * optimised code only after running it a while; until then the match, ranking and facet loops run in
 * the interpreter, which over the hundreds of thousands of postings of a large index costs 10–30
 * times their compiled time. So the first write that makes an index large ends, once per process,
 * by running a few hundred searches of every kind (prefix, several words with a typo, facets,
 * filters) on a small private index of made-up records: the shared code is then compiled when the
 * first real search comes. The filtered ones run when the filters are installed (`features.ts`: the
 * service always; the browser worker loads them with the warm-up). Every record also holds four words of a
 * family sharing the prefix "qu", so that a search for the prefix has enough postings for the one-word path
 * on bits (`one-word.ts`: `ONE_WORD_MIN_POSTINGS`, and a class too large to sort, walked over its bits) and
 * compiles it too when it is installed; and the word "quorum", so that two words of which one is "quorum" (one
 * with a typo) match a third of the records or more, enough for the walk of several words (`many-words.ts`:
 * pages of 10, `MANY_WORDS_LIMITS`) to run and be compiled with it.
 */
import { optionalFeature } from './features.js';
import type { IndexCore } from './index-core.js';

export { WARM_UP_AT } from './features.js';

let warmed = false;
let runs = 0;

/**
 * How many times the warm-up ran in this process (0 or 1).
 * @example warmUpRuns() // 1 once an index passed WARM_UP_AT records
 */
export function warmUpRuns(): number {
  return runs;
}

/**
 * Runs the warm-up searches once per process (later calls return at once).
 * @example warmUp(IndexCore); // ~0.3 s the first time
 */
export function warmUp(IndexClass: new (name: string) => IndexCore): void {
  if (warmed) return;
  warmed = true;
  runs++;
  let seed = 7;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words = Array.from({ length: 400 }, () =>
    Array.from({ length: 4 + Math.floor(rand() * 6) }, () => letters[Math.floor(rand() * 26)]).join(''),
  );
  // a few very common words and a long tail, as in a catalogue
  const word = () => words[Math.floor(words.length * rand() ** 3)]!;
  const family = Array.from({ length: 12 }, (_, k) => `qu${letters[k]}${letters[(k * 7 + 3) % 26]}`);
  const filtered = optionalFeature('filters') !== undefined;
  const index = new IndexClass('warm-up');
  // valid settings: applied without the settings validation (which the browser worker loads only when it needs it)
  index.applyValidSettings({
    searchableAttributes: ['name', 'brand'],
    attributesForFaceting: ['brand', 'price'],
    customRanking: ['desc(popularity)'],
  });
  index.saveObjects(
    Array.from({ length: 3000 }, (_, i) => ({
      objectID: String(i),
      name: [
        ...Array.from({ length: 3 + Math.floor(rand() * 4) }, word),
        // "quorum" before or after the family words: at different distances from each
        ...(i % 2 ? ['quorum'] : []),
        ...Array.from({ length: 4 }, (_, k) => family[(i + k) % family.length]!),
        ...(i % 2 ? [] : ['quorum']),
      ].join(' '),
      brand: words[Math.floor(rand() * 20)]!,
      price: Math.floor(rand() * 1000) / 10,
      popularity: Math.floor(rand() * 100),
    })),
  );
  for (let i = 0; i < 150; i++) {
    const a = word();
    const b = word();
    const typo = `${b.slice(0, 2)}${b.slice(3)}`;
    index.search({ query: a.slice(0, 2 + (i % 3)) });
    index.search({ query: `${a} ${typo}` });
    index.search({ query: `${typo} ${a}` });
    index.search({ query: a, facets: ['brand'], ...(filtered && i % 2 ? { filters: 'price < 50' } : {}) });
    if (i % 3 === 0) index.search({ query: 'qu', ...(i % 2 ? { facets: ['brand'] } : {}) });
    const member = family[i % family.length]!;
    if (i % 3 === 1) index.search({ query: i % 2 ? `qourum ${member}` : `${member} quorum`, hitsPerPage: 10 });
  }
}
