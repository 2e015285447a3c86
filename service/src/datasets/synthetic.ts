/**
 * The synthetic scale corpus: seeded, reproducible short product records made of real English words
 * (`an-array-of-english-words`), and query sets derived from them for the engine benchmark.
 *
 * Word frequencies follow a Zipf-like curve over a sampled vocabulary, so that short prefixes hit many
 * records (as in a real catalogue) and typo queries have near neighbours to be confused with.
 */
import { createRequire } from 'node:module';

export interface SyntheticProduct {
  objectID: string;
  name: string;
  brand: string;
  category: string;
  price: number;
  popularity: number;
  [key: string]: unknown;
}

/**
 * Mulberry32: a small, fast seeded PRNG returning floats in [0, 1).
 * @example const rand = mulberry32(42); rand() // 0.6011…
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let wordList: string[] | null = null;
/**
 * The English word list (~275k words), loaded once.
 * @example englishWords().length // 274,9xx
 */
export function englishWords(): string[] {
  if (!wordList) {
    const require = createRequire(import.meta.url);
    wordList = require('an-array-of-english-words') as string[];
  }
  return wordList;
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

export interface SyntheticOptions {
  count?: number;
  seed?: number;
  /** Distinct words names are made of (sampled from the list). */
  vocabularySize?: number;
}

/**
 * Builds `count` product records (default 100,000) with seed `seed` (default 42): a name of 2–5 words,
 * a brand (500), a category (40), a price and a popularity.
 * @example syntheticProducts({ count: 3 })[0] // { objectID: 'p0', name: '…', brand: '…', … }
 */
export function syntheticProducts(options: SyntheticOptions = {}): SyntheticProduct[] {
  const count = options.count ?? 100_000;
  const rand = mulberry32(options.seed ?? 42);
  const all = englishWords().filter((w) => w.length >= 3 && w.length <= 11 && /^[a-z]+$/.test(w));
  const vocabSize = Math.min(options.vocabularySize ?? 40_000, all.length);
  const pick = (list: string[]) => list[Math.floor(rand() * list.length)]!;
  const vocab: string[] = [];
  const used = new Set<string>();
  while (vocab.length < vocabSize) {
    const w = pick(all);
    if (!used.has(w)) {
      used.add(w);
      vocab.push(w);
    }
  }
  const brands = Array.from({ length: 500 }, () => capitalize(pick(all)));
  const categories = Array.from({ length: 40 }, () => capitalize(pick(all)));
  // Zipf-like: index = V × r^2.2 makes low indices (common words) far more frequent
  const zipf = () => vocab[Math.floor(vocabSize * rand() ** 2.2)]!;
  const products: SyntheticProduct[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = 2 + Math.floor(rand() * 4);
    const words: string[] = [];
    for (let k = 0; k < n; k++) words.push(zipf());
    products[i] = {
      objectID: `p${i}`,
      name: capitalize(words.join(' ')),
      brand: brands[Math.floor(brands.length * rand() ** 1.5)]!,
      category: categories[Math.floor(rand() * categories.length)]!,
      price: Math.round((1 + rand() * 999) * 100) / 100,
      popularity: Math.floor(rand() * 10_000),
    };
  }
  return products;
}

export interface ZipfOptions {
  count?: number;
  seed?: number;
  /** Distinct title words (sampled from the list; default 40,000). */
  vocabularySize?: number;
  /** Exponent s of the Zipf law P(rank r) ∝ 1 / r^s (default 1). */
  exponent?: number;
  /** Words per title, drawn uniformly from [minWords, maxWords] (default 4–6). */
  minWords?: number;
  maxWords?: number;
}

/**
 * Builds `count` product records whose title words follow a Zipf law (P(rank r) ∝ 1 / r^s) over a
 * sampled English vocabulary, with Zipf-like brands (500) and uniform categories (40): the scale
 * corpus, where the most common title word is in about 37 % of the records (4–6 words, s = 1), so
 * short prefixes and typo neighbours compete with many exact matches.
 * @example zipfProducts({ count: 3 })[0] // { objectID: 'z0', name: '…', brand: '…', … }
 */
export function zipfProducts(options: ZipfOptions = {}): SyntheticProduct[] {
  const count = options.count ?? 100_000;
  const rand = mulberry32(options.seed ?? 42);
  const exponent = options.exponent ?? 1;
  const minWords = options.minWords ?? 4;
  const maxWords = options.maxWords ?? 6;
  const all = englishWords().filter((w) => w.length >= 3 && w.length <= 11 && /^[a-z]+$/.test(w));
  const vocabSize = Math.min(options.vocabularySize ?? 40_000, all.length);
  const pick = (list: string[]) => list[Math.floor(rand() * list.length)]!;
  const vocab: string[] = [];
  const used = new Set<string>();
  while (vocab.length < vocabSize) {
    const w = pick(all);
    if (!used.has(w)) {
      used.add(w);
      vocab.push(w);
    }
  }
  // cumulative weights of ranks 1…V, sampled by binary search
  const cdf = new Float64Array(vocabSize);
  let total = 0;
  for (let r = 0; r < vocabSize; r++) {
    total += 1 / (r + 1) ** exponent;
    cdf[r] = total;
  }
  const zipf = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = vocabSize - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const brands = Array.from({ length: 500 }, () => capitalize(pick(all)));
  const categories = Array.from({ length: 40 }, () => capitalize(pick(all)));
  const products: SyntheticProduct[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = minWords + Math.floor(rand() * (maxWords - minWords + 1));
    const words: string[] = [];
    for (let k = 0; k < n; k++) words.push(zipf());
    products[i] = {
      objectID: `z${i}`,
      name: capitalize(words.join(' ')),
      brand: brands[Math.floor(brands.length * rand() ** 1.5)]!,
      category: categories[Math.floor(rand() * categories.length)]!,
      price: Math.round((1 + rand() * 999) * 100) / 100,
      popularity: Math.floor(rand() * 10_000),
    };
  }
  return products;
}

/**
 * One typo applied to a word: substitution, deletion, insertion or transposition of neighbours.
 * @example applyTypo('chair', mulberry32(1)) // e.g. 'chiar'
 */
export function applyTypo(word: string, rand: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  // keep the first letter: people rarely mistype it, and it keeps the query plausible
  const i = 1 + Math.floor(rand() * (word.length - 1));
  const kind = Math.floor(rand() * 4);
  const other = () => {
    let c: string;
    do c = letters[Math.floor(rand() * 26)]!;
    while (c === word[i]);
    return c;
  };
  if (kind === 0) return word.slice(0, i) + other() + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 2) return word.slice(0, i) + other() + word.slice(i);
  if (i < word.length - 1 && word[i] !== word[i + 1])
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return word.slice(0, i) + other() + word.slice(i + 1);
}

