import type { ValidationDetail } from '../../common/http/errors';
import { InvalidParameters } from '../model/errors';
import type { BBox, LonLat } from '../model/geometry';

export const BBOX_MESSAGE = 'bbox must be minLon,minLat,maxLon,maxLat with valid coordinates';

/**
 * The document bounds both items of a [lon, lat] pair to ±180 (OpenAPI 3.0 cannot bound them apart), so
 * the latitudes are checked here; every bad one is listed.
 */
export function checkLatitudes(pairs: { path: string; value: LonLat | undefined }[]): void {
  const details: ValidationDetail[] = pairs
    .filter(({ value }) => value !== undefined && !(value[1] >= -90 && value[1] <= 90))
    .map(({ path }) => ({ path: `${path}/1`, message: 'latitude must be between -90 and 90' }));
  if (details.length > 0) throw new InvalidParameters(details);
}

/** `minLon,minLat,maxLon,maxLat` with every value in range and each minimum at most its maximum. */
export function parseBbox(raw: string): BBox {
  const parts = raw.split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  const [minLon, minLat, maxLon, maxLat] = parts as [number, number, number, number];
  const lonOk = (v: number) => Number.isFinite(v) && v >= -180 && v <= 180;
  const latOk = (v: number) => Number.isFinite(v) && v >= -90 && v <= 90;
  const valid =
    parts.length === 4 &&
    lonOk(minLon) &&
    lonOk(maxLon) &&
    latOk(minLat) &&
    latOk(maxLat) &&
    minLon <= maxLon &&
    minLat <= maxLat;
  if (!valid) throw new InvalidParameters([{ path: '/query/bbox', message: BBOX_MESSAGE }]);
  return [minLon, minLat, maxLon, maxLat];
}
