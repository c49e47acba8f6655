/** A street tile's point as the station card takes it. */
import { describe, expect, it } from 'vitest';
import { stationFromTile, stationKey } from './tile-station';

describe('stationFromTile', () => {
  it('gives a priced station its Feature, with the time as ISO text and no database id', () => {
    const station = stationFromTile(
      {
        externalId: '4711',
        country: 'ES',
        name: 'Station Sol',
        brand: 'Repsol',
        address: 'Puerta del Sol, 1',
        city: 'Madrid',
        fuelType: 'B7',
        currency: 'EUR',
        price: 1.399,
        reportedAt: Date.UTC(2026, 10, 28, 9, 30),
      },
      [-3.7038, 40.4168],
    );
    expect(station).toEqual({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-3.7038, 40.4168] },
      properties: {
        id: '',
        externalId: '4711',
        country: 'ES',
        name: 'Station Sol',
        brand: 'Repsol',
        address: 'Puerta del Sol, 1',
        city: 'Madrid',
        fuelType: 'B7',
        currency: 'EUR',
        price: 1.399,
        reportedAt: '2026-11-28T09:30:00.000Z',
      },
    });
    expect(stationKey(station?.properties ?? { country: '', externalId: '' })).toBe('ES/4711');
  });

  it('gives a charge point without a brand its power and a null brand, and no price', () => {
    const station = stationFromTile(
      {
        externalId: 'c1',
        country: 'DE',
        name: 'Charger',
        address: 'Hauptstraße 2',
        city: 'Berlin',
        fuelType: 'EV',
        currency: 'EUR',
        powerKw: 150,
      },
      [13.4, 52.5],
    );
    expect(station?.properties).toMatchObject({ brand: null, powerKw: 150, fuelType: 'EV' });
    expect(station?.properties).not.toHaveProperty('price');
    expect(station?.properties).not.toHaveProperty('reportedAt');
  });

  it('gives nothing for a point that is not a station (a cluster)', () => {
    expect(stationFromTile({ count: 12, cheapest: 1.3, median: 1.4 }, [0, 0])).toBeUndefined();
  });
});
