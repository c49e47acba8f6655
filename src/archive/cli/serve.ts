/** `serve`: the viewer (HTTP API and WebSocket) on VIEWER_PORT. */
import { createLogger } from '../../common/logger';
import type { Command } from './command';

export const serve: Command = {
  name: 'serve',
  summary: 'run the viewer (HTTP API) on VIEWER_PORT (default 8000)',
  options: {},
  async run(ctx) {
    // Loaded here: the viewer's modules are not needed by the other commands.
    const { start } = await import('../main');
    const { closeOnSignals } = await import('../../common/serve');
    const viewer = await start(ctx.env);
    closeOnSignals(createLogger('archive'), viewer.close);
    return -1;
  },
};
