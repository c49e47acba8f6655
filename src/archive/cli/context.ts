/** What the commands share: the log level, the database, and where media files live. */

import { existsSync } from 'node:fs';
import { type Env, scopedEnv } from '../../common/env';
import { type Logger, logLevelVar } from '../../common/logger';
import { loadDatabaseConfig } from '../config';
import { archiveFolders, type DatabaseConfig } from '../store/config';
import { storageProblem } from '../store/errors';
import { NO_SCHEMA } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import type { ArchiveDatabase } from '../store/store';

/** `LOG_LEVEL` as the seed reads it: an unknown value becomes INFO. */
export function logLevel(env: Env): string {
  return logLevelVar(scopedEnv(env, 'ARCHIVE_'), { unknown: 'info' });
}

export function databaseConfig(env: Env): DatabaseConfig {
  return loadDatabaseConfig(env);
}

/**
 * The archive database of the command's settings. A command that needs the schema (`schema`, the default)
 * stops with NO_SCHEMA on a database without it, or a SQLite file that does not exist yet, instead of
 * failing on the first table it reads.
 */
export async function openDatabase(
  env: Env,
  logger: Logger,
  options: { readonly?: boolean; schema?: boolean } = {},
): Promise<ArchiveDatabase> {
  const config = databaseConfig(env);
  const needsSchema = options.schema ?? true;
  if (needsSchema && config.backend === 'sqlite' && !existsSync(config.path)) throw new Error(NO_SCHEMA);
  // DB_ECHO=true logs every statement (at INFO) whatever LOG_LEVEL says.
  const sqlLogger =
    config.echo && !logger.isLevelEnabled('info') ? logger.child({}, { level: 'info' }) : logger;
  const db = await openArchiveStore(config, sqlLogger, { readonly: options.readonly ?? false }).catch(
    (error: unknown) => {
      const where = config.backend === 'sqlite' ? `the database at ${config.path}` : 'the database';
      const problem = storageProblem(error, where);
      // The same error (a command may answer its kind in words of its own), saying what to do.
      if (problem && error instanceof Error) error.message = problem;
      throw error;
    },
  );
  if (needsSchema && (await db.schemaRevision()) === 0) {
    await db.close();
    throw new Error(NO_SCHEMA);
  }
  return db;
}

/**
 * Where media files live, resolved as the viewer and the backup resolve it (store/config.ts
 * `archiveFolders`): `MEDIA_PATH`, else `BACKUP_PATH` (`--data-dir` sets it), else `<DATA_DIR>/backups`.
 */
export function mediaRoot(env: Env): string {
  return archiveFolders(scopedEnv(env, 'ARCHIVE_')).mediaRoot;
}
