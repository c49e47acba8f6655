// The store suite (store.cases.ts) on SQLite (in memory), then what only this backend does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeKeyOf } from '../../model/tiles';
import { stationRows, TEST_BACKENDS, TEST_SHARED_BACKENDS } from '../../testing/stores';
import { decodeTile } from '../../testing/tiles';
import type { FuelStore, LonLat, PriceInput, StationInput } from '../store';
import { fuelStoreCases } from '../store.cases';
import { openSqliteStore } from '.';
import { streetTileSql } from './tiles';

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

describe('the SQLite store’s street order (migration 009)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'specyard-street-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a street tile from the street index and the prices by key, never a station’s row', async () => {
    await openSqliteStore(path.join(dir, 'fuel.db')).close();
    const db = new Database(path.join(dir, 'fuel.db'));
    try {
      for (const ev of [false, true]) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${streetTileSql(ev)}`)
          .all({ from: 0, to: 1, ...(ev ? {} : { fuel: 'B7' }) }) as { detail: string }[];
        expect(plan.map((step) => step.detail)).toEqual([
          'SEARCH s USING COVERING INDEX stations_street (place_key>? AND place_key<?)',
          ...(ev ? [] : ['SEARCH p USING PRIMARY KEY (place_key=? AND station_seq=? AND fuel=?)']),
        ]);
      }
    } finally {
      db.close();
    }
  });

  it('keeps each station’s key, and its newest prices’, with its position through every write, readable without the store', async () => {
    const file = path.join(dir, 'fuel.db');
    const store = openSqliteStore(file);
    // A plain connection: the file needs none of the store's functions to be read or checked.
    const plain = new Database(file, { readonly: true });
    const wrongKeys = () =>
      (
        plain.prepare('SELECT seq, lon, lat, place_key FROM stations').raw().all() as [
          number,
          number,
          number,
          number,
        ][]
      ).filter(([, lon, lat, key]) => key !== placeKeyOf(lon, lat)).length +
      (plain
        .prepare(
          `SELECT count(*) FROM latest_prices p
           WHERE NOT EXISTS (SELECT 1 FROM stations s WHERE s.seq = p.station_seq AND s.place_key = p.place_key)`,
        )
        .pluck()
        .get() as number);
    try {
      const stations = Array.from({ length: 40 }, (_, n) => stationAt(n));
      await store.upsertStations(stations);
      await store.replacePrices('miteco', 'ES', b7(stations));
      expect(plain.prepare('SELECT count(*) FROM latest_prices').pluck().get()).toBe(40);
      expect(wrongKeys()).toBe(0);
      // Half of them move (after their prices were written); a price run follows; some go.
      const moved = stations.map((s, n) => (n % 2 ? { ...s, lon: s.lon + 0.3, lat: s.lat - 0.2 } : s));
      await store.upsertStations(moved);
      expect(wrongKeys()).toBe(0);
      await store.replacePrices('miteco', 'ES', b7(moved.slice(0, 30)));
      expect(wrongKeys()).toBe(0);
      await store.deleteStationsBySource('miteco', 'ES', { exceptExternalIds: ['s-1', 's-2'] });
      expect(plain.prepare('SELECT count(*) FROM latest_prices').pluck().get()).toBe(2);
      expect(wrongKeys()).toBe(0);
      expect(plain.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      plain.close();
      await store.close();
    }
  });
});
