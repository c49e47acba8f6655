import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratePostgres, migrateSqlite, readMigrations } from '../../common/migrations';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import { type StationFeature, stationFeature } from '../domain/features';
import { parseFeatureTexts } from '../testing/json';
import { stationRows } from '../testing/stores';
import { openPostgresStore } from './postgres';
import { sampleKey } from './sample-key';
import { openSqliteDatabase, openSqliteStore } from './sqlite';

const features = (texts: { runs: Iterable<string> }): StationFeature[] => parseFeatureTexts(texts);

const POSTGRES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'postgres');
const SQLITE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'sqlite');

describe('fuel migrations 003 and 006 on PostgreSQL (station ids in sample-key order, Feature heads stored)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_migrate');
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
  });

  it('gives every station an id that begins with its sample key, keeping its prices, fields and cascade', async () => {
    const before = readMigrations(POSTGRES).filter((m) => m.version <= 2);
    await migratePostgres(pool, before, 'specyard_fuel_migrations');
    const rows: [string, string, string | null][] = [
      ['a-1', 'Estación "Sur"\\1', 'REPSOL'],
      ['a-2', 'Gasolinera ⛽', null],
      ['a-3', 'Área\nNorte', 'BP'],
    ];
    for (const [externalId, name, brand] of rows) {
      const { rows: inserted } = await pool.query<{ id: string }>(
        `INSERT INTO stations (external_id, country, station_type, name, brand, address, city, geom, source,
           sample_key)
         VALUES ($1, 'ES', 'fuel', $2, $3, 'Calle 1', 'Madrid', ST_SetSRID(ST_MakePoint(-3.7, 40.4), 4326),
           'miteco', $4)
         RETURNING id`,
        [externalId, name, brand, sampleKey('ES', externalId)],
      );
      const stationId = inserted[0]?.id;
      await pool.query(
        `INSERT INTO prices (station_id, fuel, price, currency, reported_at, source)
         VALUES ($1, 'B7', 1.4, 'EUR', '2026-05-01T06:00:00Z', 'miteco'),
                ($1, 'B7', 1.5, 'EUR', '2026-05-02T06:00:00Z', 'miteco'),
                ($1, 'E5', 1.6, 'EUR', '2026-05-02T06:00:00Z', 'miteco')`,
        [stationId],
      );
    }
    const before3 = new Map(
      (
        await pool.query<{ id: string; external_id: string }>('SELECT id, external_id FROM stations')
      ).rows.map((r) => [r.external_id, r.id]),
    );

    // The id keeps its random part; its first 32 bits become the sample key, and it says version 8.
    const ids = new Map(
      [...before3].map(([externalId, id]) => [
        externalId,
        `${sampleKey('ES', externalId).toString(16).padStart(8, '0')}${id.slice(8, 14)}8${id.slice(15)}`,
      ]),
    );

    const store = await openPostgresStore(db.url, { maxConnections: 2 });
    try {
      const box = await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 });
      const read = features(box);
      expect(read.map((f) => f.properties.externalId)).toEqual(
        rows.map(([id]) => id).sort((a, b) => sampleKey('ES', a) - sampleKey('ES', b)),
      );
      for (const [externalId, name, brand] of rows) {
        const found = read.find((f) => f.properties.externalId === externalId);
        expect(found?.properties).toMatchObject({ id: ids.get(externalId), name, brand, price: 1.5 });
        // Migration 006 wrote the stored stations' Feature heads, coordinates included.
        expect(found?.geometry).toEqual({ type: 'Point', coordinates: [-3.7, 40.4] });
      }
      // Deleting a station still takes its prices with it.
      expect(await store.deleteStationsBySource('miteco', 'ES', { exceptExternalIds: ['a-1', 'a-3'] })).toBe(
        1,
      );
      const { rows: left } = await pool.query<{ id: string }>('SELECT DISTINCT station_id AS id FROM prices');
      expect(left.map((r) => r.id).sort()).toEqual([ids.get('a-1'), ids.get('a-3')].sort());
      // A station written after the migration carries the fields the map reads.
      await store.upsertStations([
        {
          externalId: 'a-1',
          country: 'ES',
          type: 'fuel',
          name: 'Renamed',
          brand: null,
          address: 'Calle 2',
          city: 'Madrid',
          lon: -3.7,
          lat: 40.4,
          source: 'miteco',
        },
        {
          externalId: 'a-4',
          country: 'ES',
          type: 'fuel',
          name: 'New',
          brand: null,
          address: 'Calle 4',
          city: 'Madrid',
          lon: -3.7,
          lat: 40.4,
          source: 'miteco',
        },
      ]);
      const { rows: added } = await pool.query<{ id: string; feature_head: string }>(
        "SELECT id, feature_head FROM stations WHERE external_id = 'a-4'",
      );
      const prefix = sampleKey('ES', 'a-4').toString(16).padStart(8, '0');
      expect(added[0]?.id).toMatch(
        new RegExp(`^${prefix}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
      );
      expect(JSON.parse(`${added[0]?.feature_head}}}`)).toEqual({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [-3.7, 40.4] },
        properties: {
          id: added[0]?.id,
          externalId: 'a-4',
          country: 'ES',
          name: 'New',
          brand: null,
          address: 'Calle 4',
          city: 'Madrid',
        },
      });
      const after = await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'E5', limit: 10 });
      const renamed = features(after).find((f) => f.properties.externalId === 'a-1');
      expect(renamed?.properties).toMatchObject({
        id: ids.get('a-1'),
        name: 'Renamed',
        brand: null,
        price: 1.6,
      });
    } finally {
      await store.close();
    }
  });
});

describe('fuel migrations 004 and 005 on PostgreSQL (the newest price from the price index, the stations version)', () => {
  const station = (externalId: string, name: string) => ({
    externalId,
    country: 'ES',
    type: 'fuel' as const,
    name,
    brand: null,
    address: 'Calle 1',
    city: 'Madrid',
    lon: -3.7,
    lat: 40.4,
    source: 'miteco',
  });
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase('specyard_fuel_migrate');
  });
  afterEach(async () => {
    await db.drop();
  });

  it('carries price and currency in the price index, and reads the newest price from it alone', async () => {
    const store = await openPostgresStore(db.url);
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await store.upsertStations([station('a', 'A')]);
      await store.replacePrices('miteco', 'ES', [
        {
          externalId: 'a',
          country: 'ES',
          fuel: 'B7',
          price: 1.4,
          currency: 'EUR',
          reportedAt: new Date(1e12),
        },
        {
          externalId: 'a',
          country: 'ES',
          fuel: 'B7',
          price: 1.5,
          currency: 'EUR',
          reportedAt: new Date(2e12),
        },
      ]);
      const { rows } = await pool.query<{ def: string }>(
        "SELECT pg_get_indexdef('prices_latest_idx'::regclass) AS def",
      );
      expect(rows[0]?.def).toMatch(
        /\(station_id, fuel, reported_at DESC, id DESC\) INCLUDE \(price, currency\)/,
      );
      await pool.query('VACUUM prices');
      const client = await pool.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT q.price, q.currency, q.reported_at FROM prices q
           WHERE q.station_id = (SELECT id FROM stations LIMIT 1) AND q.fuel = 'B7'
           ORDER BY q.reported_at DESC, q.id DESC LIMIT 1`,
        );
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(
          'Index Only Scan using prices_latest_idx',
        );
      } finally {
        client.release();
      }
      const near = await store.nearestStations({ lon: -3.7, lat: 40.4, radiusKm: 1, fuel: 'B7', limit: 1 });
      expect(near.map((s) => s.price)).toEqual([1.5]);
    } finally {
      await pool.end();
      await store.close();
    }
  });

  it('moves stations_version when a statement adds, changes or deletes stations, and only then', async () => {
    const store = await openPostgresStore(db.url);
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    const version = async () =>
      Number((await pool.query<{ v: string }>('SELECT version AS v FROM stations_version')).rows[0]?.v);
    try {
      const start = await version();
      await store.upsertStations([station('a', 'A'), station('b', 'B')]);
      const added = await version();
      expect(added).toBeGreaterThan(start);
      // The same batch again changes no row.
      await store.upsertStations([station('a', 'A'), station('b', 'B')]);
      expect(await version()).toBe(added);
      await store.upsertStations([station('a', 'A'), station('b', 'B renamed')]);
      const changed = await version();
      expect(changed).toBeGreaterThan(added);
      await pool.query("DELETE FROM stations WHERE external_id = 'nothing'");
      expect(await version()).toBe(changed);
      await store.deleteStationsBySource('miteco', 'ES');
      const deleted = await version();
      expect(deleted).toBeGreaterThan(changed);
      await pool.query('TRUNCATE stations CASCADE');
      expect(await version()).toBeGreaterThan(deleted);
    } finally {
      await pool.end();
      await store.close();
    }
  });
});

