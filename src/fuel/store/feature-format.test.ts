import { describe, expect, it } from 'vitest';
import { stationFeature } from '../domain/features';
import {
  finishFeatureText,
  finishFeatureTextAlong,
  fuelTypePrefix,
  STATION_PROPERTIES,
} from './feature-format';
import type { StationRow } from './store';

const row: StationRow = {
  id: '0f0e0d0c-0000-4000-8000-000000000001',
  externalId: 'x-1',
  country: 'ES',
  type: 'both',
  name: 'Estación "Sur"',
  brand: null,
  address: 'Calle 1',
  city: 'Madrid',
  lon: -3.7038,
  lat: 40.4168,
  powerKw: 150,
  price: 1.479,
  currency: 'EUR',
  reportedAt: new Date('2026-11-20T08:00:00.123Z'),
};

/** The text a database writes for `row`, made here from the same description (head, then tail). */
function databaseText(fuel: string): string {
  const head = `{"type":"Feature","geometry":{"type":"Point","coordinates":[${row.lon},${row.lat}]},"properties":${JSON.stringify(
    Object.fromEntries(STATION_PROPERTIES.map(([property]) => [property, row[property]])),
  ).slice(0, -1)}`;
  return fuel === 'EV'
    ? `${head}${fuelTypePrefix(fuel)}"EUR","powerKw":${row.powerKw}}}`
    : `${head}${fuelTypePrefix(fuel)}${JSON.stringify(row.currency)},"price":${row.price},"reportedAt":"`;
}

describe('the Feature text format', () => {
  it('has the fields of stationFeature, in its order, for a fuel and for chargers', () => {
    const fuel = JSON.parse(finishFeatureText(databaseText('B7'), row.reportedAt?.getTime() ?? null));
    expect(JSON.stringify(fuel)).toBe(JSON.stringify(stationFeature(row, 'B7')));
    const charger = JSON.parse(finishFeatureText(databaseText('EV'), null));
    expect(JSON.stringify(charger)).toBe(JSON.stringify(stationFeature(row, 'EV')));
  });

  it('adds the place along a route last, rounded as stationFeature rounds it', () => {
    const along = finishFeatureTextAlong(databaseText('B7'), row.reportedAt?.getTime() ?? null, 0.12345678);
    expect(JSON.stringify(JSON.parse(along))).toBe(
      JSON.stringify(stationFeature(row, 'B7', { routeFraction: 0.12345678 })),
    );
    const charger = finishFeatureTextAlong(databaseText('EV'), null, 1 / 3);
    expect(JSON.parse(charger)).toEqual(stationFeature(row, 'EV', { routeFraction: 1 / 3 }));
  });
});
