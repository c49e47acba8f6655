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

/** The median of prices sorted ascending, as PostgreSQL's percentile_cont(0.5) computes it. */
export function medianOfSorted(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) / 2;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}
