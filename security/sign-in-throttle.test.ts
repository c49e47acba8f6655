/**
 * Medium 5: the subtitles sign-in is throttled. Thirty wrong passwords in a row from one client are not
 * all checked: past the limit for the user (5 by default, 3 here) the client gets 429 with Retry-After,
 * the right password included, while another client signs that user in at once (nobody can lock a user
 * out for everyone). The defaults themselves are read in src/subtitles/config.test.ts.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startSeededServer } from '../src/subtitles/test-support';

const CLIENT =
  'MediaServer Client="Jellyfin Web", Device="Firefox", DeviceId="attack-test", Version="10.11.0"';

function signIn(base: string, from: string, name: string, password: string) {
  const url = new URL('/Users/AuthenticateByName', base);
  const body = JSON.stringify({ Username: name, Pw: password });
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          authorization: CLIENT,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('subtitles sign-in throttle', () => {
  let server: Server;
  beforeAll(async () => {
    // Smaller limits than the defaults (5 and 20) keep the scrypt checks few; the rule is the same.
    server = await startSeededServer({
      SUBTITLES_SIGNIN_MAX_FAILURES_PER_USER: '3',
      SUBTITLES_SIGNIN_MAX_FAILURES: '6',
    });
  });
  afterAll(() => server.close());

  it('refuses a guessing client past its failures for a user, and only that client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await signIn(server.url, '127.0.0.1', 'admin', `guess-${i}`)).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]));
    const right = await signIn(server.url, '127.0.0.1', 'ADMIN', 'correct horse battery staple');
    expect(right.status).toBe(429);
    expect(Number(right.retryAfter)).toBeGreaterThan(0);
    expect(Number(right.retryAfter)).toBeLessThanOrEqual(900);
    // The same user from another client: not locked out.
    expect((await signIn(server.url, '127.0.0.2', 'admin', 'correct horse battery staple')).status).toBe(200);
  });

  it('refuses a client spraying many user names past its failures in all', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await signIn(server.url, '127.0.0.3', `user-${i}`, 'x')).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429, 429, 429]);
    expect((await signIn(server.url, '127.0.0.4', 'viewer', 'viewer password')).status).toBe(200);
  });

  it('a success clears the failures of that client for that user', async () => {
    for (let i = 0; i < 2; i++)
      expect((await signIn(server.url, '127.0.0.5', 'viewer', 'wrong')).status).toBe(401);
    expect((await signIn(server.url, '127.0.0.5', 'viewer', 'viewer password')).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await signIn(server.url, '127.0.0.5', 'viewer', 'wrong')).status).toBe(401);
    expect((await signIn(server.url, '127.0.0.5', 'viewer', 'viewer password')).status).toBe(200);
  });

  it('holds the limit for guesses sent all at once, as for guesses sent one by one', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(server.url, '127.0.0.6', 'admin', `burst-${i}`)),
    );
    const statuses = answers.map((a) => a.status);
    // Each attempt is counted before its password is checked: only the user's limit of them are checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(57);
  });
});
