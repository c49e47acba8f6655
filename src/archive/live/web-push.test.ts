/** Web Push against a fake push service on 127.0.0.1 that checks VAPID and decrypts aes128gcm. */
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
import { browserKeys, type FakePushService, startFakePushService } from './fake-push-service';
import { validEndpoint } from './web-push';

const RC = FIXTURE.releaseCrew;

describe('Web Push (PUSH_NOTIFICATIONS=full)', () => {
  let viewer: TestViewer;
  let service: FakePushService;
  const browsers = new Map<string, ReturnType<typeof browserKeys>>();
  let master: string;
  let looker: string;

  const subscribe = (cookie: string, name: string, extra: Record<string, unknown> = {}) => {
    const browser = browserKeys();
    browsers.set(`/sub/${name}`, browser);
    return call(viewer.url, '/api/push/subscribe', {
      cookie,
      body: { endpoint: `${service.url}/sub/${name}`, expirationTime: null, keys: browser.keys, ...extra },
    });
  };
  const push = (message: Record<string, unknown>, chat = RC) =>
    call(viewer.url, '/internal/push', {
      body: { type: 'new_message', chat_id: chat.id, account_id: chat.accountId, data: { message } },
      headers: { authorization: `Bearer ${viewer.wiring.live.pushSecret}` },
    });
  const settle = async () => {
    await viewer.wiring.live.publisher.settled();
    await viewer.wiring.live.push.idle();
  };
  const endpoints = async () =>
    (await viewer.db.pushSubscriptionsFor({ accountId: 1, chatId: RC.id, ref: RC.ref }))
      .map((s) => s.endpoint.replace(service.url, ''))
      .sort();

  beforeAll(async () => {
    service = await startFakePushService(browsers);
    viewer = await startTestViewer(
      { ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'full' },
      { live: { allowPrivatePushEndpoints: true, pushBackoffMs: () => 5 } },
    );
    master = await login(viewer.url, MASTER.username, MASTER.password);
    await call(viewer.url, '/api/admin/viewers', {
      cookie: master,
      body: { username: 'looker', password: 'looker-password', no_download: true },
    });
    looker = await login(viewer.url, 'looker', 'looker-password');
  });
  afterAll(async () => {
    await viewer.close();
    await service.close();
  });

  it('publishes a VAPID key generated once and kept in the database', async () => {
    const config = (await call(viewer.url, '/api/push/config')).body;
    expect(config).toMatchObject({ mode: 'full', enabled: true });
    expect(config.vapid_public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(await viewer.db.getMetadata('vapid_public_key')).toBe(config.vapid_public_key);
    const again = await startViewerOn(viewer.database, { ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'full' });
    try {
      expect((await call(again.url, '/api/push/config')).body.vapid_public_key).toBe(config.vapid_public_key);
    } finally {
      await again.close();
    }
  });

  it('refuses chat_id, invalid endpoints and unknown chats', async () => {
    const browser = browserKeys();
    const body = { endpoint: `${service.url}/sub/x`, keys: browser.keys };
    const withId = await call(viewer.url, '/api/push/subscribe', {
      cookie: master,
      body: { ...body, chat_id: 1 },
    });
    expect(withId).toMatchObject({
      status: 400,
      body: { detail: 'chat_id is no longer accepted; send chat_ref' },
    });
    const ftp = await call(viewer.url, '/api/push/subscribe', {
      cookie: master,
      body: { ...body, endpoint: 'ftp://push.example/x' },
    });
    expect(ftp).toMatchObject({ status: 400, body: { detail: 'Invalid subscription endpoint' } });
    const unknown = await call(viewer.url, '/api/push/subscribe', {
      cookie: master,
      body: { ...body, chat_ref: 'nope' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { detail: 'Chat not found' } });
    expect(validEndpoint('https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    for (const bad of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://push.local/x',
      'https://updates.internal/x',
      'https://localhost/x',
      'not a url',
    ]) {
      expect(validEndpoint(bad), bad).toBe(false);
    }
  });

  it('notifies every subscription that may see the chat, encrypted and VAPID-signed', async () => {
    expect((await subscribe(master, 'master')).body).toEqual({ status: 'subscribed', chat_ref: null });
    expect((await subscribe(looker, 'looker')).status).toBe(200);
    expect((await subscribe(master, 'rc-only', { chat_ref: RC.ref })).body).toEqual({
      status: 'subscribed',
      chat_ref: RC.ref,
    });
    expect((await subscribe(master, 'anna-only', { chat_ref: FIXTURE.anna.ref })).status).toBe(200);
    const { token } = (
      await call(viewer.url, '/api/admin/tokens', {
        cookie: master,
        body: { allowed_chat_refs: [FIXTURE.anna.ref] },
      })
    ).body;
    expect((await subscribe(await tokenLogin(viewer.url, token), 'token')).status).toBe(200);

    expect(
      (await push({ id: 5001, sender_name: 'Marta Lindqvist', text: 'Lunch at noon?', media: null })).status,
    ).toBe(200);
    await settle();
    const got = service.received.splice(0);
    expect(got.map((r) => r.path).sort()).toEqual(['/sub/looker', '/sub/master', '/sub/rc-only']);
    for (const r of got) {
      expect(r.problems).toEqual([]);
      expect(r.payload).toEqual({
        title: 'Release Crew',
        body: 'Marta Lindqvist: Lunch at noon?',
        tag: `chat-${RC.ref}`,
        chat_ref: RC.ref,
        url: `/?chat=${RC.ref}`,
      });
    }

    // Media: nothing for the no-download login.
    await push({ id: 5002, sender_name: 'Jonas Eklund', text: '', media: { type: 'photo' } });
    await settle();
    const media = service.received.splice(0);
    expect(media.map((r) => r.path).sort()).toEqual(['/sub/master', '/sub/rc-only']);
    expect(media.map((r) => (r.payload as { body: string }).body)).toEqual([
      'Jonas Eklund: [photo]',
      'Jonas Eklund: [photo]',
    ]);
  });

  it('removes a subscription the push service says is gone, and retries 429 and 5xx with back-off', async () => {
    await subscribe(master, 'gone');
    await subscribe(master, 'busy');
    service.script.set('/sub/gone', [410]);
    service.script.set('/sub/busy', [429, 503]);
    expect(await endpoints()).toContain('/sub/gone');
    await push({ id: 5003, sender_name: 'Anna Berg', text: 'Hello', media: null });
    await settle();
    const got = service.received.splice(0);
    expect(got.filter((r) => r.path === '/sub/busy')).toHaveLength(3);
    expect(got.filter((r) => r.path === '/sub/gone')).toHaveLength(1);
    expect(await endpoints()).not.toContain('/sub/gone');
    expect(await endpoints()).toContain('/sub/busy');
  });

  it('unsubscribes, and logout deletes the user’s subscriptions', async () => {
    const body = { endpoint: `${service.url}/sub/rc-only` };
    expect((await call(viewer.url, '/api/push/unsubscribe', { cookie: looker, body })).body).toEqual({
      status: 'not_found',
    });
    expect((await call(viewer.url, '/api/push/unsubscribe', { cookie: master, body })).body).toEqual({
      status: 'unsubscribed',
    });
    expect(await endpoints()).toContain('/sub/looker');
    await call(viewer.url, '/api/logout', { cookie: looker, method: 'POST' });
    expect(await endpoints()).not.toContain('/sub/looker');
    expect(await endpoints()).toContain('/sub/master');
  });
});

describe('Web Push off', () => {
  it('refuses subscriptions and says so in the configuration; the service worker is public', async () => {
    const viewer = await startTestViewer({ ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'basic' }, { seed: false });
    try {
      const worker = await fetch(`${viewer.url}/sw.js`);
      expect(worker.status).toBe(200);
      expect(worker.headers.get('content-type')).toMatch(/^application\/javascript/);
      expect(worker.headers.get('cache-control')).toBe('no-cache');
      const script = await worker.text();
      for (const part of [
        "addEventListener('push'",
        'showNotification',
        "addEventListener('notificationclick'",
        'openWindow',
      ]) {
        expect(script).toContain(part);
      }
      const cookie = await login(viewer.url, MASTER.username, MASTER.password);
      expect((await call(viewer.url, '/api/push/config')).body).toEqual({
        mode: 'basic',
        enabled: false,
        vapid_public_key: null,
      });
      const res = await call(viewer.url, '/api/push/subscribe', {
        cookie,
        body: { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: browserKeys().keys },
      });
      expect(res).toMatchObject({
        status: 400,
        body: { detail: 'Push notifications not enabled. Set PUSH_NOTIFICATIONS=full' },
      });
    } finally {
      await viewer.close();
    }
  });
});
