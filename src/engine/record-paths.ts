/**
 * Reading and writing record attributes by path (`a.b.c`): values for indexing and facets (arrays
 * flattened), one value for retrieval, and the deep copy hits are made of.
 */

/**
 * Every value at `path` (from step `i`), arrays flattened at each step, pushed to `out`.
 * @example const out: unknown[] = []; getValues({ a: [{ b: 1 }, { b: 2 }] }, ['a', 'b'], 0, out); // out = [1, 2]
 */
export function getValues(value: unknown, path: string[], i: number, out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (i === path.length) {
    if (Array.isArray(value)) for (const v of value) getValues(v, path, i, out);
    else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) getValues(v, path, i, out);
    return;
  }
  if (typeof value === 'object') getValues((value as Record<string, unknown>)[path[i]!], path, i + 1, out);
}

/**
 * Deep copy of a JSON value (records come from JSON): much cheaper than structuredClone for small records.
 * @example cloneJson({ a: [1, { b: 2 }] }) // an equal object sharing nothing with the input
 */
export function cloneJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * The value at `path` (objects only; an array on the way gives undefined).
 * @example getPath({ a: { b: 1 } }, ['a', 'b']) // 1
 */
export function getPath(record: Record<string, unknown>, path: string[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * Sets the value at `path`, creating the objects on the way.
 * @example const o = {}; setPath(o, ['a', 'b'], 1); // o = { a: { b: 1 } }
 */
export function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let t = target;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    if (t[k] === undefined || typeof t[k] !== 'object' || t[k] === null) t[k] = {};
    t = t[k] as Record<string, unknown>;
  }
  t[path[path.length - 1]!] = value;
}

/**
 * Deletes the value at `path` (nothing when the path does not exist).
 * @example const o = { a: { b: 1, c: 2 } }; deletePath(o, ['a', 'b']); // o = { a: { c: 2 } }
 */
export function deletePath(target: Record<string, unknown>, path: string[]): void {
  let t: unknown = target;
  for (let i = 0; i < path.length - 1; i++) {
    if (t === null || typeof t !== 'object') return;
    t = (t as Record<string, unknown>)[path[i]!];
  }
  if (t !== null && typeof t === 'object') delete (t as Record<string, unknown>)[path[path.length - 1]!];
}
