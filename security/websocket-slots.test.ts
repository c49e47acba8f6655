/**
 * Low 12: one login cannot take every WebSocket slot. A share link opens sockets until it is refused
 * with 1013 at MAX_WS_CONNECTIONS_PER_LOGIN; the master (and any other login) still gets in, and a slot
 * freed by the link is its own again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
  tokenLogin,
} from '../src/archive/http/test-viewer';
import { TestSocket } from '../src/archive/live/test-socket';

describe('WebSocket slots per login', () => {
  let viewer: TestViewer;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      MAX_WS_CONNECTIONS: '8',
      MAX_WS_CONNECTIONS_PER_LOGIN: '3',
    });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await viewer.close();
  });

  it('refuses a share link past its share, and still admits the master', async () => {
    const master = await login(viewer.url, MASTER.username, MASTER.password);
    const created = await call(viewer.url, '/api/admin/tokens', {
      cookie: master,
      body: { label: 'greedy', allowed_chat_refs: [FIXTURE.releaseCrew.ref] },
    });
    // Several browsers of one share link are one login.
    const sessions = [
      await tokenLogin(viewer.url, created.body.token),
      await tokenLogin(viewer.url, created.body.token),
    ];
    for (let i = 0; i < 3; i++) {
      const socket = await TestSocket.open(viewer.url, { cookie: sessions[i % 2] });
      open.push(socket);
      expect(await socket.ask({ action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    }
    const refused = await TestSocket.open(viewer.url, { cookie: sessions[1] });
    expect(await refused.closed).toEqual({ code: 1013, reason: 'Too many connections for this login' });
    const admin = await TestSocket.open(viewer.url, { cookie: master });
    open.push(admin);
    expect(await admin.ask({ action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
    // A slot the link gives back is its own again.
    const first = open.shift() as TestSocket;
    first.close();
    await first.closed;
    const again = await TestSocket.open(viewer.url, { cookie: sessions[0] });
    open.push(again);
    expect(await again.ask({ action: 'ping' }, 'pong')).toEqual({ type: 'pong' });
  });
});