export interface SyntheticQueries {
  /** One word prefixes (2–5 letters) of words of random records. */
  prefix: string[];
  /** Two words of one record, one of them (at least 5 letters) with one typo; `objectID` is the source. */
  typo: Array<{ query: string; objectID: string }>;
  /** Whole words, to run with facet counts on brand and category. */
  faceted: string[];
}

/**
 * Derives the benchmark's query sets from the corpus (seeded).
 * @example syntheticQueries(products, { count: 500 }).typo[0] // { query: 'amber glowwrom', objectID: 'p123' }
 */
export function syntheticQueries(
  products: SyntheticProduct[],
  options: { count?: number; seed?: number } = {},
): SyntheticQueries {
  const count = options.count ?? 1000;
  const rand = mulberry32(options.seed ?? 7);
  const rec = () => products[Math.floor(rand() * products.length)]!;
  const wordsOf = (p: SyntheticProduct) => p.name.toLowerCase().split(' ');
  const prefix: string[] = [];
  while (prefix.length < count) {
    const w = wordsOf(rec())[0]!;
    const len = Math.min(w.length, 2 + Math.floor(rand() * 4));
    prefix.push(w.slice(0, len));
  }
  const typo: SyntheticQueries['typo'] = [];
  while (typo.length < count) {
    const p = rec();
    const ws = wordsOf(p);
    const a = Math.floor(rand() * ws.length);
    let b = Math.floor(rand() * ws.length);
    if (b === a) b = (a + 1) % ws.length;
    const [i, j] = a < b ? [a, b] : [b, a];
    const first = ws[i]!;
    const second = ws[j]!;
    const typoOnFirst = rand() < 0.5;
    const target = typoOnFirst ? first : second;
    if (target.length < 5 || first === second) continue;
    const wrong = applyTypo(target, rand);
    typo.push({ query: typoOnFirst ? `${wrong} ${second}` : `${first} ${wrong}`, objectID: p.objectID });
  }
  const faceted: string[] = [];
  while (faceted.length < count) faceted.push(wordsOf(rec())[Math.floor(rand() * 2)]!);
  return { prefix, typo, faceted };
}
