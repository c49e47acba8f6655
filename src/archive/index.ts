/**
 * The archive's library entry point, like the seed's Python API: the backup configuration, one backup run,
 * and the platform implementations.
 *
 *   import { loadBackupConfig, runBackup } from './src/archive/index';
 *   await runBackup(loadBackupConfig());            // every configured account in turn
 *   await runBackup(config, connectedSession);      // only that session's account
 *
 * `runBackup` resolves with nothing; it throws only when every account failed (`AllAccountsFailedError`,
 * named RuntimeError as in the seed). It neither moves `media/_shared`, nor runs gap-fill, nor starts a
 * listener: those belong to the `backup` and `schedule` commands.
 */
import type { Logger } from '../common/logger';
import type { BackupConfig } from './backup/config';
import { runBackup as runEngine } from './backup/engine';
import type { Platform, PlatformSession } from './backup/platform';
import { openRuntime } from './backup/runtime';

export { type BackupConfig, loadBackupConfig } from './backup/config';
export { AllAccountsFailedError } from './backup/engine';
export { FakePlatform } from './backup/fake-platform';
export { GramJsPlatform } from './backup/gramjs/adapter';
export type { Platform, PlatformSession } from './backup/platform';

const notConnecting: Platform = {
  connect: () => Promise.reject(new Error('runBackup with a client connects no other account')),
  isAuthorized: async () => false,
  login: () => Promise.reject(new Error('not available')),
  sendCode: () => Promise.reject(new Error('not available')),
  verifyCode: () => Promise.reject(new Error('not available')),
};

export interface RunBackupOptions {
  /** The platform to connect through (default: GramJS with MSGR_API_ID/MSGR_API_HASH). */
  platform?: Platform;
  logger?: Logger;
  /** Aborting finishes the current chat, then the run stops. */
  signal?: AbortSignal;
}

/**
 * One backup run with this configuration. With `client` (a connected, authorised session) only that
 * session's account is backed up and the session stays connected; without it every configured account is
 * connected in turn.
 */
export async function runBackup(
  config: BackupConfig,
  client?: PlatformSession | null,
  options: RunBackupOptions = {},
): Promise<void> {
  // With a client the platform is never asked to connect: no API credentials are needed.
  const platform = options.platform ?? (client ? notConnecting : undefined);
  const runtime = await openRuntime(process.env, {
    config,
    ...(platform && { platform }),
    ...(options.logger && { logger: options.logger }),
  });
  try {
    await runEngine(
      { ...runtime, ...(options.signal && { signal: options.signal }) },
      client ? { session: client } : {},
    );
  } finally {
    await runtime.close();
  }
}
