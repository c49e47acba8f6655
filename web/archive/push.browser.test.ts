/**
 * Push opt-in in the archive viewer, in Chromium against the real viewer in `full` push mode and a fake
 * push service on 127.0.0.1 that checks VAPID and decrypts what it receives. The page registers the real
 * `/sw.js`. What a browser's push registration does next (asking its vendor's push service for an
 * endpoint) cannot happen on a machine without a network, so `PushManager.subscribe` answers, in this page
 * only, with an endpoint on the fake service and keys the test holds: everything after it — the
 * subscription the page sends, the server storing it, an event turned into an encrypted notification, the
 * unsubscribe — is the real path. With push off, the page says so.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../../src/archive/http/test-viewer';
import {
  browserKeys,
  type FakePushService,
  startFakePushService,
} from '../../src/archive/live/fake-push-service';
import { launchBrowser, openPage, policyViolations } from '../testing/browser';

const RC = FIXTURE.releaseCrew;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function openChatInfo(viewer: TestViewer) {
  const opened = await openPage(browser);
  const { page, context } = opened;
  await context.grantPermissions(['notifications'], { origin: viewer.url });
  await page.goto(`${viewer.url}/`);
  await page.getByLabel('User name').fill(MASTER.username);
  await page.getByLabel('Password').fill(MASTER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: /Release Crew/ }).click();
  await page.getByRole('button', { name: 'Info', exact: true }).click();
  return opened;
}

describe('push opt-in in the archive viewer', () => {
  const keys = browserKeys();
  let service: FakePushService;
  let viewer: TestViewer;
  beforeAll(async () => {
    service = await startFakePushService(new Map([['/sub/chromium', keys]]));
    viewer = await startTestViewer(
      { ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'full' },
      { live: { allowPrivatePushEndpoints: true } },
    );
  });
  afterAll(async () => {
    await viewer?.close();
    await service?.close();
  });

  it('subscribes through /sw.js, gets an encrypted notification for a new message, and unsubscribes', async () => {
    const { page, errors, context } = await openChatInfo(viewer);
    const endpoint = `${service.url}/sub/chromium`;
    await page.addInitScript(
      ({ endpoint, p256dh, auth }) => {
        let current: PushSubscription | null = null;
        const subscription = {
          endpoint,
          expirationTime: null,
          options: {},
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
          unsubscribe: async () => {
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        PushManager.prototype.subscribe = async () => {
          current = subscription;
          return subscription;
        };
        PushManager.prototype.getSubscription = async () => current;
      },
      { endpoint, ...keys.keys },
    );
    await page.reload();
    await page.getByRole('button', { name: 'Info', exact: true }).click();
    await page.getByRole('button', { name: 'Notify me of new messages' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'You will be notified of new messages in this chat.' })
      .waitFor();
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-push.png') });
    // The real service worker is in place, at the root scope.
    const scope = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration('/'))?.scope,
    );
    expect(scope).toBe(`${viewer.url}/`);
    const stored = await viewer.db.pushSubscriptionsFor({ accountId: 1, chatId: RC.id, ref: RC.ref });
    expect(stored.map((s) => s.endpoint)).toEqual([endpoint]);

    const res = await fetch(`${viewer.url}/internal/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${viewer.wiring.live.pushSecret}`,
      },
      body: JSON.stringify({
        type: 'new_message',
        chat_id: RC.id,
        account_id: 1,
        data: {
          message: {
            id: 9001,
            date: new Date().toISOString(),
            text: 'Doors open at eight',
            sender: { id: 1, name: 'Erik Sandberg' },
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    const [notification] = await service.waitFor(1);
    expect(notification?.problems).toEqual([]);
    expect(notification?.payload).toMatchObject({ title: 'Release Crew', chat_ref: RC.ref });
    expect(JSON.stringify(notification?.payload)).toContain('Doors open at eight');

    await page.getByRole('button', { name: 'Turn notifications off' }).click();
    await page.getByRole('status').filter({ hasText: 'Notifications turned off.' }).waitFor();
    expect(await viewer.db.pushSubscriptionsFor({ accountId: 1, chatId: RC.id, ref: RC.ref })).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('in basic mode, notifies a new message of the open chat from the page while its tab is hidden', async () => {
    const basic = await startTestViewer({ ...PASSWORD_ENV, PUSH_NOTIFICATIONS: 'basic' });
    try {
      const { page, errors, context } = await openChatInfo(basic);
      // The tab is in the background, and each notification the page shows is recorded.
      await page.addInitScript(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        const Real = window.Notification;
        const shown: unknown[] = [];
        (window as unknown as { shown: unknown[] }).shown = shown;
        class Recording {
          static get permission() {
            return Real.permission;
          }
          static requestPermission() {
            return Real.requestPermission();
          }
          onclick: unknown = null;
          constructor(title: string, options: NotificationOptions) {
            shown.push({ title, body: options.body, tag: options.tag });
          }
          close() {}
        }
        window.Notification = Recording as unknown as typeof Notification;
      });
      await page.reload();
      await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
      await page.getByRole('button', { name: 'Info', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'while this tab is in the background' }).waitFor();
      await expect(page.getByRole('button', { name: 'Notify me of new messages' }).count()).resolves.toBe(0);
      expect(await basic.db.pushSubscriptionsFor({ accountId: 1, chatId: RC.id, ref: RC.ref })).toEqual([]);

      const res = await fetch(`${basic.url}/internal/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${basic.wiring.live.pushSecret}`,
        },
        body: JSON.stringify({
          type: 'new_message',
          chat_id: RC.id,
          account_id: 1,
          data: { message: { id: FIXTURE.photoMessageId } },
        }),
      });
      expect(res.status).toBe(200);
      await page.waitForFunction(() => (window as unknown as { shown: unknown[] }).shown.length > 0);
      const shown = await page.evaluate(() => (window as unknown as { shown: unknown[] }).shown);
      expect(shown).toEqual([
        {
          title: 'Release Crew',
          body: expect.stringMatching(/^[^:]+: .+/),
          tag: `message-${FIXTURE.photoMessageId}`,
        },
      ]);
      expect(policyViolations(errors)).toEqual([]);
      await context.close();
    } finally {
      await basic.close();
    }
  });

  it('says so when push is off', async () => {
    const off = await startTestViewer();
    try {
      const { page, context } = await openChatInfo(off);
      await page.getByText('Push notifications are off on this viewer.').waitFor();
      await expect(page.getByRole('button', { name: 'Notify me of new messages' }).count()).resolves.toBe(0);
      await context.close();
    } finally {
      await off.close();
    }
  });
});
