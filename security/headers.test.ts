/**
 * Low 11: every answer of the three services, errors and unknown paths included, carries
 * `X-Content-Type-Options: nosniff`; the archive's policy lets the page connect to its own origin only
 * (`'self'` covers its WebSocket), not to any `ws:` or `wss:` host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_ENV, startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';
import { startTestFuel, type TestFuel } from '../src/fuel/testing/server';
import { type Server, startSeededServer } from '../src/subtitles/test-support';

let viewer: TestViewer;
let fuel: TestFuel;
let subtitles: Server;

beforeAll(async () => {
  [viewer, fuel, subtitles] = await Promise.all([
    startTestViewer(PASSWORD_ENV),
    startTestFuel(),
    startSeededServer(),
  ]);
});
afterAll(() => Promise.all([viewer.close(), fuel.close(), subtitles.close()]));

const REQUESTS: [string, () => string, string, string?][] = [
  ['archive', () => viewer.url, '/api/health'],
  ['archive', () => viewer.url, '/api/chats'],
  ['archive', () => viewer.url, '/no/such/path'],
  ['archive', () => viewer.url, '/api/login', '{"username": 1}'],
  ['fuel', () => fuel.url, '/api/config'],
  ['fuel', () => fuel.url, '/api/stations?bbox=bad'],
  ['fuel', () => fuel.url, '/no/such/path'],
  ['fuel', () => fuel.url, '/api/route', '{'],
  ['subtitles', () => subtitles.url, '/System/Info/Public'],
  ['subtitles', () => subtitles.url, '/System/Info'],
  ['subtitles', () => subtitles.url, '/no/such/path'],
  ['subtitles', () => subtitles.url, '/Users/AuthenticateByName', '{}'],
];

describe('security headers', () => {
  it.each(REQUESTS)('%s %s %s carries nosniff', async (_service, base, path, body) => {
    const res = await fetch(`${base()}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body !== undefined && { body, headers: { 'content-type': 'application/json' } }),
    });
    await res.arrayBuffer();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("the archive's policy connects to its own origin only", async () => {
    const res = await fetch(`${viewer.url}/api/health`);
    const policy = res.headers.get('content-security-policy') ?? '';
    const connect = policy
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));
    expect(connect).toBe("connect-src 'self'");
  });
});
