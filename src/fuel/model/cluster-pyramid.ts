/**
 * The clusters of every cluster tile of the low zooms, computed at once for a fuel: what a cluster tile
 * (model/tiles.ts) holds, cell by cell, for tile zooms 0..maxZoom. A whole-continent tile would otherwise
 * read every station it covers on each request; the stores keep these cells in a table, rebuilt after
 * each change, and answer those tiles from it (one indexed read of at most 1,024 rows).
 *
 * Exact, as the live tile computes it: counts, sums of units (the place), the cheapest price and the
 * currency compose from the finest cells up; a median does not, so it is taken for each zoom by walking
 * the stations once in price order and stopping at each cell's middle rank.
 */
import { CELL_BITS, UNIT_BITS } from './tiles';

/** A fuel's stations, column by column: positions in units (model/tiles.ts worldUnits), price and currency. */
export interface ClusterStations {
  ux: Uint32Array;
  uy: Uint32Array;
  /** NaN: no price (a charge point). */
  price: Float64Array;
  /** An index into `currencies`; -1: none. */
  currency: Int32Array;
  currencies: readonly string[];
}

/** The clusters of one tile zoom: cell k at cell (cx[k], cy[k]) of the grid of zoom z + CELL_BITS. */
export interface ClusterLevel {
  z: number;
  size: number;
  cx: Uint32Array;
  cy: Uint32Array;
  count: Uint32Array;
  sumUx: Float64Array;
  sumUy: Float64Array;
  /** NaN: no priced station. */
  cheapest: Float64Array;
  median: Float64Array;
  /** The one currency of the cell's prices: an index into the stations' `currencies`; -1: none, or two. */
  currency: Int32Array;
}

const MIXED = -2;

/** The cells of one zoom, and each finer cell's (or station's) cell in it. */
function groupBy(keys: Float64Array): { unique: Float64Array; index: Uint32Array } {
  const sorted = keys.slice().sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[size++] = sorted[i] as number;
  }
  const unique = sorted.slice(0, size);
  const position = new Map<number, number>();
  for (const [i, key] of unique.entries()) position.set(key, i);
  const index = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) index[i] = position.get(keys[i] as number) as number;
  return { unique, index };
}

/** The priced stations, cheapest first (a counting sort over the distinct prices). */
function priceOrder(price: Float64Array): Uint32Array {
  const distinct = Float64Array.from(new Set(price)).filter((p) => !Number.isNaN(p));
  distinct.sort();
  const rank = new Map<number, number>();
  for (const [i, p] of distinct.entries()) rank.set(p, i);
  const starts = new Uint32Array(distinct.length + 1);
  for (const p of price) if (!Number.isNaN(p)) (starts[(rank.get(p) as number) + 1] as number)++;
  for (let i = 1; i < starts.length; i++) (starts[i] as number) += starts[i - 1] as number;
  const order = new Uint32Array(starts[distinct.length] as number);
  for (let s = 0; s < price.length; s++) {
    const p = price[s] as number;
    if (!Number.isNaN(p)) order[(starts[rank.get(p) as number] as number)++] = s;
  }
  return order;
}

export function buildClusterLevels(stations: ClusterStations, maxZoom: number): ClusterLevel[] {
  const n = stations.ux.length;
  const fineZoom = maxZoom + CELL_BITS;
  const fineShift = UNIT_BITS - fineZoom;
  const keyOf = (cx: number, cy: number, zoom: number) => cx * 2 ** zoom + cy;
  const stationKeys = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    stationKeys[s] = keyOf(
      (stations.ux[s] as number) >>> fineShift,
      (stations.uy[s] as number) >>> fineShift,
      fineZoom,
    );
  }
  const fine = groupBy(stationKeys);
  const fineCells = fine.unique.length;
  const fineX = new Uint32Array(fineCells);
  const fineY = new Uint32Array(fineCells);
  fine.unique.forEach((key, i) => {
    fineX[i] = Math.floor(key / 2 ** fineZoom);
    fineY[i] = key - (fineX[i] as number) * 2 ** fineZoom;
  });
  const order = priceOrder(stations.price);
  const levels: ClusterLevel[] = [];
  for (let z = maxZoom; z >= 0; z--) {
    const shift = maxZoom - z;
    const zoom = z + CELL_BITS;
    const keys = new Float64Array(fineCells);
    for (let i = 0; i < fineCells; i++) {
      keys[i] = keyOf((fineX[i] as number) >>> shift, (fineY[i] as number) >>> shift, zoom);
    }
    const { unique, index: cellOfFine } = groupBy(keys);
    const size = unique.length;
    const level: ClusterLevel = {
      z,
      size,
      cx: new Uint32Array(size),
      cy: new Uint32Array(size),
      count: new Uint32Array(size),
      sumUx: new Float64Array(size),
      sumUy: new Float64Array(size),
      cheapest: new Float64Array(size).fill(Number.NaN),
      median: new Float64Array(size).fill(Number.NaN),
      currency: new Int32Array(size).fill(-1),
    };
    unique.forEach((key, i) => {
      level.cx[i] = Math.floor(key / 2 ** zoom);
      level.cy[i] = key - (level.cx[i] as number) * 2 ** zoom;
    });
    const priced = new Uint32Array(size);
    for (let s = 0; s < n; s++) {
      const c = cellOfFine[fine.index[s] as number] as number;
      (level.count[c] as number)++;
      (level.sumUx[c] as number) += stations.ux[s] as number;
      (level.sumUy[c] as number) += stations.uy[s] as number;
      const currency = stations.currency[s] as number;
      if (!Number.isNaN(stations.price[s])) (priced[c] as number)++;
      if (currency >= 0) {
        const was = level.currency[c] as number;
        level.currency[c] = was === -1 || was === currency ? currency : MIXED;
      }
    }
    // The cheapest is the first in price order; the median, PostgreSQL's percentile_cont(0.5): the middle
    // price, or the mean of the two middle ones (model/tiles.ts medianOfSorted).
    const seen = new Uint32Array(size);
    const low = new Float64Array(size);
    for (const s of order) {
      const c = cellOfFine[fine.index[s] as number] as number;
      const rank = (seen[c] as number)++;
      const price = stations.price[s] as number;
      if (rank === 0) level.cheapest[c] = price;
      const at = ((priced[c] as number) - 1) / 2;
      if (rank === Math.floor(at)) low[c] = price;
      if (rank === Math.ceil(at)) {
        const lo = low[c] as number;
        level.median[c] = lo + (price - lo) * (at - Math.floor(at));
      }
    }
    for (let c = 0; c < size; c++) if (level.currency[c] === MIXED) level.currency[c] = -1;
    levels.push(level);
  }
  return levels.reverse();
}
