/** `serve`: the HTTP server (migrating the store first), until a signal. */
import { defineCommand } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { closeOnSignals } from '../../common/serve';
import { start } from '../main';

export async function serveCommand(env: Env): Promise<void> {
  const running = await start(env);
  closeOnSignals(running.logger, running.close);
}

export const serve = defineCommand()({
  name: 'serve',
  summary: 'start the HTTP server (migrates the store first)',
  options: {},
  run: async (ctx) => {
    await serveCommand(ctx.env);
    return -1;
  },
});
