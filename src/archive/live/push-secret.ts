/**
 * The bearer secret of `/internal/push`: `INTERNAL_PUSH_SECRET`, or in SQLite mode the `.push-secret`
 * file beside the database, created on the viewer's first start (256 random bits, mode 0600) for the
 * backup container to read. PostgreSQL mode without the variable has no secret: loopback callers only.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ArchiveConfig } from '../config';

export const PUSH_SECRET_FILE = '.push-secret';

export function pushSecretPath(config: ArchiveConfig): string | null {
  const db = config.database;
  if (db.backend !== 'sqlite' || db.path === ':memory:') return null;
  return path.join(path.dirname(path.resolve(db.path)), PUSH_SECRET_FILE);
}

export function resolvePushSecret(config: ArchiveConfig): string | null {
  if (config.internalPushSecret) return config.internalPushSecret;
  const file = pushSecretPath(config);
  if (!file) return null;
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No directory beside a database that does not exist yet: no secret, loopback callers only.
    if (code === 'ENOENT') return null;
    if (code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  return secret.length > 0 ? secret : null;
}
