/**
 * Web Push (mode `full`): VAPID keys from the environment or generated once and kept in the database's
 * metadata; on each new message an encrypted (aes128gcm) notification to every subscription that may see
 * the chat. Sending runs off the event path through a small queue: a push service's 404/410 removes the
 * subscription, 429 and 5xx are retried with back-off, anything else is logged and dropped.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { PushMode, VapidConfig } from '../config';
import {
  ALL_VISIBLE,
  type ArchiveStore,
  type ChatKey,
  type Message,
  type PushSubscriptionRow,
} from '../store/store';
import type { LiveEvent } from './events';
import { isPublicAddress, NotPublicAddressError, publicOnly, type Resolver } from './public-address';

const PUBLIC_KEY = 'vapid_public_key';
const PRIVATE_KEY = 'vapid_private_key';
const CONCURRENCY = 8;
const MAX_ATTEMPTS = 4;
const TIMEOUT_MS = 10_000;
const BODY_CHARS = 120;

export interface WebPushOptions {
  mode: PushMode;
  vapid: VapidConfig | null;
  store: ArchiveStore;
  logger: Logger;
  displayChatIds: number[] | null;
  /** Tests: accept http endpoints on loopback (the fake push service). */
  allowPrivateEndpoints?: boolean;
  /** How endpoint names are resolved before each send (default: the system's; tests give their own). */
  resolve?: Resolver;
  /** Back-off before retry n (1-based), in ms; tests shorten it. */
  backoffMs?: (attempt: number) => number;
}

export interface PushPayload {
  title: string;
  body: string;
  tag: string;
  chat_ref: string;
  url: string;
}

interface Job {
  subscription: PushSubscriptionRow;
  payload: string;
  attempt: number;
}

/**
 * Names that never lead to the public internet; an IP literal must be a public address. A name's final
 * dot (`localhost.`, the same name written absolute) is read away first.
 */
function privateHost(host: string): boolean {
  let h = host.replace(/^\[|\]$/g, '').toLowerCase();
  while (h.endsWith('.')) h = h.slice(0, -1);
  if (isIP(h) !== 0) return !isPublicAddress(h);
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal'))
    return true;
  return !h.includes('.');
}

/**
 * An https URL on a public host and the https port (browsers' push services all listen on 443; tests may
 * allow http on loopback). Checked when a subscription is saved; the address a name resolves to is
 * checked again at every send (postToEndpoint).
 */
export function validEndpoint(endpoint: string, allowPrivate = false): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:';
  return url.protocol === 'https:' && url.port === '' && !privateHost(url.hostname);
}

/**
 * Posts one notification. The endpoint's name is resolved when connecting and the connection goes only to
 * a public address (`lookup`, from publicOnly); an IP literal is checked here, since no lookup is made for
 * it. No lookup: private endpoints allowed (tests).
 */
function postToEndpoint(
  details: { endpoint: string; method: string; headers: Record<string, unknown>; body: Buffer | null },
  lookup: LookupFunction | null,
): Promise<{ status: number; retryAfter: string | null }> {
  const url = new URL(details.endpoint);
  if (lookup && (url.protocol !== 'https:' || privateHost(url.hostname))) {
    return Promise.reject(new NotPublicAddressError(`${url.hostname} is not a public address`));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: details.method,
        headers: details.headers as Record<string, string>,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(lookup && { lookup }),
      },
      (res) => {
        res.resume();
        res.once('end', () => {
          const header = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: typeof header === 'string' ? header : null });
        });
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(details.body ?? undefined);
  });
}

function visibleTo(sub: PushSubscriptionRow, chat: ChatKey, displayChatIds: number[] | null): boolean {
  if (sub.chatRef !== null && sub.chatRef !== chat.ref) return false;
  return (
    (sub.allowedAccounts === null || sub.allowedAccounts.includes(chat.accountId)) &&
    (sub.allowedChatRefs === null || sub.allowedChatRefs.includes(chat.ref)) &&
    (displayChatIds === null || displayChatIds.includes(chat.chatId))
  );
}

