import { randomBytes } from 'node:crypto';
import {
  type ArchiveStore,
  type CreatedSession,
  DatabaseUnavailableError,
  type EndedSession,
  type NewSession,
  type Session,
  sessionIdOf,
} from '../store/store';

interface Cached {
  session: Session;
  checkedAt: number;
  /** Opened while the database was down: lives in this process only (see open). */
  local: boolean;
}

export type SessionInput = Omit<NewSession, 'lifetimeMs' | 'now'>;
export type EndedListener = (ended: EndedSession[]) => void;

/**
 * Sessions live in the database (they survive a restart and are shared by every viewer on it); this
 * process keeps a short cache in front. A cached session is re-read after `cacheMs`, so a session ended
 * by another viewer on the same database stops working here within that time (the seed allows 60 s).
 */
export class SessionManager {
  private readonly cache = new Map<string, Cached>();
  private readonly listeners: EndedListener[] = [];

  constructor(
    private readonly store: ArchiveStore,
    private readonly options: { lifetimeMs: number; cacheMs?: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private get cacheMs(): number {
    return this.options.cacheMs ?? 30_000;
  }

  /** Tells listeners (WebSockets, later) which sessions ended. */
  onEnded(listener: EndedListener): void {
    this.listeners.push(listener);
  }

  async open(input: SessionInput): Promise<CreatedSession> {
    const now = this.now();
    try {
      const created = await this.store.createSession({
        ...input,
        lifetimeMs: this.options.lifetimeMs,
        now: new Date(now),
      });
      this.cache.set(created.key, { session: created.session, checkedAt: now, local: false });
      this.forget(created.evicted);
      await this.purgeExpired(now);
      return created;
    } catch (error) {
      // The master credentials do not depend on the database: the seed lets the master log in while it
      // is down. Such a session lives in this process only, until expiry, logout or end-all.
      if (!(error instanceof DatabaseUnavailableError) || input.role !== 'master') throw error;
      const key = randomBytes(32).toString('base64url');
      const session: Session = {
        id: `local:${randomBytes(16).toString('hex')}`,
        username: input.username,
        role: input.role,
        allowedAccounts: null,
        allowedChatRefs: null,
        noDownload: false,
        viewerAccountId: null,
        sourceTokenId: null,
        createdAt: new Date(now),
        lastAccessedAt: new Date(now),
        expiresAt: new Date(now + this.options.lifetimeMs),
      };
      this.cache.set(key, { session, checkedAt: now, local: true });
      return { key, session, evicted: [] };
    }
  }

  /**
   * Removes the rows of sessions past their expiry, at each login (the only thing that adds rows), so the
   * table holds the live sessions and those expired since the last login. A failure here is no failed login.
   */
  private async purgeExpired(now: number): Promise<void> {
    try {
      this.forget(await this.store.purgeExpiredSessions(new Date(now)));
    } catch {
      // Tried again at the next login.
    }
  }

  /** The live session behind a cookie, or null (unknown, ended, expired). */
  async resolve(key: string): Promise<Session | null> {
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.session.expiresAt.getTime() <= now) {
      this.cache.delete(key);
      if (!cached.local) this.notify([endedOf(cached.session)]);
      return null;
    }
    if (cached && (cached.local || now - cached.checkedAt < this.cacheMs)) return cached.session;
    const session = await this.store.getSession(key, new Date(now));
    if (!session) {
      if (cached) {
        this.cache.delete(key);
        this.notify([endedOf(cached.session)]);
      }
      return null;
    }
    this.cache.set(key, { session, checkedAt: now, local: false });
    await this.store.touchSession(key, new Date(now));
    return session;
  }

  /** The session id behind a cookie (a session opened while the database was down has its own). */
  idOf(key: string): string {
    const cached = this.cache.get(key);
    return cached?.local ? cached.session.id : sessionIdOf(key);
  }

  /** Logout: ends the session behind the cookie (and the user's push subscriptions). */
  async end(key: string): Promise<EndedSession | null> {
    const cached = this.cache.get(key);
    this.cache.delete(key);
    if (cached?.local) {
      const ended = endedOf(cached.session);
      this.notify([ended]);
      return ended;
    }
    const ended = await this.store.endSession(key);
    if (ended) this.forget([ended]);
    return ended;
  }

  /** End-all: every session, the caller's kept when asked. */
  async endAll(keepKey: string | null): Promise<EndedSession[]> {
    const ended = await this.store.endAllSessions(keepKey ? { keepKey } : {});
    const local: EndedSession[] = [];
    for (const [key, entry] of this.cache) {
      if (entry.local && key !== keepKey) {
        this.cache.delete(key);
        local.push(endedOf(entry.session));
      }
    }
    this.forget(ended);
    if (local.length > 0) this.notify(local);
    return [...ended, ...local];
  }

  /** Drops sessions the store ended (admin changes) from the cache and tells listeners. */
  forget(ended: EndedSession[]): void {
    if (ended.length === 0) return;
    const ids = new Set(ended.map((e) => e.id));
    for (const [key, entry] of this.cache) {
      if (ids.has(entry.session.id)) this.cache.delete(key);
    }
    this.notify(ended);
  }

  private notify(ended: EndedSession[]): void {
    for (const listener of this.listeners) listener(ended);
  }
}

const endedOf = (s: Session): EndedSession => ({ id: s.id, username: s.username, role: s.role });
