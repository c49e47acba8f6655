/**
 * The database part of the archive's configuration, per the seed: `DATABASE_URL` wins; otherwise
 * `DB_TYPE` (sqlite by default) with the SQLite file from `DATABASE_PATH`, `DB_PATH`, or
 * `archive.db` in `DATABASE_DIR` (default `DATA_DIR`, default `./data`). `DATABASE_TIMEOUT` is SQLite's
 * busy timeout in seconds. The `ARCHIVE_` prefix is applied by the caller (scopedEnv).
 */
import path from 'node:path';
import { ConfigError, type Env, numberVar, stringVar } from '../../common/env';

export type DatabaseConfig =
  | { backend: 'sqlite'; path: string; timeoutSeconds: number; echo: boolean }
  | { backend: 'postgresql'; url: string; timeoutSeconds: number; echo: boolean };

export const SQLITE_FILE_NAME = 'archive.db';

const UNRECOGNISED = 'unrecognised database configuration';

function fromUrl(url: string): { backend: 'sqlite'; path: string } | { backend: 'postgresql'; url: string } {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'postgres':
    case 'postgresql':
      return { backend: 'postgresql', url };
    case 'postgresql+asyncpg':
    case 'postgresql+psycopg2':
      return { backend: 'postgresql', url: url.replace(/^[^:]+:/, 'postgresql:') };
    case 'sqlite':
    case 'sqlite+aiosqlite': {
      // sqlite:///relative/file.db and sqlite:////absolute/file.db, as SQLAlchemy reads them.
      const rest = url.replace(/^[^:]+:/, '');
      const file = rest.startsWith('///') ? rest.slice(3) : rest.replace(/^\/\//, '');
      if (!file || file === ':memory:') throw new ConfigError(`${UNRECOGNISED}: DATABASE_URL has no file`);
      return { backend: 'sqlite', path: file };
    }
    case 'file': {
      const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
      if (!file) throw new ConfigError(`${UNRECOGNISED}: DATABASE_URL has no file`);
      return { backend: 'sqlite', path: file };
    }
    default:
      throw new ConfigError(
        `${UNRECOGNISED}: DATABASE_URL scheme "${scheme ?? url.split(':')[0]}" is not supported`,
      );
  }
}

export function parseDatabaseConfig(env: Env): DatabaseConfig {
  const timeoutSeconds = numberVar(env, 'DATABASE_TIMEOUT', 60, { min: 0 });
  const echo = stringVar(env, 'DB_ECHO')?.toLowerCase() === 'true';
  const type = stringVar(env, 'DB_TYPE', 'sqlite').toLowerCase();
  if (type !== 'sqlite' && type !== 'postgresql' && type !== 'postgres') {
    throw new ConfigError(`${UNRECOGNISED}: DB_TYPE must be sqlite, postgresql or postgres, not "${type}"`);
  }
  const url = stringVar(env, 'DATABASE_URL');
  if (url) return Object.freeze({ ...fromUrl(url), timeoutSeconds, echo });
  if (type !== 'sqlite') throw new ConfigError(`DATABASE_URL is required when DB_TYPE is ${type}`);
  const explicit = stringVar(env, 'DATABASE_PATH') ?? stringVar(env, 'DB_PATH');
  const dir = stringVar(env, 'DATABASE_DIR') ?? stringVar(env, 'DATA_DIR', './data');
  const file = explicit ?? path.join(dir, SQLITE_FILE_NAME);
  return Object.freeze({ backend: 'sqlite' as const, path: file, timeoutSeconds, echo });
}

/** For logs: the backend and, for SQLite, the file; never a URL (it may hold a password). */
export function describeDatabase(config: DatabaseConfig): Record<string, string> {
  return config.backend === 'sqlite' ? { backend: 'sqlite', path: config.path } : { backend: 'postgresql' };
}

/**
 * Where the archive keeps its files, resolved the same way for the viewer, the backup and every command
 * (README, "One data folder"): everything under `DATA_DIR` (`./data` in a checkout, `/data` in the image,
 * which sets it) unless a variable says otherwise. The `ARCHIVE_` prefix is applied by the caller.
 */
export interface ArchiveFolders {
  /** `DATA_DIR`, default `./data`. */
  dataDir: string;
  /**
   * Media files, avatars and thumbnails: `MEDIA_PATH`, else `BACKUP_PATH`, else `<DATA_DIR>/backups`.
   * Stored file paths are relative to it; whatever writes or serves a file uses this one folder.
   */
  mediaRoot: string;
  /** The platform session files: `SESSION_DIR`, default `<DATA_DIR>/session`. */
  sessionDir: string;
}

export function archiveFolders(env: Env): ArchiveFolders {
  const dataDir = stringVar(env, 'DATA_DIR', './data');
  return {
    dataDir,
    mediaRoot: stringVar(env, 'MEDIA_PATH') ?? stringVar(env, 'BACKUP_PATH') ?? path.join(dataDir, 'backups'),
    sessionDir: stringVar(env, 'SESSION_DIR') ?? path.join(dataDir, 'session'),
  };
}
