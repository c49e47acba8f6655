import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { openSqlite } from '../../common/databases';
import { type Migration, migrateSqlite, readMigrations, runMigrations } from '../../common/migrations';
import {
  DuplicateError,
  jobKey,
  type NewJob,
  type NewSession,
  type QueueCounts,
  type QueueJob,
  type StoredApiKey,
  type StoredUser,
  type SubtitlesStore,
} from './store';

/** migrations/sqlite/NNN_name.sql (the host keeps its accounts and queue in SQLite only). */
const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type { Migration } from '../../common/migrations';

export function sqliteMigrations(): Migration[] {
  return readMigrations(path.join(MIGRATIONS, 'sqlite'));
}

/** Applies the numbered migrations not applied yet (the common runner); returns those applied. */
export function migrate(db: Database.Database): Migration[] {
  return migrateSqlite(db, sqliteMigrations());
}

/** `subtitles migrate` and `npm run migrate -- subtitles`: the same runner as fuel's and the archive's. */
export async function migrateFile(file: string): Promise<Migration[]> {
  const db = openSqlite(file);
  try {
    return await runMigrations({ backend: 'sqlite', db }, MIGRATIONS, 'specyard_subtitles_migrations');
  } finally {
    db.close();
  }
}

export const databasePath = (dataDir: string) => path.join(dataDir, 'subtitles.db');

/** Opens (creating it and its folder if needed) the host's database in the data folder, migrated. */
export function openSqliteStore(file: string): SqliteStore {
  const db = openSqlite(file);
  migrate(db);
  return new SqliteStore(db);
}

interface UserRow {
  id: string;
  name: string;
  password_hash: string;
  has_password: number;
  is_admin: number;
  created_at: string;
}

interface JobRow {
  id: number;
  path: string;
  language: string;
  item: string;
  source: 'request' | 'scan';
  attempts: number;
}

/** Last-use times are kept to the minute: a write per request would cost more than it tells. */
const stale = (last: string | null, at: string) =>
  last === null || Date.parse(at) - Date.parse(last) >= 60_000;

const toUser = (row: UserRow): StoredUser => ({
  id: row.id,
  name: row.name,
  passwordHash: row.password_hash,
  hasPassword: row.has_password === 1,
  isAdmin: row.is_admin === 1,
  createdAt: row.created_at,
});

const toJob = (row: JobRow): QueueJob => ({
  id: row.id,
  path: row.path,
  language: row.language,
  item: row.item,
  source: row.source,
  attempts: row.attempts,
});

export class SqliteStore implements SubtitlesStore {
  constructor(readonly db: Database.Database) {}