describe('fuel migrations 004 and 005 on SQLite (Feature texts stored with the rows, stations in sample-key order)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fuel-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the texts of the stations and prices already stored, as the store writes new ones', async () => {
    const file = path.join(dir, 'fuel.db');
    const db = openSqliteDatabase(file);
    migrateSqlite(
      db,
      readMigrations(SQLITE).filter((m) => m.version <= 3),
    );
    const stations: [string, string, string | null, number, number, string | null][] = [
      ['a-1', 'Estación "Sur"\\1', 'REPSOL', -3.7001, 40.4001, null],
      ['a-2', 'Gasolinera ⛽\nNorte', null, -3.6989999999999994, 40.41000000000001, null],
      ['a-3', 'Punto de carga', 'Iberdrola', -3.71, 40.39, 'ev_charger'],
    ];
    for (const [externalId, name, brand, lon, lat, type] of stations) {
      const { lastInsertRowid: seq } = db
        .prepare(
          `INSERT INTO stations (id, external_id, country, station_type, name, brand, address, city, lon, lat,
             power_kw, source, sample_key, created_at, updated_at)
           VALUES (?, ?, 'ES', ?, ?, ?, 'Calle 1', 'Madrid', ?, ?, ?, 'miteco', ?, 0, 0)`,
        )
        .run(
          randomUUID(),
          externalId,
          type ?? 'fuel',
          name,
          brand,
          lon,
          lat,
          type ? 22.5 : null,
          sampleKey('ES', externalId),
        );
      if (type) continue;
      const insert = db.prepare(
        `INSERT INTO prices (station_seq, fuel, price, currency, reported_at, source)
         VALUES (?, ?, ?, 'EUR', ?, 'miteco')`,
      );
      insert.run(seq, 'B7', 1.4, Date.UTC(2026, 4, 1, 6));
      insert.run(seq, 'B7', 1.459 + Number(seq) / 997, Date.UTC(2026, 4, 2, 6, 0, 0, 123));
      db.prepare(
        `INSERT INTO latest_prices (station_seq, fuel, price, currency, reported_at)
         SELECT station_seq, fuel, price, currency, reported_at FROM prices
         WHERE station_seq = ? ORDER BY reported_at DESC LIMIT 1`,
      ).run(seq);
    }
    db.close();

    const store = openSqliteStore(file);
    // Migration 005: each station's number is its sample key's place, and every table keyed by it followed.
    const migrated = openSqliteDatabase(file);
    try {
      const numbers = migrated
        .prepare('SELECT external_id, seq, sample_key FROM stations ORDER BY external_id')
        .raw()
        .all() as [string, number, number][];
      expect(numbers.map(([externalId, seq, key]) => [externalId, seq - key * 8192])).toEqual([
        ['a-1', 0],
        ['a-2', 0],
        ['a-3', 0],
      ]);
      expect(migrated.prepare('SELECT count(*) FROM pragma_foreign_key_check').pluck().get()).toBe(0);
      expect(
        migrated
          .prepare(
            `SELECT count(*) FROM stations s JOIN stations_rtree r ON r.seq = s.seq
             WHERE r.min_lon <= s.lon + 1e-5 AND r.max_lon >= s.lon - 1e-5`,
          )
          .pluck()
          .get(),
      ).toBe(3);
      expect(migrated.prepare('SELECT count(*) FROM stations_rtree').pluck().get()).toBe(3);
      expect(
        migrated
          .prepare('SELECT count(*) FROM prices p JOIN stations s ON s.seq = p.station_seq')
          .pluck()
          .get(),
      ).toBe(4);
    } finally {
      migrated.close();
    }
    try {
      const line: [number, number][] = [
        [-3.72, 40.4],
        [-3.69, 40.405],
      ];
      for (const fuel of ['B7', 'EV'] as const) {
        const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel, limit: 10 };
        const objects = (await stationRows(store).stationsInBox(query)).stations.map((row) =>
          stationFeature(row, fuel),
        );
        expect(objects).toHaveLength(fuel === 'B7' ? 2 : 1);
        expect(features(await store.stationFeaturesInBox(query))).toEqual(objects);
        const along = { line, fuel, corridorKm: 5, limit: 10 };
        expect(features(await store.stationFeaturesAlongLine(along))).toEqual(
          (await stationRows(store).stationsAlongLine(along)).stations.map((row) =>
            stationFeature(row, fuel, { routeFraction: row.routeFraction }),
          ),
        );
      }
      // A station and a price written after the migration read the same way.
      await store.upsertStations([
        {
          externalId: 'a-2',
          country: 'ES',
          type: 'fuel',
          name: 'Renamed',
          brand: 'BP',
          address: 'Calle 2',
          city: 'Toledo',
          lon: -3.7,
          lat: 40.4,
          source: 'miteco',
        },
      ]);
      await store.replacePrices('miteco', 'ES', [
        { externalId: 'a-2', country: 'ES', fuel: 'B7', price: 1.7, currency: 'EUR' },
      ]);
      const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel: 'B7', limit: 10 };
      const after = features(await store.stationFeaturesInBox(query));
      expect(after).toEqual(
        (await stationRows(store).stationsInBox(query)).stations.map((row) => stationFeature(row, 'B7')),
      );
      expect(after.map((f) => [f.properties.name, f.properties.price])).toEqual([['Renamed', 1.7]]);
      const near = await store.nearestStations({ lon: -3.7, lat: 40.4, radiusKm: 2, fuel: 'B7', limit: 5 });
      expect(near.map((s) => [s.externalId, s.price])).toEqual([['a-2', 1.7]]);
      // A station's prices still go with it.
      await store.deleteStationsBySource('miteco', 'ES');
      expect((await store.stats()).countries).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
