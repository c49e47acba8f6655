/** Every row of the seed's session-lifecycle table that ends a session closes that session's sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  startViewerOn,
  type TestViewer,
  tokenLogin,
} from '../http/test-viewer';
import { TestSocket } from './test-socket';

const ENV = { ...PASSWORD_ENV, TRUST_PROXY_HEADERS: 'true' };
const REVOKED = { code: 4001, reason: 'Session revoked' };
let address = 0;
const from = () => ({ 'x-forwarded-for': `198.51.100.${(address++ % 250) + 1}` });

describe('session revocation closes sockets', () => {
  let clock = Date.parse('2026-03-14T10:00:00Z');
  let viewer: TestViewer;
  let master: string;
  const admin = (path: string, body?: unknown, method = 'POST') =>
    call(viewer.url, path, { cookie: master, ...(body !== undefined && { body }), method });

  beforeAll(async () => {
    viewer = await startTestViewer(ENV, { now: () => clock });
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
  });
  afterAll(() => viewer.close());

  const socket = async (cookie: string) => {
    const ws = await TestSocket.open(viewer.url, { cookie });
    await ws.ask({ action: 'subscribe', chat_ref: FIXTURE.anna.ref }, 'subscribed');
    return ws;
  };
  /** Still open: it answers a ping. */
  const open = async (ws: TestSocket) => (await ws.ask({ action: 'ping' }, 'pong')).type === 'pong';
  async function account(username: string) {
    const res = await admin('/api/admin/viewers', { username, password: `${username}-password` });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const as = (username: string) => login(viewer.url, username, `${username}-password`, from());

  it('logout closes the sockets of that session only', async () => {
    await account('leaver');
    const cookie = await as('leaver');
    const other = await as('leaver');
    const [a, b, c] = [await socket(cookie), await socket(cookie), await socket(other)];
    await call(viewer.url, '/api/logout', { cookie, method: 'POST' });
    expect(await a.closed).toEqual(REVOKED);
    expect(await b.closed).toEqual(REVOKED);
    expect(await open(c)).toBe(true);
    c.close();
  });

  it('the 11th login closes the sockets of the evicted session', async () => {
    await account('eleven');
    const first = await as('eleven');
    const ws = await socket(first);
    // Distinct creation times, so the oldest session is the first one.
    clock += 1000;
    const second = await socket(await as('eleven'));
    for (let i = 0; i < 9; i++) {
      clock += 1000;
      await as('eleven');
    }
    expect(await ws.closed).toEqual(REVOKED);
    expect(await open(second)).toBe(true);
    second.close();
  });

  it('any change to a viewer account, and its deletion, close its sockets', async () => {
    const id = await account('changed');
    await account('bystander');
    const ws = await socket(await as('changed'));
    const bystander = await socket(await as('bystander'));
    expect(
      (await admin(`/api/admin/viewers/${id}`, { is_active: true, no_download: true }, 'PUT')).status,
    ).toBe(200);
    expect(await ws.closed).toEqual(REVOKED);
    const again = await socket(await as('changed'));
    expect((await admin(`/api/admin/viewers/${id}`, undefined, 'DELETE')).status).toBe(200);
    expect(await again.closed).toEqual(REVOKED);
    expect(await open(bystander)).toBe(true);
    bystander.close();
  });

  it('a token change of scope, revocation or downloads, and its deletion, close its sockets', async () => {
    const created = await admin('/api/admin/tokens', { label: 'kin', allowed_chat_refs: [FIXTURE.anna.ref] });
    const { id, token } = created.body;
    const labelled = await socket(await tokenLogin(viewer.url, token, from()));
    expect((await admin(`/api/admin/tokens/${id}`, { label: 'relatives' }, 'PUT')).status).toBe(200);
    expect(await open(labelled)).toBe(true);
    for (const patch of [
      { allowed_chat_refs: [FIXTURE.anna.ref, FIXTURE.family.ref] },
      { no_download: true },
      { is_revoked: true },
    ]) {
      const ws = patch.is_revoked ? labelled : await socket(await tokenLogin(viewer.url, token, from()));
      expect((await admin(`/api/admin/tokens/${id}`, patch, 'PUT')).status).toBe(200);
      expect(await ws.closed, JSON.stringify(patch)).toEqual(REVOKED);
    }
    const other = (await admin('/api/admin/tokens', { allowed_chat_refs: [FIXTURE.anna.ref] })).body;
    const ws = await socket(await tokenLogin(viewer.url, other.token, from()));
    expect((await admin(`/api/admin/tokens/${other.id}`, undefined, 'DELETE')).status).toBe(200);
    expect(await ws.closed).toEqual(REVOKED);
  });

  it('expiry after AUTH_SESSION_DAYS closes the socket', async () => {
    await account('aging');
    const ws = await socket(await as('aging'));
    clock += 29 * 86_400_000;
    await viewer.wiring.live.hub.checkSessions();
    expect(await open(ws)).toBe(true);
    clock += 86_400_000 + 1000;
    await viewer.wiring.live.hub.checkSessions();
    expect(await ws.closed).toEqual(REVOKED);
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
  });

  it('end-all closes every socket, the caller’s kept with keep_current', async () => {
    await account('everyone');
    const theirs = await socket(await as('everyone'));
    const own = await login(viewer.url, MASTER.username, MASTER.password, from());
    const mine = await socket(own);
    const res = await call(viewer.url, '/api/admin/sessions/end-all?keep_current=true', {
      cookie: own,
      method: 'POST',
    });
    expect(res.body.current_session_ended).toBe(false);
    expect(await theirs.closed).toEqual(REVOKED);
    expect(await open(mine)).toBe(true);
    await call(viewer.url, '/api/admin/sessions/end-all', { cookie: own, method: 'POST' });
    expect(await mine.closed).toEqual(REVOKED);
    master = await login(viewer.url, MASTER.username, MASTER.password, from());
  });
});

describe('a second viewer on the same database', () => {
  let first: TestViewer;
  let second: TestViewer;
  beforeAll(async () => {
    first = await startTestViewer(PASSWORD_ENV);
    second = await startViewerOn(first.database, PASSWORD_ENV);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('closes the sockets of a session ended elsewhere at its next session check (every 30 s)', async () => {
    const cookie = await login(first.url, MASTER.username, MASTER.password);
    const keep = await login(first.url, MASTER.username, MASTER.password);
    const ws = await TestSocket.open(second.url, { cookie });
    const kept = await TestSocket.open(second.url, { cookie: keep });
    await call(first.url, '/api/logout', { cookie, method: 'POST' });
    await second.wiring.live.hub.checkSessions();
    expect(await ws.closed).toEqual(REVOKED);
    expect((await kept.ask({ action: 'ping' }, 'pong')).type).toBe('pong');
    kept.close();
  });
});
