/**
 * Filters evaluated to bit sets over the internal record ids: one `Uint32Array` per condition (facet
 * value, numeric comparison or range over the columns), combined word by word, and cached per filter
 * string until the next write.
 */
import { buildFilterTree, type FilterNode } from './filters.js';
import { textsOf } from './columns.js';
import type { IndexState } from './index-state.js';
import type { SearchParams } from './params.js';

/**
 * The records passing every filter parameter, as a bit set (null: no filter). Cached per filter.
 * @example filterBits(state, { filters: 'brand:Acme AND price < 100' }) // bit id set for each matching record
 */
export function filterBits(state: IndexState, params: SearchParams): Uint32Array | null {
  const key = JSON.stringify([
    params.filters ?? null,
    params.facetFilters ?? null,
    params.numericFilters ?? null,
    params.tagFilters ?? null,
  ]);
  if (key === '[null,null,null,null]') return null;
  const cached = state.filterCache.get(key);
  if (cached && cached.version === state.version) return cached.bits;
  const tree = cached ? cached.tree : buildFilterTree(params);
  const bits = tree ? evaluateFilter(state, tree) : null;
  if (bits) {
    const alive = state.alivebits();
    for (let i = 0; i < bits.length; i++) bits[i]! &= alive[i]!;
  }
  if (state.filterCache.size > 64) state.filterCache.delete(state.filterCache.keys().next().value!);
  state.filterCache.set(key, { version: state.version, bits, tree });
  return bits;
}

/**
 * The records matching one filter tree, as a bit set over the internal ids (dead ids included for
 * facet and numeric conditions: the caller masks them with the live records).
 * @example evaluateFilter(state, buildFilterTree({ filters: 'color:red' })!)
 */
export function evaluateFilter(state: IndexState, node: FilterNode): Uint32Array {
  const words = state.bitWords();
  const n = state.records.length;
  switch (node.type) {
    case 'and': {
      const acc = evaluateFilter(state, node.children[0]!);
      for (let c = 1; c < node.children.length; c++) {
        const b = evaluateFilter(state, node.children[c]!);
        for (let i = 0; i < words; i++) acc[i]! &= b[i]!;
      }
      return acc;
    }
    case 'or': {
      const acc = evaluateFilter(state, node.children[0]!);
      for (let c = 1; c < node.children.length; c++) {
        const b = evaluateFilter(state, node.children[c]!);
        for (let i = 0; i < words; i++) acc[i]! |= b[i]!;
      }
      return acc;
    }
    case 'not': {
      const b = evaluateFilter(state, node.child);
      const alive = state.alivebits();
      for (let i = 0; i < words; i++) b[i] = ~b[i]! & alive[i]!;
      return b;
    }
    case 'facet': {
      const col = textsOf(state.column(node.attribute));
      const bits = new Uint32Array(words);
      const flags = new Uint8Array(col.values.length);
      let any = false;
      for (const vid of col.lower.get(node.value.toLowerCase()) ?? []) {
        flags[vid] = 1;
        any = true;
      }
      const asNumber = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(node.value.trim()) ? Number(node.value) : NaN;
      const numeric = col.hasNum && !Number.isNaN(asNumber);
      if (!any && !numeric) return bits;
      for (let id = 0; id < n; id++) {
        let hit = false;
        const s = col.single[id]!;
        if (s >= 0) hit = flags[s] === 1;
        else if (s === -2) hit = col.multi.get(id)!.some((v) => flags[v] === 1);
        if (!hit && numeric) {
          const v = col.num[id]!;
          hit = v === asNumber || (col.numMulti.get(id)?.includes(asNumber) ?? false);
        }
        if (hit) bits[id >>> 5]! |= 1 << (id & 31);
      }
      return bits;
    }
    case 'numeric':
    case 'range': {
      const col = state.column(node.attribute);
      const bits = new Uint32Array(words);
      if (!col.hasNum) return bits;
      let test: (v: number) => boolean;
      if (node.type === 'range') {
        const { from, to } = node;
        test = (v) => v >= from && v <= to;
      } else {
        const x = node.value;
        test = {
          '<': (v: number) => v < x,
          '<=': (v: number) => v <= x,
          '=': (v: number) => v === x,
          '!=': (v: number) => v !== x,
          '>=': (v: number) => v >= x,
          '>': (v: number) => v > x,
        }[node.op];
      }
      const hasMulti = col.numMulti.size > 0;
      for (let id = 0; id < n; id++) {
        const v = col.num[id]!;
        // biome-ignore lint/suspicious/noSelfCompare: the NaN test of the filter's loop over every record, as fast as it gets
        if (v !== v) continue;
        const many = hasMulti ? col.numMulti.get(id) : undefined;
        if (many ? many.some(test) : test(v)) bits[id >>> 5]! |= 1 << (id & 31);
      }
      return bits;
    }
  }
}
