import { describe, expect, it } from 'vitest';
import type { StationRow } from '../store/store';
import { featureCollectionJson, stationFeature, stationFeatureJson } from './features';

const row = (overrides: Partial<StationRow> = {}): StationRow => ({
  id: '0d4f8a62-91b7-4c3e-a5d8-6e2b7c1f9a34',
  externalId: '10542',
  country: 'ES',
  type: 'fuel',
  name: 'GALP "Toledo" \\ Ñ \u0001 ☃',
  brand: 'Galp',
  address: 'CALLE DE TOLEDO, 128',
  city: 'MADRID',
  lon: -3.7112,
  lat: 40.405,
  powerKw: null,
  price: 1.479,
  currency: 'EUR',
  reportedAt: new Date('2026-05-12T06:30:12.000Z'),
  ...overrides,
});

describe('features written as JSON text', () => {
  it.each([
    ['a priced fuel station', row(), 'B7' as const, {}],
    [
      'a station without brand, price or time',
      row({ brand: null, price: null, reportedAt: null }),
      'E5' as const,
      {},
    ],
    [
      'an EV charger',
      row({ type: 'ev_charger', powerKw: 19.2, currency: null, price: null }),
      'EV' as const,
      {},
    ],
    ['a nearest result', row(), 'B7' as const, { distanceKm: 1.45449 }],
    ['a route result', row(), 'B7' as const, { routeFraction: 0.1234567 }],
  ])('equal the Feature object once parsed: %s', (_, station, fuel, extras) => {
    expect(JSON.parse(stationFeatureJson(station, fuel, extras))).toEqual(
      stationFeature(station, fuel, extras),
    );
  });

  it('make one FeatureCollection in pieces, empty or not', () => {
    const features = Array.from({ length: 1201 }, (_, i) =>
      stationFeatureJson(row({ externalId: String(i) }), 'B7'),
    );
    const pieces = [...featureCollectionJson(features, 500)];
    expect(pieces).toHaveLength(3);
    const parsed = JSON.parse(pieces.join(''));
    expect(parsed.type).toBe('FeatureCollection');
    expect(
      parsed.features.map((f: { properties: { externalId: string } }) => f.properties.externalId),
    ).toEqual(features.map((_, i) => String(i)));
    expect(JSON.parse([...featureCollectionJson([])].join(''))).toEqual({
      type: 'FeatureCollection',
      features: [],
    });
  });
});
