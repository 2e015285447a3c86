/**
 * A file's custom dictionaries in the worker of `svc-search/local`: a chunk of its own (with the engine's
 * `Dictionaries`), fetched by the first file that carries custom entries (`WorkerDictionaries` of `on-demand.ts`).
 */
import { addDictionaries, DICTIONARY_NAMES, Dictionaries } from '../engine/dictionaries.js';
import type { BundleDictionaries } from '../engine/bundle.js';
import { LocalError } from './shared.js';

/**
 * A bundle's custom dictionaries: a file's as the service validated them; given in code, each entry must at least
 * be an object with a string `objectID` and `language` (what the engine keys them by), else a 400.
 */
function checkedDictionaries(dictionaries: BundleDictionaries, fromCode: boolean): BundleDictionaries {
  if (!fromCode) return dictionaries;
  for (const name of DICTIONARY_NAMES) {
    const entries: unknown = dictionaries[name] ?? [];
    const valid =
      Array.isArray(entries) &&
      entries.every(
        (entry) =>
          entry !== null &&
          typeof entry === 'object' &&
          typeof entry.objectID === 'string' &&
          typeof entry.language === 'string',
      );
    if (!valid) throw new LocalError(400, `Invalid dictionaries.${name}: expected entries with objectID and language`);
  }
  return dictionaries;
}

/**
 * `dictionaries` (a new `Dictionaries` when null) with a file's custom entries added: a file's as the service
 * validated them, entries given in code checked first (else a 400).
 *
 * @example
 * dictionaries = withCustomEntries(dictionaries, bundle.dictionaries, !isFromFile(bundle));
 */
export function withCustomEntries(
  dictionaries: Dictionaries | null,
  custom: BundleDictionaries,
  fromCode: boolean,
): Dictionaries {
  const target = dictionaries ?? new Dictionaries();
  addDictionaries(target, checkedDictionaries(custom, fromCode));
  return target;
}
