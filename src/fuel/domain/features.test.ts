import { describe, expect, it } from 'vitest';
import type { StationRow } from '../store/store';
import { featureCollection, featureCollectionJson, stationFeature } from './features';

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

describe('a FeatureCollection written in pieces', () => {
  it.each([0, 1, 499, 500, 501, 1201])('parses to the same collection (%i features)', (count) => {
    const features = Array.from({ length: count }, (_, i) =>
      stationFeature(row({ externalId: String(i), price: i % 3 === 0 ? null : 1.4 }), 'B7', {
        routeFraction: i / 7,
      }),
    );
    const pieces = [...featureCollectionJson(features, 500)];
    expect(pieces).toHaveLength(Math.ceil(count / 500) + 1);
    expect(JSON.parse(pieces.join(''))).toEqual(featureCollection(features));
  });

  it('keeps the text of awkward strings intact', () => {
    const feature = stationFeature(row(), 'B7');
    expect(JSON.parse([...featureCollectionJson([feature])].join('')).features[0].properties.name).toBe(
      'GALP "Toledo" \\ Ñ \u0001 ☃',
    );
  });
});
