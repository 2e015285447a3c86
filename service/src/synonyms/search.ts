/** `POST /1/indexes/{indexName}/synonyms/search`: the synonyms holding every query word as a word prefix. */
import { tokenize, type Synonym } from '../engine/index.js';

export interface SynonymSearch {
  query: string;
  page: number;
  hitsPerPage: number;
  /** Only these types (none: every type). */
  types: string[] | null;
}

function textsOf(synonym: Synonym): string[] {
  switch (synonym.type) {
    case 'synonym':
      return synonym.synonyms;
    case 'onewaysynonym':
      return [synonym.input, ...synonym.synonyms];
    case 'altcorrection1':
    case 'altcorrection2':
      return [synonym.word, ...synonym.corrections];
    case 'placeholder':
      return [synonym.placeholder, ...synonym.replacements];
  }
}

/**
 * @example
 * searchSynonyms(catalog.synonyms('products'), { query: 'tv', page: 0, hitsPerPage: 100, types: null })
 */
export function searchSynonyms(synonyms: Synonym[], search: SynonymSearch): { hits: Synonym[]; nbHits: number } {
  const queryWords = tokenize(search.query);
  const matching = synonyms.filter((synonym) => {
    if (search.types && !search.types.includes(synonym.type)) return false;
    if (queryWords.length === 0) return true;
    const words = tokenize([synonym.objectID, ...textsOf(synonym)].join(' '));
    return queryWords.every((queryWord) => words.some((word) => word.startsWith(queryWord)));
  });
  const from = search.page * search.hitsPerPage;
  return { hits: matching.slice(from, from + search.hitsPerPage), nbHits: matching.length };
}
