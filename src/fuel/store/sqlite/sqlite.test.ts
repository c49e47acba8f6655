// The store suite (store.cases.ts) on SQLite (in memory), then what only this backend does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STREET_ZOOM, UNIT_BITS, worldUnits } from '../../model/tiles';
import { stationRows, TEST_BACKENDS, TEST_SHARED_BACKENDS } from '../../testing/stores';
import { decodeTile } from '../../testing/tiles';
import type { FuelStore, LonLat, PriceInput, StationInput } from '../store';
import { fuelStoreCases } from '../store.cases';
import { openSqliteStore } from '.';
import { copyRows } from './street-copies';

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

describe('the SQLite store’s copies of its street tiles', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'specyard-streets-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** The street tiles (zooms 14, 16 and 22) holding each station, by fuel. */
  const tilesOf = (stations: StationInput[]) => {
    const tiles = new Map<string, { fuel: string; z: number; x: number; y: number }>();
    for (const s of stations) {
      const [ux, uy] = worldUnits(s.lon, s.lat);
      for (const fuel of ['B7', 'EV']) {
        for (const z of [STREET_ZOOM, 16, 22]) {
          const tile = { fuel, z, x: ux >>> (UNIT_BITS - z), y: uy >>> (UNIT_BITS - z) };
          tiles.set(JSON.stringify(tile), tile);
        }
      }
    }
    return [...tiles.values()];
  };

  it('answer a tile with the very bytes read live while the map is as built, and never after a write', async () => {
    const file = path.join(dir, 'fuel.db');
    const store = openSqliteStore(file, { streetCopyFrom: 3 });
    const other = new Database(file);
    try {
      const stations = [
        ...Array.from({ length: 12 }, (_, n) => stationAt(n)),
        // Three chargers in one zoom-14 tile, one of them also a fuel station without a price.
        { ...stationAt(40), externalId: 'c-1', type: 'ev_charger' as const, powerKw: 50, lon: -3.789 },
        { ...stationAt(41), externalId: 'c-2', type: 'both' as const, powerKw: 22, lon: -3.7885 },
        { ...stationAt(42), externalId: 'c-3', type: 'ev_charger' as const, lon: -3.79, lat: 40.4 },
      ];
      await store.upsertStations(stations);
      await store.replacePrices('miteco', 'ES', b7(stations.slice(0, 10)));
      const tiles = tilesOf(stations);
      const read = async () =>
        Promise.all(tiles.map((t) => store.stationTile(t).then((b) => Buffer.from(b))));
      const live = await read();
      expect((await store.refreshStationClusters()).rebuilt).toEqual(['B7', 'EV']);
      const copies = other.prepare('SELECT fuel, tile, rows FROM station_street_copies').raw().all() as [
        string,
        number,
        string | Buffer,
      ][];
      // Each fuel's stations in the zoom-14 tiles holding three stations or more.
      expect(new Set(copies.map(([fuel]) => fuel))).toEqual(new Set(['B7', 'EV']));
      expect(await read()).toEqual(live);

      // A copy altered behind the store's back shows: the tiles came from the copies.
      for (const [fuel, tile, rows] of copies) {
        const changed = copyRows(rows).map((row) => {
          const copy = [...row];
          copy[4] = 'From the copy';
          return copy;
        });
        other
          .prepare('UPDATE station_street_copies SET rows = ? WHERE fuel = ? AND tile = ?')
          .run(deflateRawSync(JSON.stringify(changed)), fuel, tile);
      }
      const names = async (fuel: string) =>
        new Set(
          (
            await Promise.all(
              tiles
                .filter((t) => t.fuel === fuel)
                .map(async (t) => decodeTile(await store.stationTile(t)).stations ?? []),
            )
          )
            .flat()
            .map((f) => f.properties.name),
        );
      expect(await names('B7')).toContain('From the copy');
      expect(await names('EV')).toContain('From the copy');

      // Any write, and every street tile is read live until the next build.
      await store.replacePrices('miteco', 'ES', [
        ...b7(stations.slice(0, 10)),
        { externalId: 's-3', country: 'ES', fuel: 'B7', price: 1.234, currency: 'EUR' },
      ]);
      expect(await names('B7')).not.toContain('From the copy');
      expect(await names('EV')).not.toContain('From the copy');
      const prices = async () =>
        (
          await Promise.all(
            tiles
              .filter((t) => t.fuel === 'B7')
              .map(async (t) => decodeTile(await store.stationTile(t)).stations ?? []),
          )
        )
          .flat()
          .filter((f) => f.properties.externalId === 's-3')
          .map((f) => f.properties.price);
      expect(new Set(await prices())).toEqual(new Set([1.234]));
      await store.refreshStationClusters();
      expect(await names('B7')).not.toContain('From the copy');
      expect(new Set(await prices())).toEqual(new Set([1.234]));
      const rebuilt = await read();
      const reopened = openSqliteStore(file, { streetCopyFrom: Number.MAX_SAFE_INTEGER });
      try {
        // Read live by a store that copies nothing: the same bytes.
        other.prepare('DELETE FROM station_street_copies').run();
        expect(
          await Promise.all(tiles.map((t) => reopened.stationTile(t).then((b) => Buffer.from(b)))),
        ).toEqual(rebuilt);
      } finally {
        await reopened.close();
      }
    } finally {
      other.close();
      await store.close();
    }
  });

  it('copies every tile holding a station, a station on the corner of four tiles into the tile it is drawn in, and a tile without the fuel empty', async () => {
    const file = path.join(dir, 'fuel.db');
    const store = openSqliteStore(file);
    const other = new Database(file, { readonly: true });
    try {
      // The corner of four zoom-14 tiles near Madrid, and stations on it, a centimetre off it each way
      // and a hair's breadth off it, none of them chargers; then a pump alone in its tile, and a charger
      // alone in another.
      const size = 2 ** STREET_ZOOM;
      const x = Math.floor(((-3.7 + 180) / 360) * size);
      const y = 6_300;
      const lon = (x / size) * 360 - 180;
      const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
      const offsets = [0, 1e-7, -1e-7, 1e-12, -1e-12, 3e-4, -3e-4];
      const corner = offsets.flatMap((dx, i) =>
        offsets.map((dy, j) => ({ ...stationAt(i * 10 + j), lon: lon + dx, lat: lat + dy })),
      );
      const alone = { ...stationAt(90), lon: lon + 0.5, lat: lat + 0.5 };
      const charger = {
        ...stationAt(91),
        externalId: 'c-1',
        type: 'ev_charger' as const,
        powerKw: 50,
        lon: lon - 0.5,
        lat: lat - 0.5,
      };
      const stations = [...corner, alone, charger];
      await store.upsertStations(stations);
      await store.replacePrices('miteco', 'ES', b7([...corner, alone]));
      const tiles = tilesOf(stations);
      const tileOf = (s: StationInput) =>
        worldUnits(s.lon, s.lat).map((u) => u >>> (UNIT_BITS - STREET_ZOOM)) as [number, number];
      const key = ([tx, ty]: [number, number]) => ty * size + tx;
      expect(new Set(corner.map((s) => tileOf(s).join('/')))).toEqual(
        new Set([`${x}/${y}`, `${x - 1}/${y}`, `${x}/${y - 1}`, `${x - 1}/${y - 1}`]),
      );
      const read = async () =>
        Promise.all(tiles.map((t) => store.stationTile(t).then((b) => Buffer.from(b))));
      const live = await read();
      await store.refreshStationClusters();
      const copies = other.prepare('SELECT fuel, tile, rows FROM station_street_copies').raw().all() as [
        string,
        number,
        string | Buffer,
      ][];
      const held = (fuel: string) =>
        new Map(copies.filter(([f]) => f === fuel).map(([, tile, rows]) => [tile, copyRows(rows).length]));
      // Each station in exactly one copy, the tile it is drawn in; each fuel has a copy of each tile
      // holding a station, empty where none of its stations is.
      const occupied = new Set(stations.map((s) => key(tileOf(s))));
      expect(occupied.size).toBe(6);
      expect(new Set(held('B7').keys())).toEqual(occupied);
      expect(new Set(held('EV').keys())).toEqual(occupied);
      expect([...held('B7').values()].reduce((n, count) => n + count, 0)).toBe(corner.length + 1);
      expect(held('B7').get(key(tileOf(alone)))).toBe(1);
      expect(held('B7').get(key(tileOf(charger)))).toBe(0);
      expect([...held('EV')].filter(([, count]) => count > 0)).toEqual([[key(tileOf(charger)), 1]]);
      // Short copies are kept as text, longer ones deflated: both are read below.
      expect(typeof copies.find(([fuel, tile]) => fuel === 'B7' && tile === key(tileOf(alone)))?.[2]).toBe(
        'string',
      );
      expect(copies.filter(([, , rows]) => Buffer.isBuffer(rows)).length).toBeGreaterThan(0);
      expect(await read()).toEqual(live);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('copies no zoom-14 tile holding fewer stations than the set number', async () => {
    const file = path.join(dir, 'fuel.db');
    const store = openSqliteStore(file, { streetCopyFrom: 1000 });
    const other = new Database(file, { readonly: true });
    try {
      const stations = Array.from({ length: 40 }, (_, n) => stationAt(n));
      await store.upsertStations(stations);
      await store.replacePrices('miteco', 'ES', b7(stations));
      await store.refreshStationClusters();
      expect(other.prepare('SELECT count(*) FROM station_street_copies').pluck().get()).toBe(0);
    } finally {
      other.close();
      await store.close();
    }
  });
});
