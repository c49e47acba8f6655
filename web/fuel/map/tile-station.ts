/**
 * A station drawn from the map's street tiles, as the page's card takes it. The tiles carry every property of
 * `/api/stations`' features but the database id (`/api/tiles`, left out to halve a street tile's bytes), so
 * a station the list beside the map does not hold (the list is capped) still opens from the map.
 */
import type { FuelCode, LonLat, Station } from '../api';

/** The durable identity of a station: its country and its id at the source (share links use the pair). */
export const stationKey = (p: { readonly [key: string]: unknown }) => `${p.country}/${p.externalId}`;

/**
 * The station of a street tile's point: its properties as MapLibre decodes them (numbers stay numbers,
 * `reportedAt` is epoch milliseconds) at the point's place. The database id is unknown: it is empty, and so
 * matches no station of a list.
 */
export function stationFromTile(properties: Record<string, unknown>, at: LonLat): Station | undefined {
  const text = (key: string) =>
    typeof properties[key] === 'string' ? (properties[key] as string) : undefined;
  const number = (key: string) =>
    typeof properties[key] === 'number' ? (properties[key] as number) : undefined;
  const [country, externalId, name, address, city, fuelType, currency] = [
    'country',
    'externalId',
    'name',
    'address',
    'city',
    'fuelType',
    'currency',
  ].map(text);
  if (!country || !externalId || name === undefined || !fuelType || currency === undefined) return undefined;
  const price = number('price');
  const reportedAt = number('reportedAt');
  const powerKw = number('powerKw');
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: at },
    properties: {
      id: '',
      externalId,
      country,
      name,
      brand: text('brand') ?? null,
      address: address ?? '',
      city: city ?? '',
      fuelType: fuelType as FuelCode,
      currency,
      ...(price !== undefined && { price }),
      ...(reportedAt !== undefined && { reportedAt: new Date(reportedAt).toISOString() }),
      ...(powerKw !== undefined && { powerKw }),
    },
  };
}
