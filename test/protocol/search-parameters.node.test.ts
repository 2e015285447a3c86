/**
 * One table of search parameters (`SEARCH_PARAMETERS` of `svc-search/protocol`) for both packages: for every
 * parameter in it, a value written as an attribute of `<svc-configure>` (the browser's `parseParameter`), sent
 * on the wire (`serializeParams`) and read by the service's engine (`parseSearchParams`) arrives as the same
 * value; a value of the wrong type is refused by both. A parameter the two sides typed differently fails here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serializeParams } from 'svc-search/client';
import {
  listOfValues,
  SEARCH_PARAMETER_RANGES,
  SEARCH_PARAMETER_VALUES,
  SEARCH_PARAMETERS,
  type SearchParameterType,
} from 'svc-search/protocol';
import { parseParameter } from '../../src/controllers/configure-controller.js';
import { parseSearchParams } from '../../service/src/engine/index.js';

/** An attribute value of each type and the value both sides must read from it. */
const SAMPLES: Record<SearchParameterType, Array<[text: string, value: unknown]>> = {
  string: [['red chair', 'red chair']],
  integer: [['3', 3]],
  number: [
    ['12.5', 12.5],
    ['30', 30],
  ],
  boolean: [
    ['false', false],
    ['true', true],
  ],
  strings: [
    ['name,brand', ['name', 'brand']],
    ['["a","b"]', ['a', 'b']],
  ],
  filters: [['[["brand:Acme","brand:Zed"],"price>3"]', [['brand:Acme', 'brand:Zed'], 'price>3']]],
  typoTolerance: [
    ['min', 'min'],
    ['false', false],
  ],
  booleanOrStrings: [
    ['fr,en', ['fr', 'en']],
    ['false', false],
  ],
  booleanOrInteger: [
    ['2', 2],
    ['true', true],
  ],
  numberOrAll: [
    ['all', 'all'],
    ['1500', 1500],
  ],
  json: [['[[48.8,2.3,48.9,2.4]]', [[48.8, 2.3, 48.9, 2.4]]]],
};

/** A value of the wrong type for each type the attribute reader checks (strings and lists take any text). */
const WRONG: Partial<Record<SearchParameterType, string>> = {
  integer: 'many',
  number: 'far',
  boolean: 'maybe',
  booleanOrInteger: 'several',
  numberOrAll: 'everywhere',
};

const kebab = (name: string) => name.replace(/[A-Z0-9]+/g, (part) => `-${part.toLowerCase()}`);

describe('search parameters: one table, the same reading on both sides of the wire', () => {
  it('covers the parameters the browser and the engine used to type separately', () => {
    for (const name of ['query', 'hitsPerPage', 'facetFilters', 'distinct', 'ignorePlurals', 'aroundRadius']) {
      assert.ok(SEARCH_PARAMETERS[name], `${name} is not in the table`);
    }
    for (const name of ['facetQuery', 'maxFacetHits', 'decompoundQuery', 'relevancyStrictness', 'enableRules']) {
      assert.ok(SEARCH_PARAMETERS[name], `${name} is not in the table`);
    }
    for (const name of Object.keys(SEARCH_PARAMETER_RANGES)) {
      assert.match(SEARCH_PARAMETERS[name] ?? '', /^(integer|booleanOrInteger)$/, `${name} has a range`);
    }
  });

  it('every parameter: attribute → browser value → wire → engine value, unchanged', () => {
    const failures: string[] = [];
    for (const [name, type] of Object.entries(SEARCH_PARAMETERS)) {
      // a parameter with a list of values (`queryType`, …) takes one of them
      const values = SEARCH_PARAMETER_VALUES[name];
      const samples: Array<[string, unknown]> = values ? [[values[0]!, values[0]]] : SAMPLES[type];
      for (const [text, expected] of samples) {
        const [browserName, browserValue] = parseParameter(kebab(name), text);
        if (browserName !== name) failures.push(`${name}: the attribute ${kebab(name)} names ${browserName}`);
        if (JSON.stringify(browserValue) !== JSON.stringify(expected))
          failures.push(`${name} (${type}): browser read ${JSON.stringify(browserValue)} from ${JSON.stringify(text)}`);
        const engineValue = parseSearchParams(serializeParams({ [name]: browserValue }))[name];
        if (JSON.stringify(engineValue) !== JSON.stringify(expected))
          failures.push(`${name} (${type}): engine read ${JSON.stringify(engineValue)}`);
        const fromBody = parseSearchParams({ [name]: browserValue })[name];
        if (JSON.stringify(fromBody) !== JSON.stringify(expected))
          failures.push(`${name} (${type}): engine read ${JSON.stringify(fromBody)} from a JSON body`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('a parameter with a list of values: one outside it is a 400 naming the values, from a string or a JSON body', () => {
    assert.ok(Object.keys(SEARCH_PARAMETER_VALUES).length > 0);
    for (const [name, values] of Object.entries(SEARCH_PARAMETER_VALUES)) {
      for (const input of [`${name}=sometimes`, { [name]: 'sometimes' }]) {
        assert.throws(() => parseSearchParams(input), {
          status: 400,
          message: `Invalid value for parameter "${name}": expected ${listOfValues(values)}, got "sometimes"`,
        });
      }
    }
  });

  it('every typed parameter: a value of the wrong type is refused by both', () => {
    const failures: string[] = [];
    for (const [name, type] of Object.entries(SEARCH_PARAMETERS)) {
      const wrong = WRONG[type];
      if (wrong === undefined) continue;
      assert.throws(() => parseParameter(kebab(name), wrong), TypeError, `browser accepted ${name}="${wrong}"`);
      try {
        parseSearchParams({ [name]: wrong });
        failures.push(`engine accepted ${name}=${wrong}`);
      } catch (error) {
        if (!new RegExp(`"${name}"`).test((error as Error).message))
          failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('the engine holds integers to their ranges', () => {
    assert.throws(
      () => parseSearchParams({ hitsPerPage: 1001 }),
      /"hitsPerPage": expected an integer between 0 and 1000/,
    );
    assert.throws(
      () => parseSearchParams('distinct=5'),
      /"distinct": expected a boolean or an integer between 0 and 4/,
    );
    assert.throws(() => parseSearchParams({ maxFacetHits: 0 }), /"maxFacetHits"/);
    assert.deepEqual(parseSearchParams('personalizationImpact=100&minProximity=7'), {
      personalizationImpact: 100,
      minProximity: 7,
    });
  });
});
