import type { Logger } from '../../common/logger';
import { createArchiveStore } from './archive-store';
import type { DatabaseConfig } from './config';
import type { Driver } from './driver';
import { PostgresDriver } from './postgres';
import { SqliteDriver } from './sqlite';
import type { ArchiveDatabase } from './store';

export function openDriver(
  config: DatabaseConfig,
  logger?: Logger,
  options: { readonly?: boolean } = {},
): Driver {
  const common = { timeoutSeconds: config.timeoutSeconds, echo: config.echo, logger, ...options };
  return config.backend === 'sqlite'
    ? new SqliteDriver({ path: config.path, ...common })
    : new PostgresDriver({ url: config.url, ...common });
}

/**
 * Opens the archive over the configured database. It never migrates: an unmigrated database answers
 * errors until `npm run migrate -- archive` (or the backup) has run.
 */
export async function openArchiveStore(
  config: DatabaseConfig,
  logger: Logger,
  options: { readonly?: boolean } = {},
): Promise<ArchiveDatabase> {
  return createArchiveStore(openDriver(config, logger, options));
}
