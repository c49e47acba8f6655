/**
 * Push notifications. Web Push (mode `full`) needs VAPID keys and a sender, which arrive with the push
 * work; until then the configuration says Web Push is not enabled and subscriptions are refused with the
 * documented 400. Notification settings (modes `basic` and `full` in the page) work now.
 */
import { invalid } from '../../domain/errors';
import { optionalPrincipal } from '../access';
import { deps } from '../context';
import type { Handler } from './types';

export const getPushConfig: Handler<'getPushConfig'> = async (req, res) => {
  res.json({ mode: deps(req).config.push.mode, enabled: false, vapid_public_key: null });
};

export const getNotificationSettings: Handler<'getNotificationSettings'> = async (req, res) => {
  const d = deps(req);
  if (d.modes.password) {
    const caller = await optionalPrincipal(req, res).catch(() => null);
    if (!caller) {
      res.json({ enabled: false, reason: 'Not authenticated' });
      return;
    }
  }
  const { mode, enableNotifications } = d.config.push;
  res.json({ enabled: mode !== 'off' || enableNotifications, mode, websocket_url: '/ws/updates' });
};

export const subscribePush: Handler<'subscribePush'> = async () => {
  throw invalid('Push notifications not enabled. Set PUSH_NOTIFICATIONS=full');
};

export const unsubscribePush: Handler<'unsubscribePush'> = async () => {
  throw invalid('Push notifications not enabled');
};
