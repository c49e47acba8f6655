/** `status`: the plugin's setup status as JSON, as the diagnostics route reports it. */
import { defineCommand } from '../../common/cli/command';
import { loadConfig } from '../config';
import { hostProbe } from '../domain/probe';
import { setupStatus } from '../domain/setup-status';
import type { SubtitlesContext } from './context';

export const status = defineCommand<SubtitlesContext>()({
  name: 'status',
  summary: "print the plugin's setup status as JSON",
  options: {},
  async run(ctx) {
    const config = loadConfig(ctx.env);
    const status = await setupStatus(ctx.options.probe ?? hostProbe(), {
      dataDir: config.dataDir,
      ...config.whisper,
    });
    ctx.out(JSON.stringify(status, null, 2));
    return 0;
  },
});
