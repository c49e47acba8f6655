/**
 * Low 13: Web Push endpoints whose names resolve to loopback or private addresses. The address is
 * checked when the notification is sent, on the address the connection would use: a public-looking name
 * that resolves to 127.0.0.1 or to an IPv6-mapped form of it gets no connection, and its subscription is
 * dropped; literal private addresses in any spelling are refused when subscribing.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../src/archive/http/test-viewer';
import { browserKeys } from '../src/archive/live/fake-push-service';
import { isPublicAddress, publicOnly, type Resolver } from '../src/archive/live/public-address';
import { validEndpoint } from '../src/archive/live/web-push';

const RC = FIXTURE.releaseCrew;

/** A resolver that answers every name with the address the test chose (a rebinding DNS server). */
let answer: LookupAddress[] = [];
const resolver: Resolver = (_host, _options, callback) => callback(null, answer);

describe('push endpoints resolving to private addresses', () => {
  let viewer: TestViewer;
  let trap: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    trap = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    port = (trap.address() as { port: number }).port;
    viewer = await startTestViewer(
      { ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'full' },
      { live: { pushResolve: resolver, pushBackoffMs: () => 5 } },
    );
  });
  afterAll(async () => {
    await viewer.close();
    await new Promise((resolve) => trap.close(resolve));
  });

  it.each([
    [[{ address: '127.0.0.1', family: 4 }]],
    [[{ address: '::ffff:127.0.0.1', family: 6 }]],
    [[{ address: '::1', family: 6 }]],
    [
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ],
    ],
  ])('sends nothing to a name resolving to %j, and drops the subscription', async (addresses) => {
    answer = addresses;
    // Subscribing refuses any port but 443; the send path's own check is tested here, on the trap's port,
    // so the subscription is stored as if it had come in before that rule.
    const endpoint = `https://push.example.org:${port}/sub/${Math.random().toString(36).slice(2)}`;
    const { keys } = browserKeys();
    await viewer.db.savePushSubscription({
      endpoint,
      p256dh: keys.p256dh,
      auth: keys.auth,
      username: MASTER.username,
      sessionId: null,
      accountId: null,
      chatId: null,
      chatRef: null,
      allowedAccounts: null,
      allowedChatRefs: null,
      noDownload: false,
      userAgent: null,
    });
    await call(viewer.url, '/internal/push', {
      body: {
        type: 'new_message',
        chat_id: RC.id,
        account_id: RC.accountId,
        data: { message: { id: 99_001, text: 'hello', date: '2026-01-01T00:00:00Z' } },
      },
      headers: { authorization: `Bearer ${viewer.wiring.live.pushSecret}` },
    });
    await viewer.wiring.live.publisher.settled();
    await viewer.wiring.live.push.idle();
    expect(connections).toBe(0);
    const left = await viewer.db.pushSubscriptionsFor({
      accountId: RC.accountId,
      chatId: RC.id,
      ref: RC.ref,
    });
    expect(left.map((s) => s.endpoint)).not.toContain(endpoint);
  });

  it.each([
    'https://127.0.0.1/push',
    'https://127.1/push',
    'https://2130706433/push',
    'https://0x7f.0.0.1/push',
    'https://[::1]/push',
    'https://[::ffff:127.0.0.1]/push',
    'https://[::ffff:7f00:1]/push',
    'https://[fe80::1]/push',
    'https://10.1.2.3/push',
    'https://169.254.169.254/latest',
    'https://localhost/push',
    'https://push.localhost/push',
    'https://[fec0::1]/push',
    'https://LOCALHOST./push',
    'https://a.localhost./push',
    'https://printer.local./push',
    'https://push.example.org:8443/push',
    'https://push.example.org:1/push',
  ])('refuses the endpoint %s when subscribing', (endpoint) => {
    expect(validEndpoint(endpoint)).toBe(false);
  });

  it('takes a public push service on the https port, its port written or not', () => {
    expect(validEndpoint('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(validEndpoint('https://updates.push.services.mozilla.com:443/wpush/v2/abc')).toBe(true);
  });

  it('tells public addresses from the rest', async () => {
    expect(['8.8.8.8', '2606:4700:4700::1111', '93.184.216.34'].map(isPublicAddress)).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      [
        '127.0.0.1',
        '::1',
        '::ffff:127.0.0.1',
        '::ffff:a00:1',
        '64:ff9b::a00:1',
        'fd00::1',
        '100.64.0.1',
        '0.0.0.0',
        'fec0::1',
      ].map(isPublicAddress),
    ).toEqual([false, false, false, false, false, false, false, false, false]);
    // The system resolver: localhost is loopback, so the lookup refuses it.
    const refused = await new Promise<Error | null>((resolve) =>
      publicOnly()('localhost', {}, (error) => resolve(error as Error | null)),
    );
    expect(refused?.message).toBe('localhost does not resolve to a public address');
  });
});
