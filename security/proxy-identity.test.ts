/**
 * Low 14: the proxy identity header is believed only from the trusted proxies. And in that mode too, a
 * page of another origin cannot change state: the origin rule holds whatever carried the identity. A client reaching the
 * viewer directly and naming an admin in `AUTH_PROXY_HEADER` is nobody; the same header from a peer in
 * `AUTH_PROXY_TRUSTED` logs the user in. A forwarded address does not make a peer trusted.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';

function get(base: string, path: string, from: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(new URL(path, base), { method, localAddress: from, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('AUTH_PROXY_HEADER from untrusted peers', () => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer({
      AUTH_PROXY_HEADER: 'Remote-User',
      AUTH_PROXY_ADMIN_USERS: 'root',
      AUTH_PROXY_TRUSTED: '127.0.0.2',
    });
  });
  afterAll(() => viewer.close());

  it('ignores the header from a peer that is not the proxy, forwarded address or not', async () => {
    const attempts: Record<string, string>[] = [
      { 'remote-user': 'root' },
      { 'remote-user': 'root', 'x-forwarded-for': '127.0.0.2' },
    ];
    for (const headers of attempts) {
      const res = await get(viewer.url, '/api/admin/viewers', '127.0.0.1', headers);
      expect(res.status).toBe(401);
    }
  });

  it('believes the header from the trusted proxy', async () => {
    const res = await get(viewer.url, '/api/admin/viewers', '127.0.0.2', { 'remote-user': 'root' });
    expect(res.status).toBe(200);
    const check = await get(viewer.url, '/api/auth/check', '127.0.0.2', { 'remote-user': 'root' });
    expect(JSON.parse(check.body)).toMatchObject({ authenticated: true, role: 'master', username: 'root' });
  });

  it('refuses a state change a page of another origin sends through the proxy, whatever carried the identity', async () => {
    const proxy = { 'remote-user': 'root' };
    for (const path of ['/api/admin/sessions/end-all', '/api/stats/refresh']) {
      const browsers: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const browser of browsers) {
        const res = await get(viewer.url, path, '127.0.0.2', { ...proxy, ...browser }, 'POST');
        expect(res.status, `${path} ${JSON.stringify(browser)}`).toBe(403);
      }
      // The viewer's own page (its origin) and a script (no browser headers) act as before.
      const own = { origin: viewer.url };
      expect((await get(viewer.url, path, '127.0.0.2', { ...proxy, ...own }, 'POST')).status).toBe(200);
      expect((await get(viewer.url, path, '127.0.0.2', proxy, 'POST')).status).toBe(200);
    }
  });
});
