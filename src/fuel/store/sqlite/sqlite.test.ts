// The store suite (store.cases.ts) on SQLite (in memory), then what only this backend does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stationRows, TEST_BACKENDS, TEST_SHARED_BACKENDS } from '../../testing/stores';
import type { FuelStore, LonLat, PriceInput, StationInput } from '../store';
import { fuelStoreCases } from '../store.cases';
import { openSqliteStore } from '.';

const line: LonLat[] = [
  [-3.8, 40.4],
  [-3.6, 40.4],
];

const stationAt = (n: number): StationInput => ({
  externalId: `s-${n}`,
  country: 'ES',
  type: 'fuel',
  name: `Station ${n}`,
  brand: null,
  address: `Calle ${n}`,
  city: 'Madrid',
  lon: -3.79 + n * 0.0015,
  lat: 40.4 + (n % 7) * 0.001,
  source: 'miteco',
});

const b7 = (stations: StationInput[]): PriceInput[] =>
  stations.map((s) => ({ externalId: s.externalId, country: 'ES', fuel: 'B7', price: 1.5, currency: 'EUR' }));

fuelStoreCases('sqlite', { open: TEST_BACKENDS.sqlite, openShared: TEST_SHARED_BACKENDS.sqlite });

describe('the SQLite store reading the stations positions again', () => {
  let store: FuelStore;
  beforeEach(() => {
    // Ten stations a statement: reading 100 takes ten statements.
    store = openSqliteStore(':memory:', { positionsPerRead: 10 });
  });
  afterEach(async () => {
    await store.close();
  });

  it('answers other calls between its statements, and then finds the station written', async () => {
    const stations = Array.from({ length: 100 }, (_, n) => stationAt(n));
    await store.upsertStations(stations);
    await store.replacePrices('miteco', 'ES', b7(stations));
    const query = { line, fuel: 'B7', corridorKm: 5, limit: 1000 };
    expect((await store.stationFeaturesAlongLine(query)).count).toBe(100);

    const added = [...stations, stationAt(100)];
    await store.upsertStations(added);
    await store.replacePrices('miteco', 'ES', b7(added));
    const order: string[] = [];
    const box = new Promise<void>((resolve) =>
      setImmediate(() => {
        void stationRows(store)
          .stationsInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 })
          .then(() => {
            order.push('box');
            resolve();
          });
      }),
    );
    const found = await store.stationFeaturesAlongLine(query);
    order.push('search');
    await box;
    expect(order).toEqual(['box', 'search']);
    expect(found.count).toBe(101);
  });
});
