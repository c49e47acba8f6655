/** Every row of the seed's session-lifecycle table, through the HTTP API, on a real store. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  sessionCookieOf,
  startTestViewer,
  startViewerOn,
  type TestViewer,
  tokenLogin,
} from './test-viewer';

const ENV = { ...PASSWORD_ENV, TRUST_PROXY_HEADERS: 'true' };
let address = 0;
/** A fresh client address per login, so the login rate limit stays out of these tests. */
const from = () => ({ 'x-forwarded-for': `203.0.113.${(address++ % 250) + 1}` });

async function alive(base: string, cookie: string): Promise<boolean> {
  const res = await call(base, '/api/accounts', { cookie });
  if (res.status !== 200 && res.status !== 401) throw new Error(`unexpected ${res.status}`);
  return res.status === 200;
}

describe('session lifecycle', () => {
  let clock = Date.parse('2026-03-14T10:00:00Z');
  let viewer: TestViewer;
  let master: string;
  const admin = (path: string, body?: unknown, method = 'POST', cookie = master) =>
    call(viewer.url, path, { cookie, ...(body !== undefined && { body }), method });

  beforeAll(async () => {
    viewer = await startTestViewer(ENV, { now: () => clock });
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
  });
  afterAll(() => viewer.close());

  async function newViewer(username: string, extra: Record<string, unknown> = {}) {
    const res = await admin('/api/admin/viewers', { username, password: `${username}-password`, ...extra });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const viewerLogin = (username: string) => login(viewer.url, username, `${username}-password`, from());

  it('a login sets the viewer_auth cookie with the seed attributes', async () => {
    const res = await call(viewer.url, '/api/login', { body: MASTER, headers: from() });
    const line = res.headers.getSetCookie().find((l) => l.startsWith('viewer_auth='));
    expect(line).toMatch(/^viewer_auth=[A-Za-z0-9_-]{43}; /);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=2592000/);
    expect(line).not.toMatch(/Secure/);
    const https = await call(viewer.url, '/api/login', {
      body: MASTER,
      headers: { ...from(), 'x-forwarded-proto': 'https' },
    });
    expect(https.headers.getSetCookie().join()).toMatch(/; Secure/);
  });

  it('SECURE_COOKIES decides Secure when set', async () => {
    for (const [value, proto, secure] of [
      ['true', 'http', true],
      ['false', 'https', false],
    ] as const) {
      const other = await startTestViewer({ ...PASSWORD_ENV, SECURE_COOKIES: value }, { seed: false });
      try {
        const res = await call(other.url, '/api/login', {
          body: MASTER,
          headers: { 'x-forwarded-proto': proto },
        });
        expect(res.headers.getSetCookie().join().includes('Secure'), value).toBe(secure);
      } finally {
        await other.close();
      }
    }
  });

  it('the 11th login of a user ends the oldest session', async () => {
    await newViewer('eleven');
    const cookies: string[] = [];
    for (let i = 0; i < 11; i++) {
      clock += 1000;
      cookies.push(await viewerLogin('eleven'));
    }
    expect(await alive(viewer.url, cookies[0] ?? '')).toBe(false);
    for (const cookie of cookies.slice(1)) expect(await alive(viewer.url, cookie)).toBe(true);
  });

  it('logout ends the session, clears the cookie, and always answers success', async () => {
    await newViewer('leaver');
    const cookie = await viewerLogin('leaver');
    const other = await viewerLogin('leaver');
    const res = await call(viewer.url, '/api/logout', { cookie, method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(sessionCookieOf(res.headers)).toBe('');
    expect(res.headers.get('clear-site-data')).toBe('"cache"');
    expect(await alive(viewer.url, cookie)).toBe(false);
    expect(await alive(viewer.url, other)).toBe(true);
    const again = await call(viewer.url, '/api/logout', { cookie, method: 'POST' });
    expect(again.body).toEqual({ success: true });
    const none = await call(viewer.url, '/api/logout', { method: 'POST' });
    expect(none.status).toBe(200);
    expect(none.headers.get('clear-site-data')).toBeNull();
  });

  it('any change to a viewer account ends every session of that account, and only those', async () => {
    const id = await newViewer('changed');
    await newViewer('bystander');
    const a = await viewerLogin('changed');
    const b = await viewerLogin('changed');
    const c = await viewerLogin('bystander');
    const res = await admin(`/api/admin/viewers/${id}`, { no_download: true }, 'PUT');
    expect(res.status).toBe(200);
    expect(res.body.no_download).toBe(true);
    expect(await alive(viewer.url, a)).toBe(false);
    expect(await alive(viewer.url, b)).toBe(false);
    expect(await alive(viewer.url, c)).toBe(true);
    // The same values again change nothing: 200, and a new session of the account lives on.
    const d = await viewerLogin('changed');
    const same = await admin(`/api/admin/viewers/${id}`, { no_download: true }, 'PUT');
    expect(same).toMatchObject({ status: 200, body: { no_download: true } });
    expect(await alive(viewer.url, d)).toBe(true);
  });

  it('deleting a viewer account ends its sessions and removes it', async () => {
    const id = await newViewer('removed');
    const cookie = await viewerLogin('removed');
    expect((await admin(`/api/admin/viewers/${id}`, undefined, 'DELETE')).body).toEqual({ success: true });
    expect(await alive(viewer.url, cookie)).toBe(false);
    const relogin = await call(viewer.url, '/api/login', {
      body: { username: 'removed', password: 'removed-password' },
      headers: from(),
    });
    expect(relogin.status).toBe(401);
    expect((await admin(`/api/admin/viewers/${id}`, undefined, 'DELETE')).status).toBe(404);
  });

  it('a token change of scope, revocation or downloads ends its sessions; a label change does not', async () => {
    const created = await admin('/api/admin/tokens', { label: 'kin', allowed_chat_refs: [FIXTURE.anna.ref] });
    const { id, token } = created.body;
    const first = await tokenLogin(viewer.url, token, from());
    expect((await admin(`/api/admin/tokens/${id}`, { label: 'relatives' }, 'PUT')).status).toBe(200);
    expect(await alive(viewer.url, first)).toBe(true);
    for (const patch of [
      { allowed_chat_refs: [FIXTURE.anna.ref, FIXTURE.family.ref] },
      { no_download: true },
      { is_revoked: true },
    ]) {
      const cookie = patch.is_revoked ? first : await tokenLogin(viewer.url, token, from());
      const res = await admin(`/api/admin/tokens/${id}`, patch, 'PUT');
      expect(res.status).toBe(200);
      expect(await alive(viewer.url, cookie)).toBe(false);
    }
    const revoked = await call(viewer.url, '/auth/token', { body: { token }, headers: from() });
    expect(revoked).toMatchObject({ status: 401, body: { detail: 'Invalid or expired token' } });
  });

  it('deleting a token ends its sessions', async () => {
    const { id, token } = (await admin('/api/admin/tokens', { allowed_chat_refs: [FIXTURE.anna.ref] })).body;
    const cookie = await tokenLogin(viewer.url, token, from());
    expect((await admin(`/api/admin/tokens/${id}`, undefined, 'DELETE')).body).toEqual({ success: true });
    expect(await alive(viewer.url, cookie)).toBe(false);
  });

  it('token expiry blocks new logins only', async () => {
    const expires = new Date(clock + 3_600_000).toISOString().replace('.000Z', '');
    const { token } = (
      await admin('/api/admin/tokens', { allowed_chat_refs: [FIXTURE.anna.ref], expires_at: expires })
    ).body;
    const cookie = await tokenLogin(viewer.url, token, from());
    clock += 2 * 3_600_000;
    expect(await alive(viewer.url, cookie)).toBe(true);
    const late = await call(viewer.url, '/auth/token', { body: { token }, headers: from() });
    expect(late).toMatchObject({ status: 401, body: { detail: 'Invalid or expired token' } });
  });

  it('a session ends after AUTH_SESSION_DAYS', async () => {
    await newViewer('aging');
    const cookie = await viewerLogin('aging');
    clock += 29 * 86_400_000;
    expect(await alive(viewer.url, cookie)).toBe(true);
    clock += 86_400_000 + 1000;
    expect(await alive(viewer.url, cookie)).toBe(false);
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
    // The next login removed the rows of the sessions past their expiry: none is left to purge.
    expect(await viewer.db.purgeExpiredSessions(new Date(clock))).toEqual([]);
  });

  describe('end-all', () => {
    let second: string;
    let own: string;
    afterEach(async () => {
      master = await login(viewer.url, MASTER.username, MASTER.password, from());
    });

    it('ends every session, the caller included, and clears its cookie', async () => {
      await newViewer('everyone').catch(() => undefined);
      second = await viewerLogin('everyone');
      own = await login(viewer.url, MASTER.username, MASTER.password, from());
      const res = await call(viewer.url, '/api/admin/sessions/end-all', { cookie: own, method: 'POST' });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.current_session_ended).toBe(true);
      expect(res.body.ended).toBeGreaterThanOrEqual(3);
      expect(sessionCookieOf(res.headers)).toBe('');
      expect(await alive(viewer.url, own)).toBe(false);
      expect(await alive(viewer.url, master)).toBe(false);
      expect(await alive(viewer.url, second)).toBe(false);
    });

    it.each([
      ['the query string', '?keep_current=true', undefined],
      ['the JSON body', '', { keep_current: true }],
    ])('keeps the caller with keep_current in %s', async (_where, qs, body) => {
      second = await viewerLogin('everyone');
      own = await login(viewer.url, MASTER.username, MASTER.password, from());
      const res = await call(viewer.url, `/api/admin/sessions/end-all${qs}`, {
        cookie: own,
        method: 'POST',
        ...(body && { body }),
      });
      expect(res.body).toMatchObject({ success: true, current_session_ended: false });
      expect(res.body.ended).toBeGreaterThanOrEqual(1);
      expect(sessionCookieOf(res.headers)).toBeUndefined();
      expect(await alive(viewer.url, own)).toBe(true);
      expect(await alive(viewer.url, second)).toBe(false);
    });
  });

  it('writes every administrative action to the audit log', async () => {
    const res = await admin('/api/admin/audit?limit=500', undefined, 'GET');
    const actions = (res.body.logs as { action: string }[]).map((l) => l.action.split(':')[0]);
    for (const action of [
      'viewer_created',
      'viewer_updated',
      'viewer_deleted',
      'token_created',
      'token_updated',
      'token_deleted',
      'sessions_ended_all',
    ]) {
      expect(actions).toContain(action);
    }
    const filtered = await admin('/api/admin/audit?action=viewer_created:eleven', undefined, 'GET');
    expect(filtered.body.logs).toHaveLength(1);
    expect(filtered.body.logs[0]).toMatchObject({
      username: 'admin',
      role: 'master',
      endpoint: '/api/admin/viewers',
    });
  });
});

describe('sessions across viewers on one database', () => {
  let first: TestViewer;
  let clock = Date.parse('2026-03-14T10:00:00Z');
  beforeAll(async () => {
    first = await startTestViewer(PASSWORD_ENV);
  });
  afterAll(() => first.close());

  it('survive a restart, and a new VIEWER_PASSWORD ends none of them', async () => {
    const cookie = await login(first.url, MASTER.username, MASTER.password);
    const restarted = await startViewerOn(first.database, {
      ...PASSWORD_ENV,
      VIEWER_PASSWORD: 'a-new-password',
    });
    try {
      expect(await alive(restarted.url, cookie)).toBe(true);
      const old = await call(restarted.url, '/api/login', { body: MASTER });
      expect(old.status).toBe(401);
    } finally {
      await restarted.close();
    }
  });

  it('a second viewer drops a session ended elsewhere within 60 seconds', async () => {
    const second = await startViewerOn(first.database, PASSWORD_ENV, { now: () => clock });
    try {
      const cookie = await login(first.url, MASTER.username, MASTER.password);
      expect(await alive(second.url, cookie)).toBe(true);
      await call(first.url, '/api/logout', { cookie, method: 'POST' });
      expect(await alive(first.url, cookie)).toBe(false);
      clock += 60_000;
      expect(await alive(second.url, cookie)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
