/**
 * The map's vector tiles (`GET /api/tiles/{z}/{x}/{y}`): which stations a tile holds and how it groups
 * them, written once for both stores. A tile is a Web Mercator tile of the XYZ scheme; a station belongs
 * to exactly one tile of each zoom, the one its position falls in (the tile's west and north edges are
 * inside it, its east and south edges in the next), so the tiles of one zoom never count a station twice.
 */
import type { BBox } from './geometry';

/** The tile's coordinate space (the Mapbox Vector Tile default). */
export const TILE_EXTENT = 4096;
/** Below this zoom a tile holds clusters; from it on, every station is its own point. */
export const STREET_ZOOM = 14;
/**
 * A cluster tile is cut into this many cells a side; each cell holding a station is one cluster. 32: a
 * cell is 16 pixels of a 512-pixel tile, about a cluster circle's size; 64 made tiles of Spain four times
 * the bytes, with circles drawn over each other (scripts/bench/README.md, fuel tiles).
 */
export const CLUSTER_GRID = 32;
/** The highest zoom served. */
export const MAX_TILE_ZOOM = 22;
/** The northmost latitude of the square Web Mercator world (and the southmost, negated). */
export const MAX_MERCATOR_LAT = 85.0511287798066;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Whether the column and row lie inside the zoom's grid. */
export function tileInGrid({ z, x, y }: TileAddress): boolean {
  const size = 2 ** z;
  return Number.isInteger(z) && z >= 0 && z <= MAX_TILE_ZOOM && x >= 0 && y >= 0 && x < size && y < size;
}

/** A position as a fraction of the world, west to east and north to south: [0, 1) each. */
export function worldFraction(lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  const fx = (lon + 180) / 360;
  const fy = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  return [Math.min(fx, 1 - Number.EPSILON), Math.max(0, Math.min(fy, 1 - Number.EPSILON))];
}

/**
 * The station's place in the tile: null when it lies in another tile, else its position in the tile's
 * coordinates (0..TILE_EXTENT, rounded as the encoding stores it) and the cell of the cluster grid.
 */
export function placeInTile(
  tile: TileAddress,
  lon: number,
  lat: number,
): { px: number; py: number; cell: number } | null {
  const size = 2 ** tile.z;
  const [fx, fy] = worldFraction(lon, lat);
  const gx = fx * size - tile.x;
  const gy = fy * size - tile.y;
  if (gx < 0 || gy < 0 || gx >= 1 || gy >= 1) return null;
  const cell = Math.floor(gy * CLUSTER_GRID) * CLUSTER_GRID + Math.floor(gx * CLUSTER_GRID);
  return { px: Math.round(gx * TILE_EXTENT), py: Math.round(gy * TILE_EXTENT), cell };
}

/** The tile's box in degrees, a little wider than the tile: the stores' index lookups read it. */
export function tileSearchBox({ z, x, y }: TileAddress): BBox {
  const size = 2 ** z;
  const lonOf = (fx: number) => fx * 360 - 180;
  const latOf = (fy: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * fy))) * 180) / Math.PI;
  // Wider by a millionth of a degree: the exact membership is placeInTile's.
  const pad = 1e-6;
  const north = y === 0 ? 90 : latOf(y / size) + pad;
  const south = y + 1 === size ? -90 : latOf((y + 1) / size) - pad;
  return [Math.max(-180, lonOf(x / size) - pad), south, Math.min(180, lonOf((x + 1) / size) + pad), north];
}

/**
 * Positions in whole units of the finest cluster zoom's tiles: a station is at `floor(fraction * 2^UNIT_BITS)`
 * (tile zoom 13's 4,096 units a side). Cells, tiles and cluster places of every cluster zoom come from these
 * integers by shifts and sums, so the stores' live clusters and their cluster tables (model/cluster-pyramid.ts)
 * agree to the unit, whatever order they add stations in.
 */
export const UNIT_BITS = 25;
/** The tile zooms whose clusters the stores keep in a table, built after each change (cluster-pyramid.ts). */
export const PYRAMID_MAX_ZOOM = 9;
/** The cluster grid's bits: CLUSTER_GRID = 2^CELL_BITS. */
export const CELL_BITS = 5;

/** A position in units (UNIT_BITS): integers below 2^25. */
export function worldUnits(lon: number, lat: number): [number, number] {
  const [fx, fy] = worldFraction(lon, lat);
  return [Math.floor(fx * 2 ** UNIT_BITS), Math.floor(fy * 2 ** UNIT_BITS)];
}

/**
 * A position's place key: the bits of its units interleaved from the top, a row's bit before a column's (the
 * order of model/tile-points.ts pointsKey), so the positions of any tile of zoom up to UNIT_BITS hold one range
 * of keys (placeKeyRange). PostgreSQL's prices carry their station's (`fuel_place_key`, its migration 011).
 */
export function placeKey(ux: number, uy: number): number {
  let key = 0;
  for (let bit = UNIT_BITS - 1; bit >= 0; bit--) key = key * 4 + ((uy >>> bit) & 1) * 2 + ((ux >>> bit) & 1);
  return key;
}

/** The place keys of a tile's positions: from, to (exclusive). Keys reach 2^50, exact in a number. */
export function placeKeyRange({ z, x, y }: TileAddress): [number, number] {
  const shift = 2 ** (UNIT_BITS - z);
  const first = placeKey(x * shift, y * shift);
  return [first, first + shift * shift];
}

/**
 * A cluster's place in its zoom-`z` tile, from the sum of its stations' units and their count: their mean
 * position, rounded to the tile's units. The stores write the same arithmetic in their own language.
 */
export function clusterPlace(sumUnits: number, count: number, z: number, tile: number): number {
  return Math.round(sumUnits / count / 2 ** (UNIT_BITS - 12 - z)) - tile * TILE_EXTENT;
}

/** The median of prices sorted ascending, as PostgreSQL's percentile_cont(0.5) computes it. */
export function medianOfSorted(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) / 2;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}
