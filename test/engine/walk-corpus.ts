// The corpus the tests of the walks in the custom order (`one-word.ts`, `many-words.ts`) compare both paths on:
// large enough for the walks to trigger (a few very common words), many ties in the custom ranking, and replaced and
// deleted records, so that the order has a tail and the postings dead ids.
import { Index } from '../../src/engine/index.js';
import type { IndexState } from '../../src/engine/index-state.js';
import { zipfProducts } from '../../service/src/datasets/synthetic.js';

export const SEARCHABLE = ['name', 'brand', 'category'];

/** The engine's state behind an index (the tests rank with its internals). */
export function stateOf(index: Index): IndexState {
  return (index as unknown as { state: IndexState }).state;
}

/** 40,000 Zipf records, popularity in 7 values (ties), then 2,000 replaced and 500 deleted. */
export function walkCorpus(name: string): Index {
  const products = zipfProducts({ count: 40_000, seed: 11 }).map((p) => ({ ...p, popularity: p.popularity % 7 }));
  const index = new Index(name);
  index.setSettings({
    searchableAttributes: SEARCHABLE,
    attributesForFaceting: ['brand', 'category', 'price'],
    customRanking: ['desc(popularity)'],
  });
  index.saveObjects(products);
  index.saveObjects(
    products.slice(5_000, 7_000).map((p, i) => ({ ...p, name: `${p.name} ${products[i]!.name}`, popularity: i % 5 })),
  );
  index.deleteObjects(products.slice(20_000, 20_500).map((p) => p.objectID));
  return index;
}

/** The most common title words of the corpus, most common first. */
export function commonWords(index: Index, count: number): string[] {
  const counts = new Map<string, number>();
  for (const record of stateOf(index).records) {
    if (!record) continue;
    for (const word of new Set(String(record.name).toLowerCase().split(' ')))
      counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([word]) => word);
}

/**
 * The best records last in the custom order: 12,000 records hold the query's words only in their category
 * (`category(i)`, a poor attribute), then 30 hold them first in their name (`name(i)`) with the lowest popularity.
 * The 30 rank first, and a walk in the order reaches them last.
 */
export function lateBestIndex(name: string, category: (i: number) => string, best: (i: number) => string): Index {
  const index = new Index(name);
  index.setSettings({ searchableAttributes: SEARCHABLE, customRanking: ['desc(popularity)'] });
  const records: Array<Record<string, unknown> & { objectID: string }> = [];
  for (let i = 0; i < 12_000; i++)
    records.push({ objectID: `c${i}`, name: `plain item ${i % 97}`, category: category(i), popularity: 1000 + i });
  for (let i = 0; i < 30; i++) records.push({ objectID: `n${i}`, name: best(i), popularity: i });
  index.saveObjects(records);
  return index;
}

/** The objectIDs of `lateBestIndex`'s 30 best records, in their order (the lowest popularity last). */
export const LATE_BEST_ORDER = Array.from({ length: 30 }, (_, i) => `n${29 - i}`);
