/**
 * Requests that ask to upgrade to another protocol than WebSocket (Java's HTTP client sends
 * `Upgrade: h2c` on every plain-http request) are answered as the HTTP/1.1 requests they also are; the
 * WebSocket upgrade of /ws/updates keeps working beside them.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER, PASSWORD_ENV, startTestViewer, type TestViewer } from '../http/test-viewer';
import { TestSocket } from './test-socket';

/** Writes `raw` on a fresh connection and reads until the server has sent `answers` whole responses. */
function exchange(url: string, raw: string, answers = 1): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.split('HTTP/1.1 ').length - 1 >= answers && /\r\n\r\n[\s\S]*\}$/.test(text)) {
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error(`no whole answer: ${text}`)));
  });
}

/** Writes `raw` and waits for the server to close the connection (or 3 s without it doing so). */
function closedAfter(url: string, raw: string): Promise<{ closed: boolean; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('end', () => resolve({ closed: true, text }));
    socket.on('error', reject);
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve({ closed: false, text });
    });
  });
}

describe('an upgrade to another protocol', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer(PASSWORD_ENV);
  });
  afterAll(() => viewer?.close());

  it('is ignored: the request is answered over HTTP/1.1, body and all', async () => {
    const body = JSON.stringify(MASTER);
    const answer = await exchange(
      viewer.url,
      'POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n' +
        'Upgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nset-cookie: viewer_auth=/i);
    expect(answer).toContain('"success":true');
  });

  it('keeps the connection for the next request', async () => {
    const answer = await exchange(
      viewer.url,
      'GET /api/auth/check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n' +
        'GET /api/auth/check HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      2,
    );
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });

  it('answers every request that asks for it on one connection', async () => {
    const ask =
      'GET /api/auth/check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n';
    const answer = await exchange(viewer.url, ask.repeat(3), 3);
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(3);
  });

  it("keeps the request's version and its `close`: the server closes after the answer", async () => {
    for (const head of [
      'GET /api/auth/check HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n',
      'GET /api/auth/check HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, close\r\nUpgrade: h2c\r\n\r\n',
    ]) {
      const { closed, text } = await closedAfter(viewer.url, head);
      expect(text, head).toMatch(/^HTTP\/1\.1 200 /);
      expect(closed, head).toBe(true);
    }
  });

  it('leaves the WebSocket upgrade of /ws/updates as it was', async () => {
    const login = await fetch(`${viewer.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(MASTER),
    });
    const cookie = /viewer_auth=([^;]+)/.exec(login.headers.getSetCookie().join('\n'))?.[1] ?? '';
    const socket = await TestSocket.open(viewer.url, { cookie });
    try {
      expect((await socket.ask({ action: 'ping' }, 'pong')).type).toBe('pong');
    } finally {
      socket.close();
    }
  });
});
