/** `serve`: the viewer (HTTP API and WebSocket) on VIEWER_PORT. */

import { defineCommand } from '../../common/cli/command';
import { createLogger } from '../../common/logger';

export const serve = defineCommand()({
  name: 'serve',
  summary: 'run the viewer (HTTP API) on VIEWER_PORT (default 8000)',
  options: {},
  async run(ctx) {
    // Loaded here: the viewer's modules are not needed by the other commands.
    const { start } = await import('../main');
    const { closeOnSignals } = await import('../../common/serve');
    // The signal handler comes first: a SIGTERM that arrives while the viewer is still starting (the port
    // already answers) waits for the start, then closes it, instead of killing the process outright.
    const viewer = start(ctx.env);
    closeOnSignals(createLogger('archive'), async () => (await viewer).close());
    await viewer;
    return -1;
  },
});
