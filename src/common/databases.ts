/**
 * The one SQLite opener and the one PostgreSQL pool factory of the three services: the settings every
 * connection shares live here, what differs (busy timeout, pool size, cache) comes from the caller's config.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { privateDir, privateFile, tighten } from './file-modes';

export interface SqliteOpenOptions {
  /** How long a writer waits for the lock another connection holds (config; default 5 s). */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** Extra pragmas of one store, e.g. `cache_size = -65536`. */
  pragmas?: string[];
}

/**
 * Opens (creating its folder, 0700, and the file, 0600) an SQLite file: WAL journal (not for `:memory:` or read-only), NORMAL
 * synchronous (consistent through a crash in WAL mode, one fsync fewer per write), foreign keys on, and the
 * busy timeout of the config.
 */
export function openSqlite(file: string, options: SqliteOpenOptions = {}): Database.Database {
  const memory = file === ':memory:';
  if (!memory && !options.readonly) {
    // 0600 in a 0700 folder; SQLite gives its -wal and -shm files the database file's mode.
    const dir = path.dirname(path.resolve(file));
    if (!existsSync(dir)) privateDir(dir);
    privateFile(file);
    for (const journal of [`${file}-wal`, `${file}-shm`]) tighten(journal, 0o600);
  }
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    timeout: options.busyTimeoutMs ?? 5000,
  });
  try {
    if (!memory && !options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    for (const pragma of options.pragmas ?? []) db.pragma(pragma);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export interface PgPoolOptions {
  /** Largest number of pooled connections (default 10). */
  max?: number;
  /** How long to wait for a connection (config; default: pg's, none). */
  connectTimeoutMs?: number;
  /** Server settings sent at connect, e.g. `-c jit=off`. */
  options?: string;
  types?: pg.CustomTypesConfig;
  /** Told when an idle connection breaks (a database restart); the process keeps running either way. */
  onIdleError?: (error: Error) => void;
  /** Run on each new connection before its first use (awaited; a rejection fails that connect). */
  onConnect?: (client: pg.ClientBase) => Promise<void>;
}

/**
 * Sent at connect by every pool: PostgreSQL writes each float8 in the shortest text that reads back as the
 * same value, whatever the server or database sets (0 or less, which some older setups keep, writes 15
 * significant digits, and a coordinate or a price read back moves in its last digits).
 */
const EXACT_FLOATS = '-c extra_float_digits=1';

/** A pool on a PostgreSQL URL; a broken idle connection never takes the process down. */
export function createPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    options: options.options === undefined ? EXACT_FLOATS : `${EXACT_FLOATS} ${options.options}`,
    ...(options.types ? { types: options.types } : {}),
    ...(options.onConnect ? { onConnect: options.onConnect } : {}),
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'EPIPE',
]);
/** PostgreSQL's codes for a server going away or not taking connections now, and SQLite's lock timeout. */
const NOT_NOW = new Set(['57P01', '57P02', '57P03', '53300', 'SQLITE_BUSY']);

/**
 * Whether an error means the database cannot be reached now, an outage that passes (its connection refused
 * or cut, the server shutting down or starting, too many connections, a lock held past the busy timeout),
 * as against a query that fails, which a retry would not mend. Services answer the first 503 with
 * `Retry-After`, so a load balancer can tell it from a bug. Follows the error's causes.
 */
export function isDatabaseOutage(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined; e; ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNREACHABLE.has(code) || NOT_NOW.has(code) || code.startsWith('08')) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|timeout exceeded when trying to connect/i.test(message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Seconds a client is told to wait after an outage answer (`Retry-After`). */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
