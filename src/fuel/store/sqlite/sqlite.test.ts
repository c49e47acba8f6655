// The store suite (store.cases.ts) on SQLite (in memory), then what only this backend does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stationRows, TEST_BACKENDS, TEST_SHARED_BACKENDS } from '../../testing/stores';
import { decodeTile } from '../../testing/tiles';
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

describe('the SQLite store’s cluster table', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'specyard-clusters-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the low zooms from its last build, and shows a write once built again', async () => {
    const file = path.join(dir, 'fuel.db');
    const store = openSqliteStore(file);
    const other = new Database(file);
    try {
      const stations = [stationAt(0), stationAt(1)];
      await store.upsertStations(stations);
      await store.replacePrices('miteco', 'ES', b7(stations));
      const count = async (z: number) =>
        decodeTile(await store.stationTile({ fuel: 'B7', z, x: 0, y: 0 })).clusters?.[0]?.properties.count;
      expect(await count(0)).toBe(2);
      expect((await store.refreshStationClusters()).rebuilt).toEqual(['B7', 'EV']);
      // A cell altered behind the store's back shows: the tile came from the table.
      other.prepare("UPDATE station_clusters SET count = 999 WHERE fuel = 'B7' AND z = 0").run();
      expect(await count(0)).toBe(999);
      // A write shows once the table is built again; until then the last build answers.
      const more = [...stations, stationAt(2)];
      await store.upsertStations(more);
      await store.replacePrices('miteco', 'ES', b7(more));
      expect(await count(0)).toBe(999);
      expect((await store.refreshStationClusters()).rebuilt).toEqual(['B7', 'EV']);
      expect(await count(0)).toBe(3);
    } finally {
      other.close();
      await store.close();
    }
  });
});
