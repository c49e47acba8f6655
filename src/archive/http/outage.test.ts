/**
 * A PostgreSQL outage under the viewer: a signed-in caller gets 503 `Database temporarily unavailable`
 * with `Retry-After` while the database cannot be reached (not a 500), and everything
 * answers again once it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { TEST_POSTGRES_ADMIN_URL } from '../../common/testing/postgres';
import { startTcpProxy, type TcpProxy } from '../../common/testing/tcp-proxy';
import { seedFixtures } from '../demo/dataset';
import { migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import { createTestDatabase, type TestDatabase } from '../store/testing/databases';
import { call, login, MASTER, PASSWORD_ENV, startViewerOn, type TestViewer } from './test-viewer';

describe('the viewer on PostgreSQL through an outage', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let viewer: TestViewer;
  beforeAll(async () => {
    database = await createTestDatabase('postgresql', { migrated: true });
    const seeding = await openArchiveStore(database.config, silentLogger());
    await migrateOpenStore(seeding);
    await seedFixtures(seeding);
    await seeding.close();
    const admin = new URL(TEST_POSTGRES_ADMIN_URL);
    proxy = await startTcpProxy(admin.hostname, Number(admin.port || 5432));
    const url = database.config.backend === 'postgresql' ? database.config.url : '';
    viewer = await startViewerOn({ ...database.config, url: proxy.through(url) } as never, PASSWORD_ENV, {
      sessionCacheMs: 0,
    });
  });
  afterAll(async () => {
    await viewer?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After while the database is away, and 200 once it is back', async () => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    expect((await call(viewer.url, '/api/chats', { cookie })).status).toBe(200);
    await proxy.cut();
    for (const route of ['/api/chats', '/api/stats']) {
      const res = await fetch(`${viewer.url}${route}`, { headers: { cookie: `viewer_auth=${cookie}` } });
      expect(res.status, route).toBe(503);
      expect(res.headers.get('retry-after'), route).toBe('5');
      expect(await res.json()).toEqual({ detail: 'Database temporarily unavailable' });
    }
    await proxy.restore();
    expect((await call(viewer.url, '/api/chats', { cookie })).status).toBe(200);
  });
});
