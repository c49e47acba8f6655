/**
 * `config`: the configuration self-check entry point. It logs what it read (never the phone, never a
 * secret), prints 'Configuration error: <error>' on an invalid value and exits 0 either way.
 */

import { defineCommand, errorText } from '../../common/cli/command';
import { scopedEnv, stringVar } from '../../common/env';
import { loadConfig, loginModes } from '../config';
import { archiveFolders, describeDatabase } from '../store/config';
import { DEFAULT_SCHEDULE } from './status';

export const config = defineCommand()({
  name: 'config',
  summary: 'check the configuration and log a summary (never the phone); exit 0',
  options: {},
  async run(ctx) {
    try {
      const loaded = loadConfig(ctx.env);
      const env = scopedEnv(ctx.env, 'ARCHIVE_');
      const accounts = Object.keys(env).filter((k) => /^MSGR_ACCOUNT_\d+_PHONE$/.test(k)).length;
      ctx.logger.info(
        {
          database: describeDatabase(loaded.database),
          dataDir: archiveFolders(env).dataDir,
          mediaPath: archiveFolders(env).mediaRoot,
          sessionDir: archiveFolders(env).sessionDir,
          schedule: stringVar(env, 'SCHEDULE', DEFAULT_SCHEDULE),
          timezone: loaded.timezone,
          loginModes: loginModes(loaded.auth),
          phoneConfigured: Boolean(stringVar(env, 'MSGR_PHONE')) || accounts > 0,
          extraAccounts: accounts,
        },
        'configuration self-check passed',
      );
    } catch (error) {
      ctx.io.out(`Configuration error: ${errorText(error)}`);
    }
    return 0;
  },
});
