import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratePostgres, readMigrations } from '../../common/migrations';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import type { StationFeature } from '../domain/features';
import { openPostgresStore } from './postgres';
import { sampleKey } from './sample-key';

const feature = (text: string): StationFeature => JSON.parse(text) as StationFeature;

const POSTGRES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'postgres');

describe('fuel migration 003 on PostgreSQL (station ids in sample-key order, fields as JSON)', () => {
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
      const features = box.features.map(feature);
      expect(features.map((f) => f.properties.externalId)).toEqual(
        rows.map(([id]) => id).sort((a, b) => sampleKey('ES', a) - sampleKey('ES', b)),
      );
      for (const [externalId, name, brand] of rows) {
        const found = features.find((f) => f.properties.externalId === externalId);
        expect(found?.properties).toMatchObject({ id: ids.get(externalId), name, brand, price: 1.5 });
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
      const { rows: added } = await pool.query<{ id: string; fields_json: string }>(
        "SELECT id, fields_json FROM stations WHERE external_id = 'a-4'",
      );
      const prefix = sampleKey('ES', 'a-4').toString(16).padStart(8, '0');
      expect(added[0]?.id).toMatch(
        new RegExp(`^${prefix}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
      );
      expect(JSON.parse(added[0]?.fields_json ?? '')).toEqual({
        id: added[0]?.id,
        externalId: 'a-4',
        country: 'ES',
        name: 'New',
        brand: null,
        address: 'Calle 4',
        city: 'Madrid',
      });
      const after = await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'E5', limit: 10 });
      const renamed = after.features.map(feature).find((f) => f.properties.externalId === 'a-1');
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

describe('fuel migration 004 on PostgreSQL (the newest price read from the price index)', () => {
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
      await store.upsertStations([
        {
          externalId: 'a',
          country: 'ES',
          type: 'fuel',
          name: 'A',
          brand: null,
          address: 'Calle 1',
          city: 'Madrid',
          lon: -3.7,
          lat: 40.4,
          source: 'miteco',
        },
      ]);
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
});
