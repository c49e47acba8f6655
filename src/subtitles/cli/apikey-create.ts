/** `apikey create NAME`: an API key (always an administrator), printed once. */
import { defineCommand } from '../../common/cli/command';
import { createApiKey } from '../domain/accounts';
import { type SubtitlesContext, withStore } from './context';

export const apikeyCreate = defineCommand<SubtitlesContext>()({
  name: 'apikey create',
  summary: 'add an API key (always an administrator) and print it',
  options: {},
  positionals: { names: ['NAME'], min: 1 },
  async run(ctx, _values, [name]) {
    const { key } = await withStore(ctx.env, (store) => createApiKey(store, name as string));
    ctx.out(key);
    return 0;
  },
});
