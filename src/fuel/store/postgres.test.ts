import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import { parseFeatureTexts } from '../testing/json';
import { openPostgresStore } from './postgres';
import type { FuelStore } from './store';

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
