/**
 * Geo search: the geo parameters of a query (`aroundLatLng`, `aroundRadius`, `aroundPrecision`,
 * `insideBoundingBox`, `insidePolygon`) and the filter that keeps the located candidates inside them
 * and records their distance to the centre (the `geo` criterion and `_rankingInfo.geoDistance`).
 */
import type { Column } from './columns.js';
import { EngineError } from './errors.js';
import type { SearchParams } from './params.js';

export interface GeoQuery {
  around: [number, number] | null;
  /** Metres, or null for no limit. */
  radius: number | null;
  /** Metres per step of the `geo` criterion. */
  precision: number;
  /** [latMin, lngMin, latMax, lngMax] */
  boxes: Array<[number, number, number, number]>;
  /** Flat [lat, lng, lat, lng, …] rings. */
  polygons: number[][];
}

const EARTH_RADIUS_M = 6371008.8;

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

function inBox(b: [number, number, number, number], lat: number, lng: number): boolean {
  return lat >= b[0] && lat <= b[2] && lng >= b[1] && lng <= b[3];
}

/** Ray casting on a flat [lat, lng, …] ring. */
function inPolygon(ring: number[], lat: number, lng: number): boolean {
  let inside = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = ring[2 * i]!;
    const xi = ring[2 * i + 1]!;
    const yj = ring[2 * j]!;
    const xj = ring[2 * j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** A list of number lists from a parameter: "a,b,c" / [a, b, c] / [[a, b, c], …] / its JSON text. */
function numberLists(name: string, value: unknown, size: (n: number) => boolean, expected: string): number[][] {
  let list: unknown = value;
  if (typeof list === 'string') {
    const t = list.trim();
    try {
      list = t.startsWith('[') ? JSON.parse(t) : [t.split(',').map((x) => Number(x.trim()))];
    } catch {
      geoError(name, expected);
    }
  }
  if (Array.isArray(list) && list.every((x) => typeof x === 'number')) list = [list];
  if (
    !Array.isArray(list) ||
    !list.every(
      (b) => Array.isArray(b) && size(b.length) && b.every((x) => typeof x === 'number' && Number.isFinite(x)),
    )
  ) {
    geoError(name, expected);
  }
  return list as number[][];
}

function geoError(name: string, expected: string): never {
  throw new EngineError(`Invalid value for parameter "${name}": expected ${expected}`);
}

/**
 * The geo parameters of a search: `aroundLatLng` ("lat, lng"), `aroundRadius` (metres or 'all'),
 * `aroundPrecision` (metres, default 10), `insideBoundingBox` ("lat1,lng1,lat2,lng2" or arrays of
 * four numbers), `insidePolygon` (lat, lng pairs, at least three). Records are located by `_geoloc` ({lat, lng} or an array of them).
 * @example parseGeo({ aroundLatLng: '48.85, 2.35', aroundRadius: 1000 }) // { around: [48.85, 2.35], radius: 1000, … }
 */
export function parseGeo(params: SearchParams): GeoQuery | null {
  const around = params.aroundLatLng;
  const box = params.insideBoundingBox;
  const polygon = params.insidePolygon;
  const none = (v: unknown) => v === undefined || v === null || v === '';
  if (none(around) && none(box) && none(polygon)) return null;
  const geo: GeoQuery = { around: null, radius: null, precision: 10, boxes: [], polygons: [] };
  if (around !== undefined && around !== null && around !== '') {
    const parts = typeof around === 'string' ? around.split(',').map((x) => Number(x.trim())) : [];
    if (parts.length !== 2 || !parts.every(Number.isFinite) || Math.abs(parts[0]!) > 90 || Math.abs(parts[1]!) > 180)
      geoError('aroundLatLng', '"latitude, longitude"');
    geo.around = [parts[0]!, parts[1]!];
    const radius = params.aroundRadius;
    if (radius !== undefined && radius !== null && radius !== 'all') {
      const r = typeof radius === 'string' ? Number(radius) : radius;
      if (typeof r !== 'number' || !Number.isFinite(r) || r < 1)
        geoError('aroundRadius', "a number of metres (≥ 1) or 'all'");
      geo.radius = r;
    }
    const precision = params.aroundPrecision;
    if (precision !== undefined && precision !== null) {
      const p = typeof precision === 'string' ? Number(precision) : precision;
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 1)
        geoError('aroundPrecision', 'a number of metres (≥ 1)');
      geo.precision = p;
    }
  }
  if (box !== undefined && box !== null && box !== '') {
    for (const b of numberLists(
      'insideBoundingBox',
      box,
      (n) => n === 4,
      'boxes of four numbers (lat1, lng1, lat2, lng2)',
    )) {
      geo.boxes.push([Math.min(b[0]!, b[2]!), Math.min(b[1]!, b[3]!), Math.max(b[0]!, b[2]!), Math.max(b[1]!, b[3]!)]);
    }
  }
  if (polygon !== undefined && polygon !== null && polygon !== '') {
    geo.polygons = numberLists(
      'insidePolygon',
      polygon,
      (n) => n >= 6 && n % 2 === 0,
      'polygons of at least three lat, lng points',
    );
  }
  return geo;
}

/**
 * Keeps the candidates inside the geo constraints and writes their distance to the centre into `dist`
 * (metres; 0 without a centre). Records are located by `_geoloc.lat` / `_geoloc.lng` (several points:
 * the closest one inside the constraints).
 * @example const kept = geoFilter(candidates, geo, lat, lng, distances);
 */
export function geoFilter(
  cands: Uint32Array,
  geo: GeoQuery,
  lat: Column,
  lng: Column,
  dist: Float64Array,
): Uint32Array {
  return cands.filter((d) => {
    const la = lat.num[d]!;
    const ln = lng.num[d]!;
    // biome-ignore lint/suspicious/noSelfCompare: the NaN test of the loop over every candidate, as fast as it gets
    if (la !== la || ln !== ln) return false;
    const points: Array<[number, number]> = [[la, ln]];
    const las = lat.numMulti.get(d);
    const lns = lng.numMulti.get(d);
    if (las && lns) for (let i = 1; i < Math.min(las.length, lns.length); i++) points.push([las[i]!, lns[i]!]);
    let best = Infinity;
    for (const [pLat, pLng] of points) {
      if (geo.boxes.length && !geo.boxes.some((b) => inBox(b, pLat, pLng))) continue;
      if (geo.polygons.length && !geo.polygons.some((ring) => inPolygon(ring, pLat, pLng))) continue;
      const m = geo.around ? haversine(geo.around[0], geo.around[1], pLat, pLng) : 0;
      if (geo.radius !== null && m > geo.radius) continue;
      if (m < best) best = m;
    }
    dist[d] = best;
    return best !== Infinity;
  });
}
