/** Boxes in degrees that hold every point within a distance of a box, a point or a line: what a spatial index answers. */
import type { BBox, LonLat } from '../model/geometry';
import { arcLatRange, cumulativeKm, KM_PER_DEGREE, RAD } from './sphere';

/**
 * Boxes (in degrees) that hold every point within `km` of a lon/lat box whose longitudes do not cross the
 * antimeridian. Two boxes when the padded box wraps around ±180; the full longitude range near a pole.
 */
export function padBox([minLon, minLat, maxLon, maxLat]: BBox, km: number): BBox[] {
  const dLat = km / KM_PER_DEGREE;
  const lo = minLat - dLat;
  const hi = maxLat + dLat;
  const poleward = Math.max(Math.abs(lo), Math.abs(hi));
  if (poleward >= 89) return [[-180, Math.max(-90, lo), 180, Math.min(90, hi)]];
  // Allow for the widest point of a small circle: asin(sin(r)/cos(lat)) ≥ r/cos(lat) is close enough when
  // padded by 1 %, and the exact distance check follows the box anyway.
  const dLon = (dLat / Math.cos(poleward * RAD)) * 1.01;
  const west = minLon - dLon;
  const east = maxLon + dLon;
  if (east - west >= 360) return [[-180, lo, 180, hi]];
  const boxes: BBox[] = [[Math.max(-180, west), lo, Math.min(180, east), hi]];
  if (west < -180) boxes.push([west + 360, lo, 180, hi]);
  if (east > 180) boxes.push([-180, lo, east - 360, hi]);
  return boxes;
}

/** Boxes holding every point within `radiusKm` of `center`. */
export function radiusBoxes(center: LonLat, radiusKm: number): BBox[] {
  return padBox([center[0], center[1], center[0], center[1]], radiusKm);
}

/** A run of consecutive segments of a line and the boxes that hold its corridor. */
export interface LineChunk {
  /** Index of the chunk's first point in the line. */
  first: number;
  /** Index of the chunk's last point in the line. */
  last: number;
  startKm: number;
  lengthKm: number;
  boxes: BBox[];
}

/**
 * Splits a line into chunks of up to `segments` segments and gives each the boxes that contain every point
 * within `corridorKm` of it; a spatial index answers small boxes far better than the one box of a long line.
 * 32 segments measured best on both backends when each box was a query of the spatial index
 * (scripts/bench/fuel.ts): fewer probes, little overlap. The corridor search, whose candidates now come
 * from memory, asks for 16 (store/corridor.ts).
 */
export function corridorChunks(line: LonLat[], corridorKm: number, segments = 32): LineChunk[] {
  const cum = cumulativeKm(line);
  const chunks: LineChunk[] = [];
  for (let first = 0; first < line.length - 1; first += segments) {
    const last = Math.min(first + segments, line.length - 1);
    let minLat = 90;
    let maxLat = -90;
    let crossesAntimeridian = false;
    const lons: number[] = [];
    for (let i = first; i < last; i++) {
      const a = line[i] as LonLat;
      const b = line[i + 1] as LonLat;
      const [lo, hi] = arcLatRange(a, b);
      minLat = Math.min(minLat, lo);
      maxLat = Math.max(maxLat, hi);
      if (Math.abs(a[0] - b[0]) > 180) crossesAntimeridian = true;
      lons.push(a[0], b[0]);
    }
    const box: BBox = crossesAntimeridian
      ? [-180, minLat, 180, maxLat]
      : [Math.min(...lons), minLat, Math.max(...lons), maxLat];
    const startKm = cum[first] ?? 0;
    chunks.push({
      first,
      last,
      startKm,
      lengthKm: (cum[last] ?? startKm) - startKm,
      boxes: padBox(box, corridorKm),
    });
  }
  return chunks;
}
