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