export class WebPush {
  private keys: { publicKey: string; privateKey: string; subject: string } | null = null;
  private readonly queue: Job[] = [];
  private running = 0;
  private preparing = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];
  /** Notifications accepted by push services (tests, benchmark). */
  delivered = 0;

  private readonly lookup: LookupFunction;

  constructor(private readonly options: WebPushOptions) {
    this.lookup = publicOnly(options.resolve);
  }

  /** Loads or creates the VAPID keys (mode `full` only). */
  async start(): Promise<void> {
    if (this.options.mode !== 'full') return;
    if (this.options.vapid) {
      this.keys = { ...this.options.vapid };
      return;
    }
    const { store } = this.options;
    let publicKey = await store.getMetadata(PUBLIC_KEY);
    let privateKey = await store.getMetadata(PRIVATE_KEY);
    if (!publicKey || !privateKey) {
      const generated = webpush.generateVAPIDKeys();
      await store.setMetadata(PRIVATE_KEY, generated.privateKey);
      await store.setMetadata(PUBLIC_KEY, generated.publicKey);
      // Another viewer may have raced us: keep whatever the database holds now.
      publicKey = (await store.getMetadata(PUBLIC_KEY)) ?? generated.publicKey;
      privateKey = (await store.getMetadata(PRIVATE_KEY)) ?? generated.privateKey;
      this.options.logger.info('web push: generated VAPID keys');
    }
    this.keys = { publicKey, privateKey, subject: 'mailto:admin@localhost' };
  }

  get enabled(): boolean {
    return this.keys !== null;
  }

  get publicKey(): string | null {
    return this.keys?.publicKey ?? null;
  }

  get allowPrivateEndpoints(): boolean {
    return this.options.allowPrivateEndpoints === true;
  }

  /** The bus listener: never waits for a push service. */
  onEvent(event: LiveEvent): void {
    if (!this.enabled || event.type !== 'new_message') return;
    this.preparing++;
    void this.fanOut(event)
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'web push: could not prepare notifications'),
      )
      .finally(() => {
        this.preparing--;
        this.checkIdle();
      });
  }

  private async fanOut(event: LiveEvent): Promise<void> {
    const { store, displayChatIds } = this.options;
    const subscriptions = (await store.pushSubscriptionsFor(event.chat)).filter((s) =>
      visibleTo(s, event.chat, displayChatIds),
    );
    if (subscriptions.length === 0) return;
    const found = await store.findChat(ALL_VISIBLE, event.chat.ref);
    const chat = found?.chat;
    const title =
      chat?.title ?? ([chat?.first_name, chat?.last_name].filter(Boolean).join(' ') || 'New message');
    const message = event.data.message as Partial<Message> | undefined;
    const hasMedia = !!message?.media;
    const sender = message?.sender_name ?? '';
    const text = (message?.text ?? '').replace(/\s+/g, ' ').trim();
    const short = text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS - 1)}…` : text;
    const what = short || (hasMedia ? `[${message?.media?.type ?? 'media'}]` : '');
    const payload: PushPayload = {
      title,
      body: sender ? `${sender}: ${what}` : what,
      tag: `chat-${event.chat.ref}`,
      chat_ref: event.chat.ref,
      url: `/?chat=${encodeURIComponent(event.chat.ref)}`,
    };
    const body = JSON.stringify(payload);
    for (const subscription of subscriptions) {
      // A no-download login hears nothing about media.
      if (subscription.noDownload && hasMedia) continue;
      this.queue.push({ subscription, payload: body, attempt: 1 });
    }
    this.pump();
  }

  private pump(): void {
    while (this.running < CONCURRENCY && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      this.running++;
      void this.send(job).finally(() => {
        this.running--;
        this.pump();
        this.checkIdle();
      });
    }
    this.checkIdle();
  }

  private checkIdle(): void {
    if (this.preparing === 0 && this.running === 0 && this.queue.length === 0 && this.timers.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves when nothing is queued, sending or waiting to retry (tests). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkIdle();
    });
  }

  private async send(job: Job): Promise<void> {
    const keys = this.keys;
    if (!keys) return;
    const { subscription } = job;
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      job.payload,
      {
        vapidDetails: keys,
        TTL: 86_400,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
      },
    );
    const { store, logger } = this.options;
    let status: number;
    let retryAfter: string | null = null;
    try {
      ({ status, retryAfter } = await postToEndpoint(
        details,
        this.allowPrivateEndpoints ? null : this.lookup,
      ));
    } catch (error) {
      if (error instanceof NotPublicAddressError) {
        // A name that moved to a private address: the subscription is no push service's.
        await store.dropPushSubscription(subscription.endpoint).catch(() => undefined);
        logger.warn('web push: endpoint does not resolve to a public address, subscription removed');
        return;
      }
      status = 0;
    }
    if (status >= 200 && status < 300) {
      this.delivered++;
      await store.touchPushSubscription(subscription.endpoint).catch(() => undefined);
      return;
    }
    if (status === 404 || status === 410) {
      await store.dropPushSubscription(subscription.endpoint).catch(() => undefined);
      logger.info({ status }, 'web push: subscription gone, removed');
      return;
    }
    if ((status === 0 || status === 429 || status >= 500) && job.attempt < MAX_ATTEMPTS) {
      const seconds = Number(retryAfter);
      const wait =
        Number.isFinite(seconds) && seconds > 0
          ? Math.min(seconds * 1000, 300_000)
          : (this.options.backoffMs ?? ((n) => 1000 * 2 ** (n - 1)))(job.attempt);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.queue.push({ ...job, attempt: job.attempt + 1 });
        this.pump();
      }, wait);
      timer.unref();
      this.timers.add(timer);
      return;
    }
    logger.warn({ status, attempts: job.attempt }, 'web push: notification not delivered');
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
    this.checkIdle();
  }
}
