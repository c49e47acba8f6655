/**
 * Where events enter a viewer. SQLite mode: straight onto this viewer's bus (the backup posts to
 * `/internal/push`). PostgreSQL mode: every event travels as a notification on one channel, which every
 * viewer on the database LISTENs to, so each delivers it to its own sockets; a payload over NOTIFY's
 * 8,000-byte limit is stored in `live_events` and the notification carries its id (never truncated).
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { type ArchiveStore, type ChatKey, DatabaseUnavailableError } from '../store/store';
import { type EventBus, isWireEvent, type WireEvent } from './events';

export const LIVE_CHANNEL = 'archive_updates';
/** NOTIFY refuses payloads of 8,000 bytes or more; stay clear of it. */
export const NOTIFY_LIMIT_BYTES = 7_900;

/** The notification text for an event: the event itself, or `{ref}` to a stored copy. */
export async function notificationPayload(
  event: WireEvent,
  save: (payload: string) => Promise<number>,
): Promise<string> {
  const text = JSON.stringify(event);
  if (Buffer.byteLength(text, 'utf8') < NOTIFY_LIMIT_BYTES) return text;
  return JSON.stringify({ ref: await save(text) });
}

/** What the backup (or any writer) does in PostgreSQL mode to reach every viewer. */
export async function notifyViewers(
  client: { query(text: string, values: unknown[]): Promise<unknown> },
  store: Pick<ArchiveStore, 'saveLiveEvent'>,
  event: WireEvent,
): Promise<void> {
  const payload = await notificationPayload(event, (text) => store.saveLiveEvent(text));
  await client.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
}

const KEY_CACHE_MS = 60_000;

export interface PublisherOptions {
  store: ArchiveStore;
  bus: EventBus;
  logger: Logger;
  /** Set in PostgreSQL mode. */
  postgresUrl: string | null;
}

export class LivePublisher {
  private client: pg.Client | null = null;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly keys = new Map<string, { keys: ChatKey[]; at: number }>();
  /** Events received (after any read-back), for the benchmark's count. */
  received = 0;

  constructor(private readonly options: PublisherOptions) {}

  get mode(): 'local' | 'postgresql' {
    return this.options.postgresUrl ? 'postgresql' : 'local';
  }

  /**
   * Starts listening (PostgreSQL mode); resolves once LISTEN is in place, or once the first attempt failed
   * (a database that is down keeps the viewer up; the listener keeps retrying).
   */
  async start(): Promise<void> {
    try {
      await this.listen();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'live updates: database listener not connected; retrying');
      this.retry();
    }
  }

  private retry(): void {
    const again = () => {
      if (this.closed || this.client) return;
      this.listen().catch(() => setTimeout(again, 2_000).unref());
    };
    setTimeout(again, 1_000).unref();
  }

  private async listen(): Promise<void> {
    if (!this.options.postgresUrl || this.closed) return;
    const client = new pg.Client({ connectionString: this.options.postgresUrl });
    client.on('notification', (message) => {
      if (message.channel === LIVE_CHANNEL) this.enqueue(() => this.receive(message.payload ?? ''));
    });
    client.on('error', (error) => {
      this.options.logger.warn({ err: error }, 'live updates: database listener failed; reconnecting');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.retry();
  }

  /** Publishes an event to every viewer on the database (PostgreSQL) or to this one (SQLite). */
  async publish(event: WireEvent): Promise<void> {
    if (this.mode === 'postgresql') {
      const client = this.client;
      if (!client) throw new DatabaseUnavailableError('live updates: database listener not connected');
      await notifyViewers(client, this.options.store, event);
      return;
    }
    this.enqueue(() => this.deliver(event));
  }

  /** Events go onto the bus in the order they arrived. */
  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'live updates: event dropped');
    });
  }

  /** Waits until every event received so far is on the bus (tests, shutdown). */
  settled(): Promise<void> {
    return this.chain;
  }

  private async receive(payload: string): Promise<void> {
    let parsed: unknown = JSON.parse(payload);
    const ref = (parsed as { ref?: unknown }).ref;
    if (typeof ref === 'number') {
      const stored = await this.options.store.readLiveEvent(ref);
      if (stored === null) throw new Error('live updates: stored event not found');
      parsed = JSON.parse(stored);
    }
    if (!isWireEvent(parsed)) throw new Error('live updates: notification is not an event');
    await this.deliver(parsed);
  }

  private async deliver(event: WireEvent): Promise<void> {
    this.received++;
    const keys = await this.chatKeys(event.chat_id, event.account_id ?? null);
    // Several accounts holding the same chat id and no account named: the event cannot be placed.
    if (keys.length !== 1) return;
    const [chat] = keys as [ChatKey];
    this.options.bus.emit({ type: event.type, chat, data: event.data });
  }

  private async chatKeys(chatId: number, accountId: number | null): Promise<ChatKey[]> {
    const id = `${chatId}:${accountId ?? ''}`;
    const now = Date.now();
    const hit = this.keys.get(id);
    if (hit && now - hit.at < KEY_CACHE_MS) return hit.keys;
    const keys = await this.options.store.chatKeysOf(chatId, accountId);
    if (keys.length > 0) this.keys.set(id, { keys, at: now });
    return keys;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await this.chain;
    if (client) await client.end().catch(() => undefined);
  }
}
