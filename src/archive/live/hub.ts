/**
 * The WebSocket hub of `/ws/updates` (asyncapi/archive-updates/asyncapi.yaml): admits sockets (Origin,
 * login, connection cap, in that order), answers client frames, fans bus events out to the sockets
 * subscribed to the chat whose login may see it, closes the sockets of ended sessions with 4001, and
 * terminates dead connections with protocol-level pings.
 */

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { ServerMessage } from '../../../generated/archive-updates/frames';
import { sameOriginRequest } from '../../common/http/origin';
import { onUpgrade } from '../../common/http/upgrade';
import { archiveWebSocketMetrics } from '../../common/metrics';
import { closeWebSockets } from '../../common/serve';
import { FileProbe, presentMessages } from '../domain/present';
import type { Principal } from '../domain/principal';
import { visibilityOf } from '../domain/principal';
import type { ArchiveStore, ChatKey, EndedSession, Message, Visibility } from '../store/store';
import type { LiveEvent } from './events';
import { isWholeMessage, withoutDownloads } from './message-view';

export const WS_PATH = '/ws/updates';

export interface HubOptions {
  store: ArchiveStore;
  logger: Logger;
  authenticate(req: IncomingMessage): Promise<Principal | null>;
  /** The stored session id behind a cookie (ended sessions are reported by id). */
  sessionIdOf(key: string): string;
  corsOrigins: '*' | string[];
  displayChatIds: number[] | null;
  maxConnections: number;
  /** Sockets one login may hold (a viewer, a share link, a proxy user; anonymous callers per address). */
  maxConnectionsPerLogin: number;
  maxSubscriptions: number;
  withTranscripts: boolean;
  /** The backup folder, to tell which avatar files exist (domain/present.ts). */
  backupPath: string;
  now: () => number;
  /** Protocol ping period; a socket that missed the previous ping is terminated. */
  heartbeatMs?: number;
  /** How often open sockets' sessions are checked against the database (other viewers end them). */
  sessionCheckMs?: number;
}

interface Client {
  ws: WebSocket;
  principal: Principal;
  /** Whose socket this is, for the per-login cap (see loginKey). */
  login: string;
  /** Stored id of the session behind the socket (null for proxy and anonymous logins). */
  sessionId: string | null;
  visibility: Visibility;
  subscriptions: Map<string, ChatKey>;
  alive: boolean;
}

const MAX_FRAME_BYTES = 64 * 1024;
/** Frames kept from a client whose login is still being checked; more are dropped. */
const MAX_EARLY_FRAMES = 32;

/** Whether the socket's login may see this chat (grants and DISPLAY_CHAT_IDS, in memory). */
function maySee(vis: Visibility, chat: ChatKey): boolean {
  return (
    (vis.accounts === null || vis.accounts.includes(chat.accountId)) &&
    (vis.chatRefs === null || vis.chatRefs.includes(chat.ref)) &&
    (vis.displayChatIds === null || vis.displayChatIds.includes(chat.chatId))
  );
}

/**
 * The login a socket counts against: the session's user (a viewer, the master, or a share link, whose
 * user is `token:<label>`), the proxy's user, or, for anonymous callers, who share one login, the address.
 */
function loginKey(principal: Principal, req: IncomingMessage): string {
  if (principal.via === 'anonymous') return `anonymous:${req.socket.remoteAddress ?? ''}`;
  return `${principal.via}:${principal.username ?? ''}`;
}

