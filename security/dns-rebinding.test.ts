/**
 * DNS rebinding: a page of another site whose name the attacker makes resolve to 127.0.0.1 runs in a
 * browser on the viewer's machine and calls the viewer under that name (same origin for the browser, so
 * the origin rule lets it through). It names itself in `Host`: an anonymous viewer gives such a request no
 * login (HTTP and WebSocket), and `/internal/push` without a secret refuses it. The viewer's own names (a
 * loopback name, an IP address, `VIEWER_HOST`, `ALLOWED_HOSTS`, the hosts of `CORS_ORIGINS`) work as before.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE, startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';
import { TestSocket } from '../src/archive/live/test-socket';

function send(base: string, path: string, host: string, body?: unknown) {
  const url = new URL(path, base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      {
        method: text === undefined ? 'GET' : 'POST',
        headers: {
          host,
          ...(text !== undefined && {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
          }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const port = (viewer: TestViewer) => new URL(viewer.url).port;

describe('an anonymous viewer', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer({
      ALLOW_ANONYMOUS_VIEWER: 'true',
      ALLOWED_HOSTS: 'archive.home.arpa',
      CORS_ORIGINS: 'https://viewer.example.org',
    });
  });
  afterAll(() => viewer.close());

  it('answers its own names, and gives a name of another site no login', async () => {
    const p = port(viewer);
    for (const own of [
      `127.0.0.1:${p}`,
      `localhost:${p}`,
      `LOCALHOST.:${p}`,
      `[::1]:${p}`,
      `192.168.1.5:${p}`,
    ]) {
      expect(await send(viewer.url, '/api/chats', own), own).toBe(200);
    }
    for (const listed of ['archive.home.arpa', `archive.home.arpa:${p}`, 'viewer.example.org']) {
      expect(await send(viewer.url, '/api/chats', listed), listed).toBe(200);
    }
    for (const foreign of [`evil.example:${p}`, 'evil.example', `localhost.evil.example:${p}`]) {
      expect(await send(viewer.url, '/api/chats', foreign), foreign).toBe(401);
    }
    // A public route still answers.
    expect(await send(viewer.url, '/api/health', `evil.example:${p}`)).toBe(200);
  });

  it('refuses the WebSocket to a name of another site, whose page is its own origin', async () => {
    const p = port(viewer);
    const refused = await TestSocket.open(viewer.url, {
      headers: { host: `evil.example:${p}` },
      origin: `http://evil.example:${p}`,
    });
    expect((await refused.closed).code).toBe(4001);
    const own = await TestSocket.open(viewer.url, { origin: `http://127.0.0.1:${p}` });
    try {
      expect((await own.ask({ action: 'ping' }, 'pong')).type).toBe('pong');
    } finally {
      own.close();
    }
  });
});

describe('/internal/push without a secret (PostgreSQL)', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer(
      { VIEWER_USERNAME: 'admin', VIEWER_PASSWORD: 'master-secret-42' },
      { backend: 'postgresql' },
    );
    expect(viewer.wiring.live.pushSecret).toBeNull();
  });
  afterAll(() => viewer.close());

  const event = {
    type: 'edit',
    chat_id: FIXTURE.releaseCrew.id,
    account_id: FIXTURE.releaseCrew.accountId,
    data: { message_id: 1, new_text: 'forged' },
  };

  it('takes events from loopback under the viewer’s own names only', async () => {
    const p = port(viewer);
    expect(await send(viewer.url, '/internal/push', `evil.example:${p}`, event)).toBe(403);
    expect(await send(viewer.url, '/internal/push', `127.0.0.1:${p}`, event)).not.toBe(403);
    expect(await send(viewer.url, '/internal/push', `localhost:${p}`, event)).not.toBe(403);
  });
});
