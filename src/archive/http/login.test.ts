/** The login modes, the share-token login, the login rate limit and the check answer. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  sessionCookieOf,
  startTestViewer,
  type TestViewer,
  tokenLogin,
} from './test-viewer';

let address = 0;
const from = () => ({ 'x-forwarded-for': `192.0.2.${(address++ % 250) + 1}` });

describe('password mode', () => {
  let viewer: TestViewer;
  let master: string;
  beforeAll(async () => {
    viewer = await startTestViewer({ ...PASSWORD_ENV, TRUST_PROXY_HEADERS: 'true' });
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
    const create = (body: Record<string, unknown>) =>
      call(viewer.url, '/api/admin/viewers', { cookie: master, body });
    expect((await create({ username: 'marta', password: 'marta-password' })).status).toBe(201);
    expect(
      (await create({ username: 'sleeper', password: 'sleeper-password', is_active: false })).status,
    ).toBe(201);
  });
  afterAll(() => viewer.close());

  const attempt = (body: unknown, headers: Record<string, string> = {}) =>
    call(viewer.url, '/api/login', { body, headers: { ...from(), ...headers } });

  it('logs in viewer accounts and the master, with their roles', async () => {
    expect((await attempt({ username: 'marta', password: 'marta-password' })).body).toEqual({
      success: true,
      role: 'viewer',
      username: 'marta',
    });
    expect((await attempt(MASTER)).body).toEqual({ success: true, role: 'master', username: 'admin' });
  });

  it('refuses wrong passwords, unknown users and inactive accounts alike', async () => {
    for (const body of [
      { username: 'marta', password: 'wrong-password' },
      { username: 'admin', password: 'wrong-password' },
      { username: 'ghost', password: 'marta-password' },
      { username: 'sleeper', password: 'sleeper-password' },
    ]) {
      const res = await attempt(body);
      expect(res).toMatchObject({ status: 401, body: { detail: 'Invalid credentials' } });
      expect(sessionCookieOf(res.headers)).toBeUndefined();
    }
  });

  it('with X-Viewer-Only refuses the master credentials but not viewer accounts', async () => {
    expect((await attempt(MASTER, { 'x-viewer-only': 'true' })).status).toBe(401);
    expect(
      (await attempt({ username: 'marta', password: 'marta-password' }, { 'x-viewer-only': 'true' })).status,
    ).toBe(200);
    expect((await attempt(MASTER, { 'x-viewer-only': 'no' })).status).toBe(200);
  });

  it('answers 400 for a body that is not JSON or misses a field', async () => {
    const notJson = await call(viewer.url, '/api/login', {
      body: 'username=admin',
      headers: { ...from(), 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.detail).toEqual(expect.any(String));
    const form = await call(viewer.url, '/api/login', {
      body: 'username=admin',
      headers: { ...from(), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect((await attempt({ username: 'admin' })).body).toEqual({ detail: 'Missing field: password' });
  });

  it('tells the login state', async () => {
    const marta = await login(viewer.url, 'marta', 'marta-password', from());
    expect((await call(viewer.url, '/api/auth/check', { cookie: marta })).body).toEqual({
      authenticated: true,
      auth_required: true,
      role: 'viewer',
      username: 'marta',
      no_download: false,
    });
    expect((await call(viewer.url, '/api/auth/check')).body).toEqual({
      authenticated: false,
      auth_required: true,
      role: null,
      username: null,
      no_download: false,
    });
    expect((await call(viewer.url, '/api/auth/check', { cookie: 'made-up' })).body.authenticated).toBe(false);
  });

  it('logs share tokens in with their scope, counts each use and names the session', async () => {
    const admin = (body: unknown) => call(viewer.url, '/api/admin/tokens', { cookie: master, body });
    const labelled = (
      await admin({ label: 'family', allowed_chat_refs: [FIXTURE.anna.ref], no_download: true })
    ).body;
    const bare = (await admin({ allowed_chat_refs: [FIXTURE.releaseCrew.ref] })).body;
    expect(labelled.token).toMatch(/^[0-9a-f]{64}$/);
    const res = await call(viewer.url, '/auth/token', {
      body: { token: labelled.token.toUpperCase() },
      headers: from(),
    });
    expect(res.body).toEqual({
      success: true,
      role: 'token',
      username: 'token:family',
      no_download: true,
      allowed_chat_refs: [FIXTURE.anna.ref],
    });
    const cookie = sessionCookieOf(res.headers) ?? '';
    const chats = await call(viewer.url, '/api/chats', { cookie });
    expect(chats.body.chats.map((c: { ref: string }) => c.ref)).toEqual([FIXTURE.anna.ref]);
    const check = await call(viewer.url, '/api/auth/check', { cookie });
    expect(check.body).toMatchObject({ role: 'token', username: 'token:family', no_download: true });
    await tokenLogin(viewer.url, bare.token, from());
    const listed = (await call(viewer.url, '/api/admin/tokens', { cookie: master })).body.tokens;
    const stats = Object.fromEntries(listed.map((t: { id: number }) => [t.id, t]));
    expect(stats[labelled.id]).toMatchObject({ use_count: 1, last_used_at: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(labelled.token);
    const audit = (await call(viewer.url, '/api/admin/audit', { cookie: master })).body.logs;
    expect(JSON.stringify(audit)).not.toContain(labelled.token);
    const check2 = await call(viewer.url, '/api/auth/check', {
      cookie: await tokenLogin(viewer.url, bare.token, from()),
    });
    expect(check2.body.username).toBe(`token:token:${bare.id}`);
  });

  it('refuses malformed and unknown tokens', async () => {
    for (const token of ['abc', ' '.repeat(3), 'g'.repeat(64), `${'a'.repeat(64)}x`]) {
      const malformed = await call(viewer.url, '/auth/token', { body: { token }, headers: from() });
      expect(malformed).toMatchObject({ status: 401, body: { detail: 'Invalid or expired token' } });
    }
    const missing = await call(viewer.url, '/auth/token', { body: {}, headers: from() });
    expect(missing).toMatchObject({
      status: 400,
      body: { detail: 'token is required (the share token, 64 hexadecimal characters)' },
    });
    const unknown = await call(viewer.url, '/auth/token', {
      body: { token: 'a'.repeat(64) },
      headers: from(),
    });
    expect(unknown).toMatchObject({ status: 401, body: { detail: 'Invalid or expired token' } });
  });
});

describe('the audit log of logins', () => {
  let viewer: TestViewer;
  let master: string;
  beforeAll(async () => {
    viewer = await startTestViewer({ ...PASSWORD_ENV, TRUST_PROXY_HEADERS: 'true' });
    master = await login(viewer.url, MASTER.username, MASTER.password, { 'x-forwarded-for': '192.0.2.200' });
  });
  afterAll(() => viewer.close());
  const audit = async (query = '') =>
    (await call(viewer.url, `/api/admin/audit${query}`, { cookie: master })).body.logs as {
      username: string;
      role: string | null;
      action: string;
      endpoint: string | null;
      ip_address: string | null;
      user_agent: string | null;
    }[];

  it('records logins, failed logins, logouts and share-token logins, never a password or token', async () => {
    const agent = { 'user-agent': 'audit-test/1.0', 'x-forwarded-for': '192.0.2.201' };
    const admin = (path: string, body: unknown) => call(viewer.url, path, { cookie: master, body });
    await admin('/api/admin/viewers', { username: 'auditee', password: 'auditee-password' });
    const share = (await admin('/api/admin/tokens', { label: 'kin', allowed_chat_refs: [FIXTURE.anna.ref] }))
      .body;
    const cookie = await login(viewer.url, 'auditee', 'auditee-password', agent);
    const tries = [
      { username: 'auditee', password: 'wrong-password-1' },
      { username: 'wrong-password-2', password: 'x' },
    ];
    for (const body of tries) {
      expect((await call(viewer.url, '/api/login', { body, headers: agent })).status).toBe(401);
    }
    expect((await call(viewer.url, '/api/logout', { cookie, method: 'POST', headers: agent })).status).toBe(
      200,
    );
    expect((await call(viewer.url, '/api/logout', { method: 'POST', headers: agent })).status).toBe(200);
    await tokenLogin(viewer.url, share.token, agent);
    const unknownToken = 'b'.repeat(64);
    expect(
      (await call(viewer.url, '/auth/token', { body: { token: unknownToken }, headers: agent })).status,
    ).toBe(401);

    const entries = await audit();
    expect(entries.slice(0, 6).map((e) => [e.action, e.username, e.role])).toEqual([
      ['token_auth_failed', 'token', null],
      [`token_auth_success:${share.id}`, 'token:kin', 'token'],
      ['logout', 'auditee', 'viewer'],
      ['login_failed', 'wrong-password-2', null],
      ['login_failed', 'auditee', null],
      ['login_success', 'auditee', 'viewer'],
    ]);
    for (const e of entries.slice(0, 6)) {
      expect(e).toMatchObject({ ip_address: '192.0.2.201', user_agent: 'audit-test/1.0' });
    }
    expect(entries.slice(0, 6).map((e) => e.endpoint)).toEqual([
      '/auth/token',
      '/auth/token',
      '/api/logout',
      '/api/login',
      '/api/login',
      '/api/login',
    ]);
    expect(entries.at(-1)).toMatchObject({ action: 'login_success', username: 'admin', role: 'master' });
    const text = JSON.stringify(entries);
    for (const secret of [
      'auditee-password',
      'wrong-password-1',
      share.token,
      unknownToken,
      MASTER.password,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('filters by a prefix of the action', async () => {
    const created = await call(viewer.url, '/api/admin/tokens', {
      cookie: master,
      body: { allowed_chat_refs: [FIXTURE.anna.ref] },
    });
    expect((await audit('?action=token_created')).map((e) => e.action)).toContain(
      `token_created:${created.body.id}`,
    );
    const logins = await audit('?action=login_');
    expect(logins.length).toBeGreaterThan(0);
    expect(logins.every((e) => e.action.startsWith('login_'))).toBe(true);
    expect(await audit(`?action=token_created:${created.body.id}x`)).toEqual([]);
  });
});

describe('the login rate limit', () => {
  let viewer: TestViewer;
  afterAll(() => viewer?.close());

  it('allows 15 attempts per client IP in 5 minutes over both routes, then answers 429', async () => {
    viewer = await startTestViewer(PASSWORD_ENV);
    for (let i = 0; i < 15; i++) {
      const path = i % 2 === 0 ? '/api/login' : '/auth/token';
      const body = i % 2 === 0 ? { username: 'x', password: 'y' } : { token: 'b'.repeat(64) };
      expect((await call(viewer.url, path, { body })).status).toBe(401);
    }
    const refused = await call(viewer.url, '/api/login', { body: MASTER });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toEqual(expect.any(String));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(viewer.url, '/auth/token', { body: { token: 'b'.repeat(64) } })).status).toBe(429);
    // Forwarded addresses are ignored without TRUST_PROXY_HEADERS: the socket peer is still limited.
    expect((await call(viewer.url, '/api/login', { body: MASTER, headers: from() })).status).toBe(429);
    // Other routes are never limited.
    expect((await call(viewer.url, '/api/health')).status).toBe(200);
  });
});

describe('proxy identity', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer({
      AUTH_PROXY_HEADER: 'Remote-User',
      AUTH_PROXY_ADMIN_USERS: 'root@example.com',
    });
  });
  afterAll(() => viewer.close());
  const as = (user: string, path: string, headers: Record<string, string> = {}) =>
    call(viewer.url, path, { headers: { 'remote-user': user, ...headers } });

  it('gives listed admins master rights, but not with X-Viewer-Only', async () => {
    expect((await as('root@example.com', '/api/status')).status).toBe(200);
    expect((await as('root@example.com', '/api/status', { 'x-viewer-only': 'true' })).status).toBe(403);
    expect((await as('root@example.com', '/api/auth/check')).body).toEqual({
      authenticated: true,
      auth_required: true,
      role: 'master',
      username: 'root@example.com',
      no_download: false,
      proxy_auth: true,
    });
  });

  it('creates other users as viewer accounts without chats until the master grants some', async () => {
    expect((await as('sam@example.com', '/api/status')).status).toBe(403);
    expect((await as('sam@example.com', '/api/chats')).body.total).toBe(0);
    expect((await as('sam@example.com', `/api/chats/${FIXTURE.anna.ref}`)).status).toBe(404);
    const admins = (await as('root@example.com', '/api/admin/viewers')).body.viewers;
    const sam = admins.find((v: { username: string }) => v.username === 'sam@example.com');
    expect(sam).toMatchObject({ allowed_chat_refs: [], is_active: true });
    await call(viewer.url, `/api/admin/viewers/${sam.id}`, {
      method: 'PUT',
      headers: { 'remote-user': 'root@example.com' },
      body: { allowed_chat_refs: [FIXTURE.anna.ref] },
    });
    expect((await as('sam@example.com', '/api/chats')).body.total).toBe(1);
    await call(viewer.url, `/api/admin/viewers/${sam.id}`, {
      method: 'PUT',
      headers: { 'remote-user': 'root@example.com' },
      body: { is_active: false },
    });
    expect((await as('sam@example.com', '/api/chats')).status).toBe(401);
  });

  it('falls back to the session cookie without the header', async () => {
    expect((await call(viewer.url, '/api/chats')).status).toBe(401);
    const token = (
      await call(viewer.url, '/api/admin/tokens', {
        headers: { 'remote-user': 'root@example.com' },
        body: { allowed_chat_refs: [FIXTURE.releaseCrew.ref] },
      })
    ).body.token;
    const cookie = await tokenLogin(viewer.url, token);
    expect((await call(viewer.url, '/api/chats', { cookie })).body.total).toBe(1);
  });
});

describe('anonymous mode and no mode', () => {
  let anonymous: TestViewer;
  let none: TestViewer;
  beforeAll(async () => {
    [anonymous, none] = await Promise.all([
      startTestViewer({ ALLOW_ANONYMOUS_VIEWER: 'true' }),
      startTestViewer({ ALLOW_ANONYMOUS_VIEWER: 'false' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([anonymous.close(), none.close()]);
  });

  it('anonymous mode reads without a login, never as master', async () => {
    expect((await call(anonymous.url, '/api/chats')).body.total).toBe(6);
    expect((await call(anonymous.url, '/api/status')).status).toBe(403);
    const res = await call(anonymous.url, '/api/login', { body: MASTER });
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect(sessionCookieOf(res.headers)).toBeUndefined();
    expect((await call(anonymous.url, '/api/auth/check')).body).toEqual({
      authenticated: true,
      auth_required: false,
      role: null,
      username: null,
      no_download: false,
    });
  });

  it('anonymous mode is off when a password is configured', async () => {
    const both = await startTestViewer({ ...PASSWORD_ENV, ALLOW_ANONYMOUS_VIEWER: 'true' });
    try {
      expect((await call(both.url, '/api/chats')).status).toBe(401);
    } finally {
      await both.close();
    }
  });

  it('without a login mode every protected route answers 503 and the check asks for setup', async () => {
    expect(await call(none.url, '/api/chats')).toMatchObject({
      status: 503,
      body: { detail: 'Viewer authentication is not configured' },
    });
    expect((await call(none.url, '/api/login', { body: MASTER })).status).toBe(503);
    expect((await call(none.url, '/api/auth/check')).body).toMatchObject({
      authenticated: false,
      setup_required: true,
    });
    // Health tells an orchestrator this viewer cannot serve, and what to set.
    expect(await call(none.url, '/api/health')).toMatchObject({
      status: 503,
      body: { status: 'degraded', database: 'connected', reason: expect.stringContaining('VIEWER_USERNAME') },
    });
  });
});

describe('an unreachable database', () => {
  let viewer: TestViewer | undefined;
  let url = '';
  let close = async () => {};
  beforeAll(async () => {
    const { startViewerOn } = await import('./test-viewer');
    // Nothing listens on port 1: every query fails to connect.
    viewer = await startViewerOn(
      { backend: 'postgresql', url: 'postgres://postgres@127.0.0.1:1/none', timeoutSeconds: 2, echo: false },
      PASSWORD_ENV,
    );
    url = viewer.url;
    close = viewer.close;
  });
  afterAll(() => close());

  it('reports degraded health, lets the master in, and answers 503 on data routes', async () => {
    expect(await call(url, '/api/health')).toMatchObject({
      status: 503,
      body: { status: 'degraded', database: 'unreachable' },
    });
    const wrong = await call(url, '/api/login', { body: { username: 'admin', password: 'nope' } });
    expect(wrong).toMatchObject({ status: 503, body: { detail: 'Database temporarily unavailable' } });
    const cookie = await login(url, MASTER.username, MASTER.password);
    expect(await call(url, '/api/chats', { cookie })).toMatchObject({
      status: 503,
      body: { detail: 'Database temporarily unavailable' },
    });
    const token = await call(url, '/auth/token', { body: { token: 'c'.repeat(64) } });
    expect(token).toMatchObject({ status: 500, body: { detail: 'Database not available' } });
  });

  it('keeps the socket of a session opened meanwhile until that session ends', async () => {
    const { TestSocket } = await import('../live/test-socket');
    const cookie = await login(url, MASTER.username, MASTER.password);
    const ws = await TestSocket.open(url, { cookie });
    await viewer?.wiring.live.hub.checkSessions();
    expect(await ws.ask({ action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    await call(url, '/api/logout', { cookie, method: 'POST' });
    expect(await ws.closed).toEqual({ code: 4001, reason: 'Session revoked' });
  });
});