export class WsHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly clients = new Set<Client>();
  /** Open sockets per login (loginKey). */
  private readonly perLogin = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Frames sent to sockets (benchmark counts). */
  framesSent = 0;

  constructor(private readonly options: HubOptions) {
    this.timers.push(setInterval(() => this.heartbeat(), options.heartbeatMs ?? 30_000));
    this.timers.push(setInterval(() => void this.checkSessions(), options.sessionCheckMs ?? 30_000));
    for (const timer of this.timers) timer.unref();
  }

  get connections(): number {
    return this.clients.size;
  }

  /**
   * Takes over the WebSocket upgrades of `/ws/updates` on this HTTP server; other WebSocket upgrades are
   * refused. A request asking for another protocol (`Upgrade: h2c`, as Java's HTTP client sends on plain
   * http) is served as the ordinary HTTP/1.1 request it also is (src/common/http/upgrade.ts).
   */
  attach(server: Server): void {
    onUpgrade(server, (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== WS_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => void this.admit(ws, req));
    });
  }

  private async admit(ws: WebSocket, req: IncomingMessage): Promise<void> {
    ws.on('error', () => undefined);
    // Frames a client sends before its login is checked are kept and answered once it is admitted.
    const early: [RawData, boolean][] = [];
    const keep = (data: RawData, isBinary: boolean) => {
      if (early.length < MAX_EARLY_FRAMES) early.push([data, isBinary]);
    };
    ws.on('message', keep);
    if (!sameOriginRequest(req.headers, this.options.corsOrigins)) {
      ws.close(4003, 'Origin not allowed');
      return;
    }
    let principal: Principal | null = null;
    try {
      principal = await this.options.authenticate(req);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'websocket login failed');
    }
    if (!principal) {
      ws.close(4001, 'Not authenticated');
      return;
    }
    if (this.clients.size >= this.options.maxConnections) {
      ws.close(1013, 'Too many connections');
      return;
    }
    const login = loginKey(principal, req);
    if ((this.perLogin.get(login) ?? 0) >= this.options.maxConnectionsPerLogin) {
      ws.close(1013, 'Too many connections for this login');
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    const client: Client = {
      ws,
      principal,
      login,
      sessionId: principal.sessionKey ? this.options.sessionIdOf(principal.sessionKey) : null,
      visibility: visibilityOf(principal, this.options.displayChatIds),
      subscriptions: new Map(),
      alive: true,
    };
    this.clients.add(client);
    this.perLogin.set(login, (this.perLogin.get(login) ?? 0) + 1);
    archiveWebSocketMetrics.opened();
    ws.once('close', () => archiveWebSocketMetrics.closed());
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('close', () => {
      this.clients.delete(client);
      const left = (this.perLogin.get(login) ?? 1) - 1;
      if (left > 0) this.perLogin.set(login, left);
      else this.perLogin.delete(login);
    });
    ws.off('message', keep);
    ws.on('message', (data, isBinary) => void this.onFrame(client, data, isBinary));
    for (const [data, isBinary] of early) void this.onFrame(client, data, isBinary);
  }

  private send(client: Client, frame: ServerMessage | string): void {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    client.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    this.framesSent++;
    archiveWebSocketMetrics.sent(typeof frame === 'string' ? 'event' : frame.type);
  }

  private async onFrame(client: Client, data: RawData, isBinary: boolean): Promise<void> {
    let frame: unknown;
    try {
      if (isBinary) throw new Error('binary');
      frame = JSON.parse(data.toString());
    } catch {
      this.send(client, { type: 'error', error: 'invalid_json', detail: 'Frame is not valid JSON' });
      return;
    }
    if (!frame || typeof frame !== 'object' || Array.isArray(frame)) {
      this.send(client, { type: 'error', error: 'invalid_frame', detail: 'Frame must be a JSON object' });
      return;
    }
    const { action, chat_ref: ref } = frame as { action?: unknown; chat_ref?: unknown };
    if (action === 'ping') {
      this.send(client, { type: 'pong' });
      return;
    }
    if (action !== 'subscribe' && action !== 'unsubscribe') {
      this.send(client, {
        type: 'error',
        error: 'unknown_action',
        detail: 'Unknown action; expected subscribe, unsubscribe or ping',
      });
      return;
    }
    if (typeof ref !== 'string') {
      this.send(client, {
        type: 'error',
        error: 'invalid_frame',
        detail: `${action} needs a string chat_ref`,
      });
      return;
    }
    if (action === 'unsubscribe') {
      client.subscriptions.delete(ref);
      this.send(client, { type: 'unsubscribed', chat_ref: ref });
      return;
    }
    if (client.subscriptions.has(ref)) {
      this.send(client, { type: 'subscribed', chat_ref: ref });
      return;
    }
    if (client.subscriptions.size >= this.options.maxSubscriptions) {
      this.send(client, { type: 'subscribe_denied', chat_ref: ref, reason: 'subscription_limit' });
      return;
    }
    let found: Awaited<ReturnType<ArchiveStore['findChat']>> = null;
    try {
      found = await this.options.store.findChat(client.visibility, ref);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'websocket subscribe failed');
    }
    if (!found) {
      this.send(client, { type: 'subscribe_denied', chat_ref: ref, reason: 'not_found' });
      return;
    }
    if (client.subscriptions.size >= this.options.maxSubscriptions) {
      this.send(client, { type: 'subscribe_denied', chat_ref: ref, reason: 'subscription_limit' });
      return;
    }
    client.subscriptions.set(ref, found.key);
    this.send(client, { type: 'subscribed', chat_ref: ref });
  }

  private chain: Promise<void> = Promise.resolve();

  /** The bus listener: events are fanned out one after another, in the order they arrived. */
  enqueue(event: LiveEvent): void {
    this.chain = this.chain
      .then(() => this.deliver(event))
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'websocket delivery failed'));
  }

  /** Resolves once every event enqueued so far went out. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Fans one bus event out; message bodies are read once per view (full, no-download). */
  async deliver(event: LiveEvent): Promise<void> {
    const targets = [...this.clients].filter(
      (c) => c.subscriptions.has(event.chat.ref) && maySee(c.visibility, event.chat),
    );
    if (targets.length === 0) return;
    const frames = new Map<boolean, string | null>();
    for (const client of targets) {
      const noDownload = client.principal.noDownload;
      if (!frames.has(noDownload)) frames.set(noDownload, await this.frameFor(event, noDownload));
      const frame = frames.get(noDownload);
      if (frame) this.send(client, frame);
    }
  }

  private async frameFor(event: LiveEvent, noDownload: boolean): Promise<string | null> {
    const base = { type: event.type, chat_ref: event.chat.ref };
    if (event.type === 'transcript') {
      if (noDownload) return null;
      return JSON.stringify({ ...base, ...pick(event.data, ['message_id', 'transcript_id', 'status']) });
    }
    if (event.type !== 'new_message') {
      const fields: Record<string, readonly string[]> = {
        edit: ['message_id', 'new_text', 'edit_date'],
        delete: ['message_id', 'deletion_mode', 'deleted_at'],
        pin: ['message_ids', 'pinned'],
        reaction: ['message_id', 'reactions'],
      };
      return JSON.stringify({ ...base, ...pick(event.data, fields[event.type] ?? []) });
    }
    const sent = event.data.message as Message | undefined;
    const sentId = sent && Number.isInteger(sent.id) ? sent.id : null;
    const view = { withTranscripts: this.options.withTranscripts && !noDownload };
    let message: Message | null = null;
    if (sent && Number.isInteger(sent.id)) {
      const stored = await this.options.store.getMessage(event.chat, sent.id, view).catch(() => null);
      if (stored) {
        const audience = { noDownload, files: new FileProbe(this.options.backupPath) };
        [message = null] = await presentMessages([stored], event.chat, audience);
      }
    }
    if (!message) {
      // Not in the archive (yet): relayed only when it is a whole message, as the frame's schema says.
      if (!isWholeMessage(sent)) {
        this.options.logger.warn(
          { chat: event.chat.ref, message: sentId },
          'new_message not relayed: not in the archive and not a whole message',
        );
        return null;
      }
      message = noDownload ? withoutDownloads(sent) : sent;
    }
    return JSON.stringify({ ...base, message });
  }

  /** Closes the sockets of ended sessions with 4001 'Session revoked'. */
  revoke(ended: EndedSession[]): void {
    if (ended.length === 0) return;
    const ids = new Set(ended.map((e) => e.id));
    for (const client of this.clients) {
      if (client.sessionId && ids.has(client.sessionId)) this.end(client);
    }
  }

  private end(client: Client): void {
    this.clients.delete(client);
    client.ws.close(4001, 'Session revoked');
  }

  /** Drops sockets whose session ended elsewhere (another viewer) or expired. */
  async checkSessions(): Promise<void> {
    // Sessions opened while the database was down live in this process only; they end by notice.
    const withSession = [...this.clients].filter(
      (c) => c.sessionId !== null && !c.sessionId.startsWith('local:'),
    );
    if (withSession.length === 0) return;
    const ids = [...new Set(withSession.map((c) => c.sessionId as string))];
    let live: Set<string>;
    try {
      live = new Set(await this.options.store.liveSessionIds(ids, new Date(this.options.now())));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'websocket session check failed');
      return;
    }
    for (const client of withSession) {
      if (!live.has(client.sessionId as string)) this.end(client);
    }
  }

  private heartbeat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        this.clients.delete(client);
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }

  /** Shutdown: every socket gets the close code 1001 (going away), then the server closes. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await closeWebSockets({ clients: new Set([...this.clients].map((client) => client.ws)) });
    this.clients.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function pick(data: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, data[f]]));
}
