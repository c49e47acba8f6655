/**
 * Medium 4: same-site request forgery. A page on another port of the same host posts with the viewer's
 * cookie (SameSite=Lax lets it through, and body-less posts need no preflight): every state-changing
 * route refuses it with 403 in the archive's error shape, and nothing changes. The viewer's own page,
 * an origin listed in CORS_ORIGINS and a client sending neither header keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../src/archive/http/test-viewer';

const REFUSED = { detail: 'Cross-site request refused: this origin may not act with the viewer login' };
const ALLOWED_ORIGIN = 'https://archive.example.org';

describe('cookie-authenticated writes from another origin', () => {
  let viewer: TestViewer;
  let host: string;
  beforeAll(async () => {
    viewer = await startTestViewer({ ...PASSWORD_ENV, CORS_ORIGINS: ALLOWED_ORIGIN });
    host = new URL(viewer.url).host;
  });
  afterAll(() => viewer.close());

  const sessionWorks = async (cookie: string) =>
    (await call(viewer.url, '/api/auth/check', { cookie })).body?.authenticated === true;

  const foreign: [string, Record<string, string>][] = [
    [
      'a page on another port of this host',
      { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-site' },
    ],
    ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['an opaque origin', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['a browser that sent no Origin', { 'sec-fetch-site': 'same-site' }],
  ];

  it.each(foreign)(
    'refuses end-all, refresh and logout from %s, and nothing happens',
    async (_who, headers) => {
      const cookie = await login(viewer.url, MASTER.username, MASTER.password);
      for (const path of ['/api/admin/sessions/end-all', '/api/stats/refresh', '/api/logout']) {
        const res = await call(viewer.url, path, { cookie, method: 'POST', headers });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: REFUSED });
      }
      const viewerAdded = await call(viewer.url, '/api/admin/viewers', {
        cookie,
        headers,
        body: { username: 'planted', password: 'planted-password' },
      });
      expect(viewerAdded.status).toBe(403);
      expect(await sessionWorks(cookie)).toBe(true);
      const viewers = await call(viewer.url, '/api/admin/viewers', { cookie });
      expect(JSON.stringify(viewers.body)).not.toContain('planted');
    },
  );

  it.each([
    ['the viewer page itself', () => ({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })],
    ['an origin listed in CORS_ORIGINS', () => ({ origin: ALLOWED_ORIGIN, 'sec-fetch-site': 'cross-site' })],
    ['a same-origin browser request without Origin', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['a script (neither header)', () => ({})],
  ])('lets %s act', async (_who, headers) => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const refreshed = await call(viewer.url, '/api/stats/refresh', {
      cookie,
      method: 'POST',
      headers: headers(),
    });
    expect(refreshed.status).toBe(200);
    const out = await call(viewer.url, '/api/logout', { cookie, method: 'POST', headers: headers() });
    expect(out.status).toBe(200);
    expect(await sessionWorks(cookie)).toBe(false);
  });

  it('reads stay open to any origin (the cookie decides, not the origin)', async () => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const res = await call(viewer.url, '/api/chats', {
      cookie,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(200);
  });
});
