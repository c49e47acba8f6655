// The store suite (store.cases.ts) on PostgreSQL + PostGIS (a copy of a migrated template database per case), then what only this backend does.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../common/seeded-random';
import { createTestDatabase, type TestDatabase } from '../../../common/testing/postgres';
import { placeKey } from '../../model/tiles';
import { parseFeatureTexts } from '../../testing/json';
import { stationRows, TEST_BACKENDS, TEST_SHARED_BACKENDS } from '../../testing/stores';
import { decodeTile } from '../../testing/tiles';
import type { FuelStore } from '../store';
import { fuelStoreCases } from '../store.cases';
import { openPostgresStore, readAhead } from '.';
import { inUnits } from './tiles';

fuelStoreCases('postgresql', { open: TEST_BACKENDS.postgresql, openShared: TEST_SHARED_BACKENDS.postgresql });

describe('the PostgreSQL store reading a box row by row', () => {
  let db: TestDatabase;
  let store: FuelStore;
  let admin: pg.Client;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_rows');
    // One connection: a read that kept it after failing would leave the next one waiting for ever.
    store = await openPostgresStore(db.url, { maxConnections: 1 });
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterEach(async () => {
    await admin.end();
    await store.close();
    await db.drop();
  });

  it('gives its connection back when the read fails, and the next read answers', async () => {
    await store.upsertStations([
      {
        externalId: 'a-1',
        country: 'ES',
        type: 'fuel',
        name: 'Sur',
        brand: null,
        address: 'Calle 1',
        city: 'Madrid',
        lon: -3.7,
        lat: 40.4,
        source: 'miteco',
      },
    ]);
    await store.replacePrices('miteco', 'ES', [
      { externalId: 'a-1', country: 'ES', fuel: 'B7', price: 1.5, currency: 'EUR' },
    ]);
    const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel: 'B7', limit: 10 };
    await admin.query('ALTER TABLE stations RENAME COLUMN feature_head TO head_elsewhere');
    await expect(store.stationFeaturesInBox(query)).rejects.toThrow(/feature_head/);
    await admin.query('ALTER TABLE stations RENAME COLUMN head_elsewhere TO feature_head');
    const texts = await store.stationFeaturesInBox(query);
    expect(parseFeatureTexts(texts).map((f) => f.properties.externalId)).toEqual(['a-1']);
    expect(texts).toMatchObject({ count: 1, truncated: false });
  });
});

describe('the PostgreSQL store on a database that writes floats with fewer digits', () => {
  let db: TestDatabase;
  let store: FuelStore;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_digits');
    // What an older setup may keep: 15 significant digits for every float8 written as text.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${new URL(db.url).pathname.slice(1)} SET extra_float_digits = 0`);
    await admin.end();
    store = await openPostgresStore(db.url);
  });
  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it('gives back coordinates, prices and power exactly as stored', async () => {
    const station = {
      country: 'ES',
      type: 'both' as const,
      name: 'Sur',
      brand: null,
      address: 'Calle 1',
      city: 'Madrid',
      lon: -3.703812345678901,
      lat: 40.41681234567891,
      powerKw: 22.123456789012344,
      source: 'miteco',
    };
    await store.upsertStations([{ ...station, externalId: 'a-1' }]);
    const price = 1.2345678901234567;
    await store.replacePrices('miteco', 'ES', [
      { externalId: 'a-1', country: 'ES', fuel: 'B7', price, currency: 'EUR' },
    ]);
    const bbox: [number, number, number, number] = [-4, 40, -3, 41];
    const exact = { coordinates: [station.lon, station.lat], price };
    const [feature] = parseFeatureTexts(await store.stationFeaturesInBox({ bbox, fuel: 'B7', limit: 10 }));
    expect({ coordinates: feature?.geometry.coordinates, price: feature?.properties.price }).toEqual(exact);
    const [along] = parseFeatureTexts(
      await store.stationFeaturesAlongLine({
        line: [
          [-3.8, 40.4],
          [-3.6, 40.4],
        ],
        fuel: 'B7',
        corridorKm: 5,
        limit: 10,
      }),
    );
    expect({ coordinates: along?.geometry.coordinates, price: along?.properties.price }).toEqual(exact);
    const [charger] = parseFeatureTexts(await store.stationFeaturesInBox({ bbox, fuel: 'EV', limit: 10 }));
    expect(charger?.properties.powerKw).toBe(station.powerKw);
    const [row] = (await stationRows(store).stationsInBox({ bbox, fuel: 'B7', limit: 10 })).stations;
    expect(row).toMatchObject({ lon: station.lon, lat: station.lat, powerKw: station.powerKw, price });
  });
});

