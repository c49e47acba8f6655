/** `healthcheck-backup`: healthy while the scheduler's heartbeat file is younger than the limit. */
import { statSync } from 'node:fs';
import { defineCommand } from '../../common/cli/command';
import { intVar, scopedEnv, stringVar } from '../../common/env';

export const DEFAULT_HEARTBEAT_FILE = '/tmp/telegram-archive.heartbeat';

export const healthcheckBackup = defineCommand()({
  name: 'healthcheck-backup',
  summary: 'exit 0 when HEARTBEAT_FILE is younger than HEARTBEAT_MAX_AGE_SECONDS (180), else 1',
  options: {},
  async run(ctx) {
    const env = scopedEnv(ctx.env, 'ARCHIVE_');
    const file = stringVar(env, 'HEARTBEAT_FILE', DEFAULT_HEARTBEAT_FILE);
    const maxAge = intVar(env, 'HEARTBEAT_MAX_AGE_SECONDS', 180, { min: 1 });
    let modified: number;
    try {
      modified = statSync(file).mtimeMs;
    } catch {
      ctx.io.err('Unhealthy: heartbeat file missing');
      return 1;
    }
    const age = Math.max(0, Math.round((Date.now() - modified) / 1000));
    if (age > maxAge) {
      ctx.io.err(`Unhealthy: heartbeat is ${age} seconds old (limit ${maxAge})`);
      return 1;
    }
    ctx.io.out(`Healthy: heartbeat is ${age} seconds old`);
    return 0;
  },
});
