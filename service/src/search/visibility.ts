/**
 * What a key may see of the hits of a search or browse: `unretrievableAttributes` put back for the keys that
 * may see them, and the highlights of attributes a key withholds taken out.
 */
import type { Index } from '../engine/index.js';
import type { KeyInfo } from '../keys/types.js';
import { bothAllow, forcedByKey, type RawParams, toSearchParams } from './key-params.js';

/**
 * `unretrievableAttributes` is bypassed for the admin key and keys with `seeUnretrievableAttributes`
 * (document 1, rights): the engine always leaves them out, so they are put back from the stored record
 * when the query's `attributesToRetrieve` asks for them.
 */
export function revealUnretrievable(
  index: Index,
  key: KeyInfo,
  raw: RawParams,
  hits: Array<Record<string, unknown> & { objectID: string }>,
): void {
  if (!key.isAdmin && !key.acl.includes('seeUnretrievableAttributes')) return;
  const hidden = index.getSetting('unretrievableAttributes') ?? [];
  if (hidden.length === 0 || hits.length === 0) return;
  const wanted = (toSearchParams({ attributesToRetrieve: raw.attributesToRetrieve }).attributesToRetrieve as
    | string[]
    | undefined) ??
    index.getSetting('attributesToRetrieve') ?? ['*'];
  const shown = hidden.filter(
    (name) => (wanted.includes('*') && !wanted.includes(`-${name}`)) || wanted.includes(name),
  );
  for (const hit of hits) {
    const record = index.getObject(hit.objectID);
    if (!record) continue;
    for (const name of shown) {
      if (Object.hasOwn(record, name))
        Object.defineProperty(hit, name, {
          value: structuredClone(record[name]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
}

/**
 * A key that forces `attributesToRetrieve` hides the other attributes in `_highlightResult` and
 * `_snippetResult` too (the engine highlights every searchable attribute; a highlight would show the value
 * the key withholds).
 */
export function hideWithheldHighlights(key: KeyInfo, hits: Array<Record<string, unknown>>): void {
  if (key.forcedParams.length === 0 || hits.length === 0) return;
  const forced = forcedByKey(key).attributesToRetrieve;
  if (forced === undefined) return;
  const retrieve = toSearchParams({ attributesToRetrieve: forced }).attributesToRetrieve as string[];
  for (const hit of hits) {
    for (const field of ['_highlightResult', '_snippetResult']) {
      const results = hit[field] as Record<string, unknown> | undefined;
      if (!results) continue;
      for (const name of Object.keys(results)) {
        const kept = bothAllow(retrieve, [name]);
        if (kept.includes(name)) continue;
        const nested = results[name];
        const children = kept.filter((path) => path.startsWith(`${name}.`)).map((path) => path.split('.')[1]!);
        if (children.length > 0 && nested && typeof nested === 'object' && !Array.isArray(nested)) {
          results[name] = Object.fromEntries(Object.entries(nested).filter(([child]) => children.includes(child)));
        } else {
          delete results[name];
        }
      }
    }
  }
}
