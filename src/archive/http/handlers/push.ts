/**
 * Push notifications: the Web Push configuration and subscriptions (mode `full`), the notification
 * settings the page reads (modes `basic` and `full`), and the service worker at `/sw.js`.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { ArchiveError, CHAT_NOT_FOUND, invalid } from '../../domain/errors';
import { visibilityOf } from '../../domain/principal';
import { validEndpoint } from '../../live/web-push';
import { sessionIdOf } from '../../store/store';
import { optionalPrincipal } from '../access';
import { principal } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

const SERVICE_WORKER = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'live', 'service-worker.js'),
  'utf8',
);

export function pushHandlers(wiring: ArchiveWiring) {
  return {
    getPushConfig: async (_req, res) => {
      const push = wiring.live.push;
      res.json({ mode: wiring.config.push.mode, enabled: push.enabled, vapid_public_key: push.publicKey });
    },
    getNotificationSettings: async (req, res) => {
      if (wiring.modes.password) {
        const caller = await optionalPrincipal(wiring, req, res).catch(() => null);
        if (!caller) {
          res.json({ enabled: false, reason: 'Not authenticated' });
          return;
        }
      }
      const { mode, enableNotifications } = wiring.config.push;
      res.json({ enabled: mode !== 'off' || enableNotifications, mode, websocket_url: '/ws/updates' });
    },
    subscribePush: async (req, res) => {
      const push = wiring.live.push;
      if (wiring.config.push.mode !== 'full' || !push.enabled) {
        throw invalid('Push notifications not enabled. Set PUSH_NOTIFICATIONS=full');
      }
      const body = req.body;
      if (!validEndpoint(body.endpoint, push.allowPrivateEndpoints))
        throw invalid('Invalid subscription endpoint');
      const caller = principal(res);
      let chat = null;
      if (body.chat_ref) {
        const found = await wiring.store.findChat(
          visibilityOf(caller, wiring.config.displayChatIds),
          body.chat_ref,
        );
        if (!found) throw new ArchiveError('not-found', CHAT_NOT_FOUND);
        chat = found.key;
      }
      await wiring.store.savePushSubscription(
        {
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          username: caller.username,
          sessionId: caller.sessionKey ? sessionIdOf(caller.sessionKey) : null,
          accountId: chat?.accountId ?? null,
          chatId: chat?.chatId ?? null,
          chatRef: chat?.ref ?? null,
          allowedAccounts: caller.allowedAccounts,
          allowedChatRefs: caller.allowedChatRefs,
          noDownload: caller.noDownload,
          userAgent: req.headers['user-agent'] ?? null,
        },
        new Date(wiring.now()),
      );
      res.json({ status: 'subscribed', chat_ref: chat?.ref ?? null });
    },
    unsubscribePush: async (req, res) => {
      if (wiring.config.push.mode === 'off') throw invalid('Push notifications not enabled');
      const removed = await wiring.store.deletePushSubscription(req.body.endpoint, principal(res).username);
      res.json({ status: removed ? 'unsubscribed' : 'not_found' });
    },
    getServiceWorker: async (_req, res) => {
      (res as Response)
        .type('application/javascript')
        .setHeader('Cache-Control', 'no-cache')
        .setHeader('Service-Worker-Allowed', '/')
        .send(SERVICE_WORKER);
    },
  } satisfies ArchiveHandlers;
}
