import { describe, expect, it } from 'vitest';
import { registry } from '../../common/metrics';
import { GOING_AWAY } from '../../common/serve';
import { login, MASTER, PASSWORD_ENV, startTestViewer } from '../http/test-viewer';
import { TestSocket } from './test-socket';

const connections = async () =>
  (await registry.getSingleMetric('specyard_archive_websocket_connections')?.get())?.values[0]?.value ?? 0;

describe('viewer shutdown', () => {
  it('closes every WebSocket with 1001 and counts the connections in the metrics', async () => {
    const viewer = await startTestViewer(PASSWORD_ENV);
    const before = await connections();
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const sockets = [
      await TestSocket.open(viewer.url, { cookie }),
      await TestSocket.open(viewer.url, { cookie }),
    ];
    await sockets[0]?.ask({ action: 'ping' }, 'pong');
    await sockets[1]?.ask({ action: 'ping' }, 'pong');
    expect(await connections()).toBe(before + 2);
    await viewer.close();
    for (const socket of sockets) expect((await socket.closed).code).toBe(GOING_AWAY);
    expect(await connections()).toBe(before);
  });
});
