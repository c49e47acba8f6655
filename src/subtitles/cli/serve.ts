/** `serve`: the server, until a signal (the test suites take it over through onServing). */
import { defineCommand } from '../../common/cli/command';
import { start } from '../main';
import type { SubtitlesContext } from './context';

export const serve = defineCommand<SubtitlesContext>()({
  name: 'serve',
  summary: 'start the server (SUBTITLES_PORT, 8096 by default)',
  options: {},
  async run(ctx) {
    const server = await start(ctx.env);
    ctx.out(`subtitles listening on ${server.url}`);
    ctx.options.onServing?.(server);
    return 0;
  },
});
