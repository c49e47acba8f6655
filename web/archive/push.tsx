/**
 * Push opt-in for one chat: the service worker `/sw.js` is registered and subscribed with the viewer's
 * public key, and the subscription is sent to `/api/push/subscribe`. Shown only in `full` push mode.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, detail, type Schemas } from './api';

const base64ToBytes = (value: string) => {
  const padded = `${value}${'='.repeat((4 - (value.length % 4)) % 4)}`.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};

export function PushToggle(props: { chatRef: string }) {
  const [config, setConfig] = useState<Schemas['PushConfig'] | null>(null);
  const [subscribed, setSubscribed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    api.GET('/api/push/config').then((r) => setConfig(r.data ?? null));
    navigator.serviceWorker
      ?.getRegistration('/')
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setSubscribed(Boolean(sub)))
      .catch(() => undefined);
  }, []);
  if (!config) return null;
  if (!config.enabled || config.mode !== 'full' || !config.vapid_public_key)
    return (
      <p class="muted small">
        {config.mode === 'basic'
          ? 'Notifications appear for the open chat while its tab is in the background.'
          : 'Push notifications are off on this viewer.'}
      </p>
    );
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    return <p class="muted small">This browser cannot receive push notifications.</p>;
  const key = config.vapid_public_key;
  const subscribe = async () => {
    setMessage(null);
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        setMessage('Notifications are blocked for this site.');
        return;
      }
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64ToBytes(key),
      });
      const json = subscription.toJSON();
      const result = await api.POST('/api/push/subscribe', {
        body: {
          endpoint: subscription.endpoint,
          keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
          chat_ref: props.chatRef,
        },
      });
      if (!result.data) throw new Error(detail(result));
      setSubscribed(true);
      setMessage('You will be notified of new messages in this chat.');
    } catch (error) {
      setMessage(`Not subscribed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const unsubscribe = async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await api.POST('/api/push/unsubscribe', { body: { endpoint: subscription.endpoint } });
      await subscription.unsubscribe();
    }
    setSubscribed(false);
    setMessage('Notifications turned off.');
  };
  return (
    <div class="push">
      {subscribed ? (
        <button type="button" onClick={() => void unsubscribe()}>
          Turn notifications off
        </button>
      ) : (
        <button type="button" onClick={() => void subscribe()}>
          Notify me of new messages
        </button>
      )}
      {message && (
        <p class="muted small" role="status">
          {message}
        </p>
      )}
    </div>
  );
}
