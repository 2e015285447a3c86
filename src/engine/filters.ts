/**
 * The filter syntax: `filters` strings (`attr:value`, quoted values, numeric comparisons, `attr:a TO b`,
 * `_tags:x`, boolean values, AND / OR / NOT and parentheses) and the array forms `facetFilters`,
 * `numericFilters` and `tagFilters` (an inner array is an OR group, `-value` negates), all turned into
 * one tree that the index evaluates to a set of records.
 */
import { EngineError } from './errors.js';

export type NumericOp = '<' | '<=' | '=' | '!=' | '>=' | '>';

export type FilterNode =
  | { type: 'and'; children: FilterNode[] }
  | { type: 'or'; children: FilterNode[] }
  | { type: 'not'; child: FilterNode }
  /** Facet value equality (case-insensitive), also numeric equality when the value is a number. */
  | { type: 'facet'; attribute: string; value: string }
  | { type: 'numeric'; attribute: string; op: NumericOp; value: number }
  | { type: 'range'; attribute: string; from: number; to: number };

type Tok =
  | { k: 'lp' | 'rp' | 'colon'; col: number }
  | { k: 'op'; v: NumericOp; col: number }
  | { k: 'word'; v: string; quoted: boolean; col: number };

function filterError(source: string, message: string): never {
  throw new EngineError(`${source}: ${message}`);
}

function lex(text: string, source: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const col = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(') {
      toks.push({ k: 'lp', col });
      i++;
    } else if (c === ')') {
      toks.push({ k: 'rp', col });
      i++;
    } else if (c === ':') {
      toks.push({ k: 'colon', col });
      i++;
    } else if (c === '<' || c === '>' || c === '=' || c === '!') {
      const two = text.slice(i, i + 2);
      if (two === '<=' || two === '>=' || two === '!=') {
        toks.push({ k: 'op', v: two as NumericOp, col });
        i += 2;
      } else if (c === '!') {
        filterError(source, `Unexpected character "!" at col ${col}`);
      } else {
        toks.push({ k: 'op', v: c as NumericOp, col });
        i++;
      }
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let v = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        v += text[j];
        j++;
      }
      if (j >= text.length) filterError(source, `Unterminated quoted string starting at col ${col}`);
      toks.push({ k: 'word', v, quoted: true, col });
      i = j + 1;
    } else {
      let j = i;
      let v = '';
      while (j < text.length && !/[\s():<>=!"']/.test(text[j]!)) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        v += text[j];
        j++;
      }
      toks.push({ k: 'word', v, quoted: false, col });
      i = j;
    }
  }
  return toks;
}

/** Operators are upper case (as in the hosted API); lower-case `and` or `to` are plain values. */
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'TO']);
function isKeyword(t: Tok | undefined, kw: string): boolean {
  return !!t && t.k === 'word' && !t.quoted && t.v === kw;
}

function describe(t: Tok | undefined): string {
  if (!t) return 'end of input';
  if (t.k === 'word') return `"${t.v}" at col ${t.col}`;
  const sym = t.k === 'op' ? t.v : t.k === 'lp' ? '(' : t.k === 'rp' ? ')' : ':';
  return `"${sym}" at col ${t.col}`;
}

function toNumber(text: string): number | null {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) return null;
  return Number(text);
}

