/**
 * A PostgreSQL outage under the fuel API: while the database cannot be reached, every route that reads it
 * answers 503 `Database temporarily unavailable` with `Retry-After` (a load balancer can tell it from a
 * bug, which stays 500), the configuration still answers, and all answer again once the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  TEST_POSTGRES_ADMIN_URL,
  type TestDatabase,
} from '../../common/testing/postgres';
import { startTcpProxy, type TcpProxy } from '../../common/testing/tcp-proxy';
import { demoDataset, seedDemo } from '../demo/dataset';
import { openPostgresStore } from '../store/postgres';
import type { FuelStore } from '../store/store';
import { startTestFuel, type TestFuel } from '../testing/server';
import { MIGRATED_FUEL } from '../testing/stores';

describe('fuel on PostgreSQL through an outage', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let store: FuelStore;
  let fuel: TestFuel;
  beforeAll(async () => {
    db = await createTestDatabase('specyard_fuel', MIGRATED_FUEL);
    const admin = new URL(TEST_POSTGRES_ADMIN_URL);
    proxy = await startTcpProxy(admin.hostname, Number(admin.port || 5432));
    store = await openPostgresStore(proxy.through(db.url), { maxConnections: 2 });
    await seedDemo(store, demoDataset());
    fuel = await startTestFuel({ store });
  });
  afterAll(async () => {
    await fuel?.close();
    await store?.close();
    await proxy?.close();
    await db?.drop();
  });

  const routes = [
    '/api/stats',
    '/api/stats/daily?country=ES&fuel=B7',
    '/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=B7',
    '/api/stations/nearest?lat=40.4&lon=-3.7&radius_km=5&fuel=B7',
  ];

  it('answers 503 with Retry-After while the database is away, and 200 once it is back', async () => {
    for (const route of routes) expect((await fetch(`${fuel.url}${route}`)).status, route).toBe(200);
    await proxy.cut();
    for (const route of routes) {
      const res = await fetch(`${fuel.url}${route}`);
      expect(res.status, route).toBe(503);
      expect(res.headers.get('retry-after'), route).toBe('5');
      expect(await res.json()).toEqual({ error: 'Database temporarily unavailable' });
    }
    expect((await fetch(`${fuel.url}/api/config`)).status).toBe(200);
    await proxy.restore();
    for (const route of routes) expect((await fetch(`${fuel.url}${route}`)).status, route).toBe(200);
  });
});