describe('the PostgreSQL store’s cluster table', () => {
  let db: TestDatabase;
  let store: FuelStore;
  let admin: pg.Client;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_clusters');
    store = await openPostgresStore(db.url);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterEach(async () => {
    await admin.end();
    await store.close();
    await db.drop();
  });

  it('answers the low zooms from its last build, and shows a write once built again', async () => {
    const at = (n: number) => ({
      externalId: `a-${n}`,
      country: 'ES',
      type: 'fuel' as const,
      name: 'Sur',
      brand: null,
      address: 'Calle 1',
      city: 'Madrid',
      lon: -3.7 + n / 100,
      lat: 40.4,
      source: 'miteco',
    });
    await store.upsertStations([at(0), at(1)]);
    const version = async () =>
      Number((await admin.query('SELECT version FROM map_version')).rows[0].version);
    const before = await version();
    await store.replacePrices('miteco', 'ES', [
      { externalId: 'a-0', country: 'ES', fuel: 'B7', price: 1.5, currency: 'EUR' },
      { externalId: 'a-1', country: 'ES', fuel: 'B7', price: 1.6, currency: 'EUR' },
    ]);
    expect(await version()).toBeGreaterThan(before);
    const count = async () =>
      decodeTile(await store.stationTile({ fuel: 'B7', z: 0, x: 0, y: 0 })).clusters?.[0]?.properties.count;
    expect(await count()).toBe(2);
    expect((await store.refreshStationClusters()).rebuilt).toEqual(['B7', 'EV']);
    // A cell altered behind the store's back shows: the tile came from the table.
    await admin.query("UPDATE station_clusters SET count = 999 WHERE fuel = 'B7' AND z = 0");
    expect(await count()).toBe(999);
    // A statement that changes prices moves the version; the last build answers until the next.
    await admin.query('UPDATE prices SET price = price + 0.001');
    expect(await count()).toBe(999);
    const moved = await version();
    expect(moved).toBeGreaterThan(before + 1);
    expect((await store.refreshStationClusters()).rebuilt).toEqual(['B7', 'EV']);
    expect(await count()).toBe(2);
    // A statement that changes no row leaves the version.
    await admin.query("DELETE FROM prices WHERE fuel = 'none'");
    expect(await version()).toBe(moved);
  });
});

describe('the PostgreSQL store’s cluster table built by two processes at once', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_clusters_twice');
  });
  afterEach(async () => {
    await db.drop();
  });

  it('takes turns: both builds succeed and the table holds one set of cells', async () => {
    const [one, two] = [await openPostgresStore(db.url), await openPostgresStore(db.url)];
    try {
      const stations = Array.from({ length: 50 }, (_, n) => ({
        externalId: `t-${n}`,
        country: 'ES',
        type: 'fuel' as const,
        name: 'Sur',
        brand: null,
        address: 'Calle 1',
        city: 'Madrid',
        lon: -3.7 + n / 50,
        lat: 40.4 + n / 100,
        source: 'miteco',
      }));
      await one.upsertStations(stations);
      await one.replacePrices(
        'miteco',
        'ES',
        stations.map((s, n) => ({
          externalId: s.externalId,
          country: 'ES',
          fuel: 'B7',
          price: 1.5 + n / 1000,
          currency: 'EUR',
        })),
      );
      // Held elsewhere, the builds' lock makes both wait before they write; let go, they take turns.
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      await admin.query("SELECT pg_advisory_lock(hashtext('specyard_fuel_station_clusters'))");
      let settled = false;
      const both = Promise.all([one.refreshStationClusters(), two.refreshStationClusters()]).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled).toBe(false);
      await admin.end();
      const builds = await both;
      expect(builds.flatMap((b) => b.rebuilt).filter((fuel) => fuel === 'B7').length).toBeGreaterThanOrEqual(
        1,
      );
      const world = decodeTile(await one.stationTile({ fuel: 'B7', z: 0, x: 0, y: 0 })).clusters ?? [];
      expect(world.reduce((sum, p) => sum + Number(p.properties.count), 0)).toBe(50);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('the PostgreSQL place key of a price (migration 011)', () => {
  let db: TestDatabase;
  let admin: pg.Client;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_place_key');
    await (await openPostgresStore(db.url)).close();
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterEach(async () => {
    await admin.end();
    await db.drop();
  });

  it('is the model’s key of the units the live tiles compute, at every edge of the world', async () => {
    const next = seededRandom(11);
    const positions: [number, number][] = [
      [-180, -90],
      [180, 90],
      [-180, 85.0511287798066],
      [179.99999999, -85.06],
      [0, 0],
      ...Array.from({ length: 2_000 }, (): [number, number] => [next() * 360 - 180, next() * 180 - 90]),
    ];
    // Tile borders of zoom 22 at the unit: a position whose unit flips between two neighbouring numbers.
    for (let i = 0; i < 200; i++) {
      const x = Math.floor(next() * 2 ** 22);
      positions.push([(x / 2 ** 22) * 360 - 180, next() * 170 - 85]);
    }
    const { rows } = await admin.query<{ ux: number; uy: number; key: string }>(
      `SELECT ux, uy, fuel_place_key(geom)::text AS key FROM (${inUnits(
        `SELECT ST_SetSRID(ST_MakePoint(lon, lat), 4326) AS geom FROM unnest($1::float8[], $2::float8[]) AS v(lon, lat)`,
      )}) u`,
      [positions.map((p) => p[0]), positions.map((p) => p[1])],
    );
    expect(rows).toHaveLength(positions.length);
    for (const row of rows) expect(Number(row.key)).toBe(placeKey(Number(row.ux), Number(row.uy)));
  });
});

describe('the PostgreSQL store’s connections', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_read_ahead');
  });
  afterEach(async () => {
    await db.drop();
  });

  it('ask for the pages of a scattered read ahead before their first query, and keep going where refused', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2, onConnect: readAhead });
    try {
      const settings = await Promise.all(
        [1, 2].map(async () => (await pool.query('SHOW effective_io_concurrency')).rows[0]),
      );
      expect(settings).toEqual([{ effective_io_concurrency: '128' }, { effective_io_concurrency: '128' }]);
    } finally {
      await pool.end();
    }
    // A server without posix_fadvise refuses the setting: the connection goes on with its default.
    const failing = (code: string) =>
      ({
        query: () => Promise.reject(Object.assign(new Error('effective_io_concurrency'), { code })),
      }) as unknown as pg.ClientBase;
    await expect(readAhead(failing('22023'))).resolves.toBeUndefined();
    // Any other failure (a connection lost) fails the connect.
    await expect(readAhead(failing('57P01'))).rejects.toThrow('effective_io_concurrency');
  });
});
