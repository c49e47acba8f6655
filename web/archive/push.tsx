/**
 * Notifications. `full` push mode: opt-in per chat, the service worker `/sw.js` is registered and
 * subscribed with the viewer's public key, and the subscription is sent to `/api/push/subscribe`. `basic`
 * mode: no Web Push; once allowed, the page itself shows a notification for each new message of the open
 * chat that arrives over its live connection while its tab is in the background.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, detail, type Schemas } from './api';

let pushConfig: Promise<Schemas['PushConfig'] | null> | undefined;
/** The viewer's push settings, asked for once per page. */
const loadPushConfig = () => {
  pushConfig ??= api.GET('/api/push/config').then((r) => r.data ?? null);
  return pushConfig;
};

const canNotify = () => typeof Notification !== 'undefined' && Notification.permission === 'granted';

/**
 * `basic` mode: a notification for a new message of the open chat, shown only while the tab is hidden
 * (a visible tab shows the message itself) and only once notifications are allowed.
 */
export async function notifyInTab(chatTitle: string, message: Schemas['Message']): Promise<void> {
  if (!document.hidden || !canNotify()) return;
  const config = await loadPushConfig();
  if (config?.mode !== 'basic') return;
  const what = message.text?.trim() || (message.media ? `[${message.media.type}]` : 'New message');
  const notification = new Notification(chatTitle, {
    body: message.sender_name ? `${message.sender_name}: ${what}` : what,
    tag: `message-${message.id}`,
  });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
}

function BasicNotifications() {
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  if (permission === 'unsupported') return <p class="muted small">This browser cannot show notifications.</p>;
  if (permission === 'granted')
    return (
      <p class="muted small" role="status">
        New messages of the open chat are notified while this tab is in the background.
      </p>
    );
  if (permission === 'denied') return <p class="muted small">Notifications are blocked for this site.</p>;
  return (
    <div class="push">
      <button
        type="button"
        onClick={() => void Notification.requestPermission().then((answer) => setPermission(answer))}
      >
        Notify me in this tab
      </button>
    </div>
  );
}

const base64ToBytes = (value: string) => {
  const padded = `${value}${'='.repeat((4 - (value.length % 4)) % 4)}`.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};

export function PushToggle(props: { chatRef: string }) {
  const [config, setConfig] = useState<Schemas['PushConfig'] | null>(null);
  const [subscribed, setSubscribed] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void loadPushConfig().then(setConfig);
    navigator.serviceWorker
      ?.getRegistration('/')
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setSubscribed(Boolean(sub)))
      .catch(() => undefined);
  }, []);
  if (!config) return null;
  if (config.mode === 'basic') return <BasicNotifications />;
  if (!config.enabled || config.mode !== 'full' || !config.vapid_public_key)
    return <p class="muted small">Push notifications are off on this viewer.</p>;
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
