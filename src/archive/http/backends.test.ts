/** The HTTP API gives the same answers over SQLite and PostgreSQL on the same fixture archive. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, FIXTURE, login, MASTER, startTestViewer, type TestViewer } from './test-viewer';

const RC = FIXTURE.releaseCrew.ref;
const ROUTES = [
  '/api/accounts',
  '/api/chats?limit=10',
  '/api/chats?search=release',
  `/api/chats/${RC}`,
  '/api/folders',
  '/api/archived/count',
  '/api/stats',
  `/api/chats/${RC}/messages?limit=20`,
  `/api/chats/${RC}/messages?limit=5&before_date=2026-03-13T21:09:02Z&before_id=4171`,
  `/api/chats/${RC}/messages?limit=5&after_id=4140`,
  `/api/chats/${RC}/messages?search=photos`,
  `/api/chats/${RC}/messages/4182/versions`,
  `/api/chats/${RC}/pinned`,
  `/api/chats/${RC}/messages/by-date?date=2026-03-13&timezone=Europe/Stockholm`,
  `/api/chats/${RC}/messages/dates?month=2026-03&timezone=America/New_York`,
  `/api/chats/${FIXTURE.forum.ref}/topics`,
  `/api/chats/${RC}/stats`,
  `/api/chats/${RC}/avatars`,
  '/api/search/messages?q=release%20party',
  '/api/search/messages?q=caf',
  '/api/tags/%23release',
  '/api/tags/$BTC?scope=mine',
  '/api/changes',
  '/api/admin/chats',
];

describe('SQLite and PostgreSQL behind the API', () => {
  const viewers: TestViewer[] = [];
  const cookies: string[] = [];
  beforeAll(async () => {
    viewers.push(
      ...(await Promise.all([startTestViewer(), startTestViewer(undefined, { backend: 'postgresql' })])),
    );
    for (const v of viewers) cookies.push(await login(v.url, MASTER.username, MASTER.password));
  });
  afterAll(async () => {
    await Promise.all(viewers.map((v) => v.close()));
  });

  it.each(ROUTES)('%s', async (route) => {
    const [sqlite, postgres] = await Promise.all(
      viewers.map((v, i) => call(v.url, route, { cookie: cookies[i] })),
    );
    expect(sqlite?.status).toBe(200);
    expect(postgres?.body).toEqual(sqlite?.body);
  });

  it('refuses text holding U+0000 (which PostgreSQL cannot store) alike, naming the field', async () => {
    const requests: [string, { method?: string; body?: unknown }, string][] = [
      [`/api/chats/${RC}/messages?search=ab%00`, {}, 'search'],
      [`/api/chats/${RC}/messages?search=%00`, {}, 'search'],
      ['/api/search/messages?q=%00%00', {}, 'q'],
      ['/api/chats?search=%00', {}, 'search'],
      ['/api/admin/audit?action=%00', {}, 'action'],
      ['/api/login', { body: { username: 'admin\u0000', password: 'x' } }, 'username'],
      ['/api/admin/settings/theme', { method: 'PUT', body: { value: 'dark\u0000' } }, 'value'],
    ];
    for (const [route, init, field] of requests) {
      const [sqlite, postgres] = await Promise.all(
        viewers.map((v, i) => call(v.url, route, { ...init, cookie: cookies[i] })),
      );
      expect({ status: sqlite?.status, body: sqlite?.body }, route).toEqual({
        status: 400,
        body: { detail: `${field}: must not contain the character U+0000` },
      });
      expect(postgres?.status, route).toBe(400);
      expect(postgres?.body, route).toEqual(sqlite?.body);
    }
    // In a path: a chat's ref is checked first (a ref holding it is no chat's), another parameter answers
    // the operation's 400.
    for (const [route, status, detail] of [
      [`/api/chats/${RC}%00/messages`, 404, 'Chat not found'],
      ['/api/chats/%00/stats', 404, 'Chat not found'],
      [`/media/${RC}/4182_photo%00`, 400, 'media_key: must not contain the character U+0000'],
    ] as const) {
      const answers = await Promise.all(viewers.map((v, i) => call(v.url, route, { cookie: cookies[i] })));
      for (const answer of answers) {
        expect([route, answer?.status, answer?.body]).toEqual([route, status, { detail }]);
      }
    }
  });

  it('reports its backend in the status', async () => {
    const [sqlite, postgres] = await Promise.all(
      viewers.map((v, i) => call(v.url, '/api/status', { cookie: cookies[i] })),
    );
    expect(sqlite?.body.database.backend).toBe('sqlite');
    expect(postgres?.body.database.backend).toBe('postgresql');
  });
});
