/**
 * The hits of a response: the retrieved attributes of each record (`attributesToRetrieve`,
 * `unretrievableAttributes`), `_highlightResult` and `_snippetResult` (only for the returned page),
 * and `_rankingInfo` (`ranking-info.ts`, a feature of its own).
 */
import type { Hit } from '../protocol/index.js';
import { Kind } from './derive.js';
import { highlightValue, snippetValue, type HighlightOptions, type TokenMatch } from './highlight.js';
import type { IndexRecord, IndexState } from './index-state.js';
import type { Execution } from './matching.js';
import { feature } from './features.js';
import type { Effective } from './query.js';
import { cloneJson, deletePath, getPath, setPath } from './record-paths.js';

/**
 * How the query's words highlight a value: the query words, each word's derived terms (prefixes,
 * plurals, synonyms, typo matches), compound parts, and the phrase and placeholder alternatives.
 * @example const hl = highlightOptions(state, exec); hitOf(state, doc, exec, hl, false);
 */
export function highlightOptions(state: IndexState, exec: Execution): HighlightOptions {
  const { words, derived, eff, spans } = exec;
  const vocab = state.postings.vocab;
  const compounds = state.indexCompounds;
  const phrases = spans
    .filter((s) => !s.alternative.placeholder)
    .map((s) => ({ words: s.alternative.words, mask: s.mask }));
  const placeholders = spans
    .filter((s) => s.alternative.placeholder)
    .map((s) => ({ name: s.alternative.words[0]!, mask: s.mask }));
  return {
    words,
    preTag: eff.preTag,
    postTag: eff.postTag,
    ...(phrases.length ? { phrases } : {}),
    ...(placeholders.length ? { placeholders } : {}),
    matcher: (tok: string): TokenMatch | null => {
      let mask = 0;
      let chars = 0;
      let tid: number | undefined | null = null;
      for (let i = 0; i < derived.length; i++) {
        const d = derived[i]!;
        let c = 0;
        if (tok === d.word || d.plurals.has(tok) || d.synonyms?.has(tok)) c = tok.length;
        else if (d.prefix && tok.startsWith(d.word)) c = d.word.length;
        else if (
          compounds.size &&
          compounds
            .get(tok)
            ?.some((part) => part === d.word || d.plurals.has(part) || (d.prefix && part.startsWith(d.word)))
        )
          c = tok.length;
        else if (d.fuzzy.size) {
          if (tid === null) tid = vocab.id(tok);
          const kind = tid === undefined ? undefined : d.fuzzy.get(tid);
          if (kind === Kind.Fuzzy) c = tok.length;
          else if (kind === Kind.FuzzyPrefix) c = Math.min(tok.length, d.word.length);
        }
        if (c > 0) {
          mask |= 1 << i;
          if (c > chars) chars = c;
        }
      }
      return mask ? { mask, chars } : null;
    },
  };
}

function highlightAttributes(state: IndexState, eff: Effective, record: IndexRecord): string[][] {
  const list = eff.attributesToHighlight;
  if (list === null) {
    if (state.searchable) {
      const seen = new Set<string>();
      return state.searchable.filter((s) => !seen.has(s.name) && seen.add(s.name)).map((s) => s.path);
    }
    return Object.keys(record)
      .filter((k) => k !== 'objectID' && !k.startsWith('_'))
      .map((k) => [k]);
  }
  if (list.includes('*'))
    return Object.keys(record)
      .filter((k) => k !== 'objectID')
      .map((k) => [k]);
  return list.map((a) => a.split('.'));
}

function retrieve(state: IndexState, record: IndexRecord, eff: Effective): Record<string, unknown> {
  const list = eff.attributesToRetrieve;
  const unretrievable = state.settings.unretrievableAttributes;
  let out: Record<string, unknown>;
  if (list.includes('*')) {
    out = cloneJson(record) as Record<string, unknown>;
    for (const a of list) if (a.startsWith('-')) deletePath(out, a.slice(1).split('.'));
  } else {
    out = {};
    for (const a of list) {
      const path = a.split('.');
      const v = getPath(record, path);
      if (v !== undefined) setPath(out, path, cloneJson(v));
    }
  }
  for (const a of unretrievable) deletePath(out, a.split('.'));
  out.objectID = record.objectID;
  return out;
}

function isUnretrievable(state: IndexState, path: string[]): boolean {
  const name = path.join('.');
  return state.settings.unretrievableAttributes.some((u) => name === u || name.startsWith(`${u}.`));
}

/**
 * One hit: the retrieved attributes, highlights and snippets (with `hl`, or options derived from the
 * query), and `_rankingInfo` when `withRanking`.
 * @example hitOf(state, doc, exec, highlightOptions(state, exec), eff.getRankingInfo)
 */
export function hitOf(
  state: IndexState,
  doc: number,
  exec: Execution,
  hl: HighlightOptions | null,
  withRanking: boolean,
): Hit {
  const record = state.records[doc]!;
  const eff = exec.eff;
  const hit = retrieve(state, record, eff) as Hit;
  const opts = hl ?? highlightOptions(state, exec);
  const hlAttrs = highlightAttributes(state, eff, record);
  if (hlAttrs.length) {
    const result: Record<string, unknown> = {};
    for (const path of hlAttrs) {
      if (isUnretrievable(state, path)) continue;
      const v = highlightValue(getPath(record, path), opts);
      if (v !== undefined) setPath(result, path, v);
    }
    hit._highlightResult = result as Hit['_highlightResult'];
  }
  if (eff.attributesToSnippet.length) {
    const result: Record<string, unknown> = {};
    for (const entry of eff.attributesToSnippet) {
      const [name, n] = entry.split(':');
      const size = n ? Number(n) : 10;
      // '*' snippets every attribute of the record
      const paths =
        name === '*'
          ? Object.keys(record)
              .filter((k) => k !== 'objectID')
              .map((k) => [k])
          : [name!.split('.')];
      for (const path of paths) {
        if (isUnretrievable(state, path)) continue;
        const v = snippetValue(getPath(record, path), size, eff.ellipsis, opts);
        if (v !== undefined) setPath(result, path, v);
      }
    }
    hit._snippetResult = result as Hit['_snippetResult'];
  }
  // `_rankingInfo` is a feature of its own (`features.ts`), loaded for a request with `getRankingInfo`
  if (withRanking) hit._rankingInfo = feature('rankingInfo').rankingInfo(state, doc, exec);
  return hit;
}
