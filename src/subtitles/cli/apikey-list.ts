/** `apikey list`: the API keys by id, name and first characters. */
import { defineCommand } from '../../common/cli/command';
import { listApiKeys } from '../domain/accounts';
import { type SubtitlesContext, withStore } from './context';

export const apikeyList = defineCommand<SubtitlesContext>()({
  name: 'apikey list',
  summary: 'list the API keys (id, name, first characters)',
  options: {},
  async run(ctx) {
    const keys = await withStore(ctx.env, (store) => listApiKeys(store));
    ctx.out('ID\tNAME\tKEY\tCREATED\tLAST USED');
    for (const k of keys)
      ctx.out(`${k.id}\t${k.name}\t${k.keyPrefix}…\t${k.createdAt}\t${k.lastUsedAt ?? 'never'}`);
    return 0;
  },
});
