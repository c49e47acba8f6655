/** Cross-cutting HTTP behaviour: headers, CORS, error bodies, admin input rules, no-download, docs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { CONTENT_SECURITY_POLICY } from './security';
import { call, FIXTURE, login, MASTER, PASSWORD_ENV, startTestViewer, type TestViewer } from './test-viewer';

const RC = FIXTURE.releaseCrew.ref;

function expectSecurityHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
}

describe('HTTP behaviour', () => {
  let viewer: TestViewer;
  let master: string;
  beforeAll(async () => {
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      CORS_ORIGINS: 'https://app.example, https://b.example',
    });
    master = await login(viewer.url, MASTER.username, MASTER.password);
  });
  afterAll(() => viewer.close());
  const admin = (path: string, body?: unknown, method = 'POST') =>
    call(viewer.url, path, { cookie: master, method, ...(body !== undefined && { body }) });

  it('sends the security headers on every answer', async () => {
    for (const [path, cookie] of [
      ['/api/health', undefined],
      ['/api/chats', undefined],
      ['/api/chats', master],
      ['/api/nowhere', master],
      [`/api/chats/${RC}/messages?limit=0`, master],
      ['/docs', undefined],
    ] as const) {
      expectSecurityHeaders((await call(viewer.url, path, { cookie })).headers);
    }
  });

  it('allows credentials for listed origins only, and answers preflights', async () => {
    const listed = await call(viewer.url, '/api/health', { headers: { origin: 'https://app.example' } });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await call(viewer.url, '/api/health', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${viewer.url}/api/login`, {
      method: 'OPTIONS',
      headers: { origin: 'https://b.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const open = await startTestViewer(PASSWORD_ENV, { seed: false });
    try {
      const res = await call(open.url, '/api/health', { headers: { origin: 'https://any.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('answers errors as {detail}: unknown paths 404, other methods of known paths 405, a failure 500 with nothing more', async () => {
    expect(await call(viewer.url, '/api/nowhere', { cookie: master })).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
    for (const cookie of [master, undefined]) {
      const other = await call(viewer.url, '/api/chats', { cookie, method: 'DELETE' });
      expect(other).toMatchObject({ status: 405, body: { detail: 'Method Not Allowed' } });
      expect(other.headers.get('allow')).toBe('GET, HEAD');
    }
    const broken = await startTestViewer({ ALLOW_ANONYMOUS_VIEWER: 'true' });
    await broken.db.close();
    const res = await call(broken.url, '/api/chats');
    expect(res).toMatchObject({ status: 500, body: { detail: 'Internal server error' } });
    expect(Object.keys(res.body)).toEqual(['detail']);
    await broken.close().catch(() => undefined);
  });

  it('checks viewer account bodies', async () => {
    const create = (body: unknown) => admin('/api/admin/viewers', body);
    expect(await create({ username: 'old', password: 'long-enough', allowed_chat_ids: [1] })).toMatchObject({
      status: 400,
      body: { detail: 'allowed_chat_ids is no longer accepted; send allowed_chat_refs' },
    });
    expect((await create({ username: 'ab', password: 'long-enough' })).status).toBe(400);
    expect((await create({ username: 'shorty', password: 'short' })).status).toBe(400);
    expect(
      (await create({ username: 'refs', password: 'long-enough', allowed_chat_refs: 'all' })).status,
    ).toBe(400);
    expect(
      await create({ username: 'refs', password: 'long-enough', allowed_chat_refs: ['nope'] }),
    ).toMatchObject({
      status: 400,
      body: { detail: 'Unknown chat ref: nope' },
    });
    expect(await create({ username: 'admin', password: 'long-enough' })).toMatchObject({
      status: 409,
      body: { detail: 'Username already exists' },
    });
    expect((await create({ username: 'twin', password: 'long-enough' })).status).toBe(201);
    expect((await create({ username: 'twin', password: 'long-enough' })).status).toBe(409);
    // Names that read alike are one name: another case, a trailing blank, a compatible form.
    for (const alike of [
      'TWIN',
      'twin ',
      ' Twin',
      '\uff54\uff57\uff49\uff4e',
      '\uff21\uff24\uff2d\uff29\uff2e',
    ]) {
      expect(await create({ username: alike, password: 'long-enough' }), alike).toMatchObject({
        status: 409,
        body: { detail: 'Username already exists' },
      });
    }
    for (const [name, detail] of [
      ['tw\u200bin', 'username: invisible and control characters are not allowed'],
      ['tw\u0007in', 'username: invisible and control characters are not allowed'],
      ['token:twin', 'username: names starting with "token:" are reserved for share links'],
      ['Token:Label', 'username: names starting with "token:" are reserved for share links'],
      ['  ab  ', 'username: must have at least 3 characters'],
    ]) {
      expect(await create({ username: name, password: 'long-enough' }), name).toMatchObject({
        status: 400,
        body: { detail },
      });
    }
    expect((await create({ username: '  spaced out  ', password: 'long-enough' })).body).toMatchObject({
      username: 'spaced out',
    });
    const created = await create({ username: 'echo', password: 'long-enough', allowed_accounts: [1] });
    expect(created.body).toEqual({
      id: expect.any(Number),
      username: 'echo',
      allowed_accounts: [1],
      allowed_chat_refs: null,
      is_active: true,
      no_download: false,
    });
    const put = (body: unknown) => admin(`/api/admin/viewers/${created.body.id}`, body, 'PUT');
    expect((await put({})).status).toBe(400);
    expect((await put({ allowed_chat_ids: [] })).status).toBe(400);
    expect((await put({ username: 'twin' })).status).toBe(409);
    expect((await put({ username: 'admin' })).status).toBe(409);
    expect(await admin('/api/admin/viewers/9999', { is_active: false }, 'PUT')).toMatchObject({
      status: 404,
      body: { detail: 'Viewer not found' },
    });
    expect((await admin('/api/admin/viewers/abc', { is_active: false }, 'PUT')).status).toBe(400);
    const list = (await admin('/api/admin/viewers', undefined, 'GET')).body.viewers;
    expect(JSON.stringify(list)).not.toMatch(/password|salt|pbkdf2/);
  });

  it('takes flags as booleans or 0/1 and keeps the password when an update sends it empty', async () => {
    const made = await admin('/api/admin/viewers', {
      username: 'flags',
      password: 'first-password',
      is_active: 1,
      no_download: 0,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ is_active: true, no_download: false });
    const id = made.body.id;
    const put = (body: unknown) => admin(`/api/admin/viewers/${id}`, body, 'PUT');
    expect((await put({ is_active: 0, no_download: 1 })).body).toMatchObject({
      is_active: false,
      no_download: true,
    });
    expect((await put({ is_active: true })).body).toMatchObject({ is_active: true, no_download: true });
    for (const bad of [2, -1, 'true', '1', null]) {
      expect((await put({ no_download: bad })).status, JSON.stringify(bad)).toBe(400);
    }
    // What is stored already (a form saved unchanged) is no change: 200 with the account. No field is a 400.
    expect(await put({ password: '' })).toMatchObject({ status: 200, body: { no_download: true } });
    expect(await put({ is_active: true, no_download: 1 })).toMatchObject({ status: 200 });
    expect(await put({})).toMatchObject({ status: 400 });
    expect(await put({ password: 'short' })).toMatchObject({
      status: 400,
      body: { detail: 'password: must be at least 8 characters' },
    });
    const renamed = await put({ username: 'flags2', password: '', no_download: 0 });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await login(viewer.url, 'flags2', 'first-password')).toBeTruthy();
    expect((await put({ password: 'second-password' })).status).toBe(200);
    expect(
      (await call(viewer.url, '/api/login', { body: { username: 'flags2', password: 'first-password' } }))
        .status,
    ).toBe(401);
    expect(await login(viewer.url, 'flags2', 'second-password')).toBeTruthy();
    expect((await admin('/api/admin/viewers', { username: 'x-empty', password: '' })).status).toBe(400);
  });

  it('keeps 64-bit ids exact and refuses numbers no 64-bit integer holds', async () => {
    const raw = async (path: string, text: string, method = 'POST') => {
      const res = await fetch(`${viewer.url}${path}`, {
        method,
        headers: { cookie: `viewer_auth=${master}`, 'content-type': 'application/json' },
        ...(method !== 'GET' && { body: text }),
      });
      return { status: res.status, text: await res.text() };
    };
    const big = '1152921504606846977'; // 2^60 + 1: a double would make it ...976
    const max = '9223372036854775807';
    const made = await raw(
      '/api/admin/viewers',
      `{"username":"wide","password":"long-enough","allowed_accounts":[1, ${big}, ${max}]}`,
    );
    expect(made.status, made.text).toBe(201);
    expect(made.text).toContain(`"allowed_accounts":[1,${big},${max}]`);
    const id = JSON.parse(made.text).id;
    const listed = await raw('/api/admin/viewers', '', 'GET');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.text).toContain(`"allowed_accounts":[1,${big},${max}]`);
    const changed = await raw(`/api/admin/viewers/${id}`, `{"allowed_accounts":[${big}2]}`, 'PUT');
    expect(changed.status, changed.text).toBe(400);
    const moved = await raw(`/api/admin/viewers/${id}`, '{"allowed_accounts":[1152921504606846978]}', 'PUT');
    expect(moved.status, moved.text).toBe(200);
    expect(moved.text).toContain('"allowed_accounts":[1152921504606846978]');
    for (const bad of ['5.5e21', '9223372036854775808', '1e19', '18446744073709551616', '2.5']) {
      const res = await raw(
        '/api/admin/viewers',
        `{"username":"bad-${bad}","password":"long-enough","allowed_accounts":[${bad}]}`,
      );
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(JSON.parse(res.text).detail, bad).toMatch(/^allowed_accounts\.0: must be /);
    }
    const after = await raw('/api/admin/viewers', '', 'GET');
    expect(after.status, after.text).toBe(200);
    expect(after.text).not.toContain('e+');
  });

  it('checks share token bodies', async () => {
    const create = (body: unknown) => admin('/api/admin/tokens', body);
    expect(await create({ label: 'x' })).toMatchObject({
      status: 400,
      body: { detail: 'allowed_chat_refs is required (list of chat refs)' },
    });
    expect((await create({ allowed_chat_refs: [] })).status).toBe(400);
    expect((await create({ allowed_chat_refs: [RC], expires_at: 'tomorrow' })).status).toBe(400);
    const made = await create({ label: '  ', allowed_chat_refs: [RC], expires_at: '2027-01-01T00:00:00' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ label: null, expires_at: '2027-01-01T00:00:00Z', no_download: false });
    expect(await admin(`/api/admin/tokens/${made.body.id}`, {}, 'PUT')).toMatchObject({ status: 400 });
    expect((await admin('/api/admin/tokens/9999', { is_revoked: true }, 'PUT')).body).toEqual({
      detail: 'Token not found',
    });
    expect((await admin('/api/admin/tokens/9999', undefined, 'DELETE')).status).toBe(404);
  });

  it('stores settings as strings and refuses null', async () => {
    expect((await admin('/api/admin/settings/page_size', { value: 50 }, 'PUT')).body).toEqual({
      key: 'page_size',
      value: '50',
    });
    expect((await admin('/api/admin/settings/dark', { value: true }, 'PUT')).body.value).toBe('true');
    expect((await admin('/api/admin/settings/dark', { value: null }, 'PUT')).status).toBe(400);
    expect((await admin('/api/admin/settings/dark', {}, 'PUT')).status).toBe(400);
    // Any number the document allows is stored in its string form, however large.
    for (const [raw, stored] of [
      ['1e300', '1e+300'],
      ['12345678901234567890', '12345678901234567000'],
      ['-0.5', '-0.5'],
    ]) {
      const res = await fetch(`${viewer.url}/api/admin/settings/huge`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: `viewer_auth=${master}` },
        body: `{"value":${raw}}`,
      });
      expect([res.status, await res.json()], raw).toEqual([200, { key: 'huge', value: stored }]);
    }
    expect((await admin('/api/admin/settings', undefined, 'GET')).body.settings).toMatchObject({
      page_size: '50',
      dark: 'true',
    });
    const audit = await admin('/api/admin/audit?action=setting_updated:page_size', undefined, 'GET');
    expect(audit.body.logs).toHaveLength(1);
  });

  it('refuses downloads to no-download logins but keeps avatars and payloads', async () => {
    await admin('/api/admin/viewers', { username: 'looker', password: 'looker-password', no_download: true });
    const cookie = await login(viewer.url, 'looker', 'looker-password');
    const get = (path: string, method = 'GET') => call(viewer.url, path, { cookie, method });
    for (const path of [
      `/media/${RC}/${FIXTURE.photoMediaKey}`,
      `/media/thumb/200/${RC}/${FIXTURE.photoMediaKey}`,
      `/api/chats/${RC}/export`,
      `/api/chats/${RC}/media/${FIXTURE.voiceMediaKey}/transcripts`,
      '/api/media/-1001_1_voice/transcripts',
    ]) {
      expect(await get(path), path).toMatchObject({
        status: 403,
        body: { detail: 'Downloads disabled for this account' },
      });
    }
    expect((await get(`/api/chats/${RC}/media/${FIXTURE.voiceMediaKey}/transcripts`, 'POST')).status).toBe(
      403,
    );
    expect((await get(`/media/avatar/${RC}`)).status).toBe(200);
    expect((await get('/api/transcription/status')).status).toBe(200);
    const messages = (await get(`/api/chats/${RC}/messages?limit=2`)).body;
    expect(messages[0].media).toMatchObject({ url: null, file_path: null, downloaded: false });
    expect(messages[1].transcripts).toBeUndefined();
    const changes = (await get('/api/changes')).body.changes;
    expect(changes.some((c: { kind: string }) => c.kind === 'transcript')).toBe(false);
  });

  it('answers the later routes per the document meanwhile', async () => {
    const get = (path: string, method = 'GET') => call(viewer.url, path, { cookie: master, method });
    expect((await get(`/api/chats/${RC}/export?from=2026-03-02&to=2026-03-01`)).body).toEqual({
      detail: "'from' must be before 'to'",
    });
    expect((await get(`/api/chats/${RC}/export?from=2026-03-01&to=2026-03-01`)).status).toBe(200);
    expect((await get(`/api/chats/${RC}/media?before_id=1_photo&after_id=2_photo`)).status).toBe(400);
    expect((await get('/api/transcription/status')).body).toMatchObject({ enabled: false });
    expect((await get('/api/push/config')).body).toEqual({
      mode: 'off',
      enabled: false,
      vapid_public_key: null,
    });
    expect((await call(viewer.url, '/api/notifications/settings')).body).toEqual({
      enabled: false,
      reason: 'Not authenticated',
    });
    const settings = await call(viewer.url, '/api/notifications/settings', { cookie: master });
    expect(settings.body).toEqual({ enabled: false, mode: 'off', websocket_url: '/ws/updates' });
    const edit = { message_id: 1, new_text: 'x', edit_date: '2026-03-14T09:25:40Z' };
    expect(
      await call(viewer.url, '/internal/push', {
        body: { type: 'edit', chat_id: FIXTURE.releaseCrew.id, data: edit },
        headers: { authorization: `Bearer ${viewer.wiring.live.pushSecret}` },
      }),
    ).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('serves its own document and the pages that render it', async () => {
    const doc = await call(viewer.url, '/openapi.json');
    expect(doc.body).toEqual(loadBundledDocument('archive'));
    const page = await call(viewer.url, '/docs');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('/static/docs/swagger-ui.js');
    for (const asset of ['swagger-ui.js', 'swagger-ui.css', 'docs-init.js', 'reference-init.js']) {
      expect((await fetch(`${viewer.url}/static/docs/${asset}`)).status, asset).toBe(200);
    }
    expect((await call(viewer.url, '/redoc')).body).toContain('reference-init.js');
  });
});

describe('/internal/push callers', () => {
  it('needs the secret when one is set', async () => {
    const viewer = await startTestViewer(
      { ...PASSWORD_ENV, INTERNAL_PUSH_SECRET: 'shh-its-a-secret' },
      { seed: false },
    );
    try {
      const body = {
        type: 'edit',
        chat_id: 1,
        data: { message_id: 1, new_text: 'x', edit_date: '2026-03-14T09:25:40Z' },
      };
      expect((await call(viewer.url, '/internal/push', { body })).status).toBe(403);
      // The caller is refused before its body is looked at.
      expect((await call(viewer.url, '/internal/push', { body: {} })).status).toBe(403);
      const wrong = await call(viewer.url, '/internal/push', {
        body,
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong).toMatchObject({ status: 403, body: { detail: 'Forbidden' } });
      const right = await call(viewer.url, '/internal/push', {
        body,
        headers: { authorization: 'Bearer shh-its-a-secret' },
      });
      expect(right.status).toBe(200);
      const invalid = await call(viewer.url, '/internal/push', {
        body: { type: 'nonsense' },
        headers: { authorization: 'Bearer shh-its-a-secret' },
      });
      expect(invalid.status).toBe(400);
    } finally {
      await viewer.close();
    }
  });
});