class Parser {
  private pos = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly source: string,
  ) {}

  parse(): FilterNode {
    if (this.toks.length === 0) filterError(this.source, 'Empty filter');
    const node = this.or();
    if (this.pos < this.toks.length)
      filterError(this.source, `Unexpected token ${describe(this.toks[this.pos])}, expected AND, OR or end of input`);
    return node;
  }

  private or(): FilterNode {
    const children = [this.and()];
    while (isKeyword(this.toks[this.pos], 'OR')) {
      this.pos++;
      children.push(this.and());
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  }

  private and(): FilterNode {
    const children = [this.not()];
    while (isKeyword(this.toks[this.pos], 'AND')) {
      this.pos++;
      children.push(this.not());
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  }

  private not(): FilterNode {
    if (isKeyword(this.toks[this.pos], 'NOT')) {
      this.pos++;
      return { type: 'not', child: this.not() };
    }
    return this.primary();
  }

  private primary(): FilterNode {
    const t = this.toks[this.pos];
    if (!t) filterError(this.source, 'Unexpected end of input, expected a filter');
    if (t.k === 'lp') {
      this.pos++;
      const node = this.or();
      const close = this.toks[this.pos];
      if (close?.k !== 'rp') filterError(this.source, `Unexpected token ${describe(close)}, expected ")"`);
      this.pos++;
      return node;
    }
    if (t.k !== 'word' || (!t.quoted && KEYWORDS.has(t.v))) {
      filterError(this.source, `Unexpected token ${describe(t)}, expected a filter (attribute:value)`);
    }
    this.pos++;
    const attribute = t.v;
    if (!attribute) filterError(this.source, `Empty attribute name at col ${t.col}`);
    const sep = this.toks[this.pos];
    if (!sep)
      filterError(this.source, `Unexpected end of input after "${attribute}", expected ":" or a comparison operator`);
    if (sep.k === 'op') {
      this.pos++;
      const v = this.toks[this.pos];
      if (v?.k !== 'word')
        filterError(this.source, `Unexpected token ${describe(v)}, expected a number after "${sep.v}"`);
      const n = toNumber(v.v);
      if (n === null) filterError(this.source, `Invalid numeric value "${v.v}" at col ${v.col}`);
      this.pos++;
      return { type: 'numeric', attribute, op: sep.v, value: n };
    }
    if (sep.k !== 'colon')
      filterError(
        this.source,
        `Unexpected token ${describe(sep)}, expected ":" or a comparison operator after "${attribute}"`,
      );
    this.pos++;
    const v = this.toks[this.pos];
    if (v?.k !== 'word' || (!v.quoted && (v.v === '' || KEYWORDS.has(v.v)))) {
      filterError(this.source, `Unexpected token ${describe(v)}, expected a value after "${attribute}:"`);
    }
    this.pos++;
    if (isKeyword(this.toks[this.pos], 'TO')) {
      this.pos++;
      const to = this.toks[this.pos];
      if (to?.k !== 'word') filterError(this.source, `Unexpected token ${describe(to)}, expected a number after TO`);
      const from = toNumber(v.v);
      const end = toNumber(to.v);
      if (from === null) filterError(this.source, `Invalid numeric value "${v.v}" at col ${v.col}`);
      if (end === null) filterError(this.source, `Invalid numeric value "${to.v}" at col ${to.col}`);
      this.pos++;
      return { type: 'range', attribute, from, to: end };
    }
    return { type: 'facet', attribute, value: v.v };
  }
}

/**
 * Parses a `filters` string into a filter tree; throws {@link EngineError} 400 with the column of the
 * problem on a bad string.
 * @example parseFilters('brand:Apple AND (price < 100 OR NOT _tags:"on sale")')
 */
export function parseFilters(text: string, source = 'filters'): FilterNode {
  return new Parser(lex(text, source), source).parse();
}

/** `attr:value` / `attr:-value` of facetFilters (split at the first colon outside quotes). */
function parseFacetFilter(entry: string, source = 'facetFilters'): FilterNode {
  const idx = entry.indexOf(':');
  if (idx <= 0) throw new EngineError(`${source}: "${entry}" is not of the form attribute:value`);
  let attribute = entry.slice(0, idx).trim();
  let value = entry.slice(idx + 1).trim();
  if (attribute.startsWith('"') && attribute.endsWith('"') && attribute.length > 1) attribute = attribute.slice(1, -1);
  let negate = false;
  if (value.startsWith('-')) {
    negate = true;
    value = value.slice(1);
  } else if (value.startsWith('\\-')) value = value.slice(1);
  if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
  const node: FilterNode = { type: 'facet', attribute, value };
  return negate ? { type: 'not', child: node } : node;
}

function parseTagFilter(entry: string): FilterNode {
  let value = entry.trim();
  let negate = false;
  if (value.startsWith('-')) {
    negate = true;
    value = value.slice(1);
  } else if (value.startsWith('\\-')) value = value.slice(1);
  const node: FilterNode = { type: 'facet', attribute: '_tags', value };
  return negate ? { type: 'not', child: node } : node;
}

function parseNumericFilter(entry: string): FilterNode {
  const node = parseFilters(entry, 'numericFilters');
  if (node.type !== 'numeric' && node.type !== 'range') {
    throw new EngineError(
      `numericFilters: "${entry}" is not a numeric filter (attribute op number or attribute:a TO b)`,
    );
  }
  return node;
}

function listToNode(list: Array<string | string[]>, one: (s: string) => FilterNode): FilterNode | null {
  const and: FilterNode[] = [];
  for (const item of list) {
    if (Array.isArray(item)) {
      if (item.length === 0) continue;
      const or = item.map(one);
      and.push(or.length === 1 ? or[0]! : { type: 'or', children: or });
    } else {
      and.push(one(item));
    }
  }
  if (and.length === 0) return null;
  return and.length === 1 ? and[0]! : { type: 'and', children: and };
}

export interface FilterInputs {
  filters?: unknown;
  facetFilters?: unknown;
  numericFilters?: unknown;
  tagFilters?: unknown;
}

function asList(value: unknown): Array<string | string[]> {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return [value];
  return value as Array<string | string[]>;
}

/**
 * Combines every filter parameter into one tree (AND of all), or `null` when there is none.
 * @example buildFilterTree({ facetFilters: [['brand:A', 'brand:B'], 'category:-Books'] })
 */
export function buildFilterTree(params: FilterInputs): FilterNode | null {
  const parts: FilterNode[] = [];
  if (typeof params.filters === 'string' && params.filters.trim() !== '') parts.push(parseFilters(params.filters));
  const facet = listToNode(asList(params.facetFilters), (entry) => parseFacetFilter(entry));
  if (facet) parts.push(facet);
  const numeric = listToNode(asList(params.numericFilters), parseNumericFilter);
  if (numeric) parts.push(numeric);
  const tags = listToNode(asList(params.tagFilters), parseTagFilter);
  if (tags) parts.push(tags);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : { type: 'and', children: parts };
}

/**
 * `optionalFilters`: each entry (a facet filter, or an array of them for OR) becomes one node; a
 * record's `filters` score is the number of entries it matches (it is never filtered out).
 * @example buildOptionalFilters(['brand:Acme', ['color:red', 'color:blue']]) // two nodes
 */
export function buildOptionalFilters(value: unknown): FilterNode[] {
  const list = asList(value);
  const out: FilterNode[] = [];
  for (const item of list) {
    if (Array.isArray(item)) {
      if (item.length === 0) continue;
      const or = item.map((entry) => parseFacetFilter(entry, 'optionalFilters'));
      out.push(or.length === 1 ? or[0]! : { type: 'or', children: or });
    } else out.push(parseFacetFilter(item, 'optionalFilters'));
  }
  return out;
}
