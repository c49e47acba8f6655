/** `user create NAME --password P [--admin]`: a user of the media server. */
import { defineCommand } from '../../common/cli/command';
import { createUser } from '../domain/accounts';
import { type SubtitlesContext, withStore } from './context';

export const userCreate = defineCommand<SubtitlesContext>()({
  name: 'user create',
  summary: 'add a user (an administrator with --admin)',
  options: {
    password: { type: 'string', required: true, metavar: 'PASSWORD', help: "the user's password" },
    admin: { type: 'boolean', help: 'make the user an administrator' },
  },
  positionals: { names: ['NAME'], min: 1 },
  async run(ctx, values, [name]) {
    const user = await withStore(ctx.env, (store) =>
      createUser(store, {
        name: name as string,
        password: values.password,
        isAdmin: values.admin === true,
      }),
    );
    ctx.out(`created ${user.isAdmin ? 'administrator' : 'user'} ${user.name}`);
    return 0;
  },
});
