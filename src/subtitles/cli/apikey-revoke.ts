/** `apikey revoke KEY_OR_ID`: an API key revoked (exit 1 when there is none such). */
import { defineCommand } from '../../common/cli/command';
import { revokeApiKey } from '../domain/accounts';
import { type SubtitlesContext, withStore } from './context';

export const apikeyRevoke = defineCommand<SubtitlesContext>()({
  name: 'apikey revoke',
  summary: 'revoke an API key',
  options: {},
  positionals: { names: ['KEY_OR_ID'], min: 1 },
  async run(ctx, _values, [key]) {
    const revoked = await withStore(ctx.env, (store) => revokeApiKey(store, key as string));
    if (!revoked) {
      ctx.err('no such API key');
      return 1;
    }
    ctx.out('revoked');
    return 0;
  },
});