  async getSetting(key: string) {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  async setSetting(key: string, value: string) {
    this.db
      .prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  async createUser(user: StoredUser) {
    try {
      this.db
        .prepare(
          'INSERT INTO users (id, name, password_hash, has_password, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          user.id,
          user.name,
          user.passwordHash,
          user.hasPassword ? 1 : 0,
          user.isAdmin ? 1 : 0,
          user.createdAt,
        );
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new DuplicateError(`a user named ${user.name} already exists`);
      }
      throw error;
    }
  }

  async findUserByName(name: string) {
    const row = this.db.prepare('SELECT * FROM users WHERE name = ?').get(name) as UserRow | undefined;
    return row && toUser(row);
  }

  async findUserById(id: string) {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return row && toUser(row);
  }

  async listSessions(since: string | null) {
    const rows = this.db
      .prepare(
        `SELECT sessions.public_id, sessions.user_id, users.name, sessions.client, sessions.device,
           sessions.device_id, sessions.version, sessions.last_activity_at
         FROM sessions JOIN users ON users.id = sessions.user_id
         WHERE ? IS NULL OR sessions.last_activity_at >= ?
         ORDER BY sessions.last_activity_at DESC`,
      )
      .all(since, since) as Record<string, string | null>[];
    return rows.map((r) => ({
      id: String(r.public_id),
      userId: String(r.user_id),
      userName: String(r.name),
      client: r.client ?? null,
      device: r.device ?? null,
      deviceId: r.device_id ?? null,
      version: r.version ?? null,
      lastActivityAt: String(r.last_activity_at),
    }));
  }

  async listUsers() {
    return (this.db.prepare('SELECT * FROM users ORDER BY name').all() as UserRow[]).map(toUser);
  }

  async createApiKey(key: { name: string; keyHash: string; keyPrefix: string; createdAt: string }) {
    const result = this.db
      .prepare('INSERT INTO api_keys (name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?)')
      .run(key.name, key.keyHash, key.keyPrefix, key.createdAt);
    return Number(result.lastInsertRowid);
  }

  async listApiKeys(): Promise<StoredApiKey[]> {
    const rows = this.db
      .prepare('SELECT id, name, key_prefix, created_at, last_used_at FROM api_keys ORDER BY id')
      .all() as {
      id: number;
      name: string;
      key_prefix: string;
      created_at: string;
      last_used_at: string | null;
    }[];
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      keyPrefix: row.key_prefix,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  async useApiKey(keyHash: string, at: string) {
    const row = this.db.prepare('SELECT id, last_used_at FROM api_keys WHERE key_hash = ?').get(keyHash) as
      | { id: number; last_used_at: string | null }
      | undefined;
    if (!row) return false;
    if (stale(row.last_used_at, at)) {
      this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, row.id);
    }
    return true;
  }

  async deleteApiKeyByHash(keyHash: string) {
    return this.db.prepare('DELETE FROM api_keys WHERE key_hash = ?').run(keyHash).changes > 0;
  }

  async deleteApiKeyById(id: number) {
    return this.db.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
  }

  async openSession(session: NewSession) {
    return this.db.transaction(() => {
      const ended =
        session.deviceId === null
          ? 0
          : this.db
              .prepare('DELETE FROM sessions WHERE user_id = ? AND device_id = ?')
              .run(session.userId, session.deviceId).changes;
      this.db
        .prepare(
          `INSERT INTO sessions (public_id, token_hash, user_id, client, device, device_id, version, created_at, last_activity_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          session.id,
          session.tokenHash,
          session.userId,
          session.client,
          session.device,
          session.deviceId,
          session.version,
          session.createdAt,
          session.createdAt,
        );
      return ended;
    })();
  }

  async endSession(tokenHash: string) {
    return this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash).changes > 0;
  }

  async useSession(tokenHash: string, at: string) {
    const row = this.db
      .prepare(
        'SELECT users.*, sessions.id AS session_id, sessions.last_activity_at FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = ?',
      )
      .get(tokenHash) as (UserRow & { session_id: number; last_activity_at: string }) | undefined;
    if (!row) return undefined;
    if (stale(row.last_activity_at, at)) {
      this.db.prepare('UPDATE sessions SET last_activity_at = ? WHERE id = ?').run(at, row.session_id);
    }
    return toUser(row);
  }

  async enqueue(job: NewJob) {
    const result = this.db
      .prepare(
        `INSERT INTO queue_jobs (path, language, item, source, state, position, enqueued_at)
         VALUES (?, ?, ?, ?, 'queued', (SELECT COALESCE(MAX(position), 0) + 1 FROM queue_jobs), ?)
         ON CONFLICT (path, language) DO NOTHING`,
      )
      .run(job.path, job.language, job.item, job.source, job.enqueuedAt);
    return result.changes > 0;
  }

  async claimNext(worker: number, at: string) {
    const row = this.db
      .prepare(
        `UPDATE queue_jobs SET state = 'running', worker = ?, started_at = ?
         WHERE id = (SELECT id FROM queue_jobs WHERE state = 'queued' ORDER BY position LIMIT 1)
         RETURNING id, path, language, item, source, attempts`,
      )
      .get(worker, at) as JobRow | undefined;
    return row && toJob(row);
  }

  async requeue(id: number, attempts: number) {
    this.db
      .prepare(
        `UPDATE queue_jobs SET state = 'queued', worker = NULL, started_at = NULL, attempts = ?,
         position = (SELECT MAX(position) + 1 FROM queue_jobs) WHERE id = ?`,
      )
      .run(attempts, id);
  }

  async release(id: number) {
    this.db
      .prepare(`UPDATE queue_jobs SET state = 'queued', worker = NULL, started_at = NULL WHERE id = ?`)
      .run(id);
  }

  async finish(id: number) {
    this.db.prepare('DELETE FROM queue_jobs WHERE id = ?').run(id);
  }

  async listRunning() {
    return (
      this.db
        .prepare(
          `SELECT id, path, language, item, source, attempts FROM queue_jobs WHERE state = 'running' ORDER BY position`,
        )
        .all() as JobRow[]
    ).map(toJob);
  }

  async queueCounts(): Promise<QueueCounts> {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS queued, COALESCE(SUM(source = 'request'), 0) AS requests
         FROM queue_jobs WHERE state = 'queued'`,
      )
      .get() as { queued: number; requests: number };
    return { queued: row.queued, queuedRequests: row.requests };
  }

  async queuedKeys() {
    const rows = this.db.prepare('SELECT path, language FROM queue_jobs').all() as {
      path: string;
      language: string;
    }[];
    return new Set(rows.map((row) => jobKey(row.path, row.language)));
  }

  async close() {
    if (this.db.open) this.db.close();
  }
}
