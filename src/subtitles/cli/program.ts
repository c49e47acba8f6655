/**
 * The subtitles command line on the common kit (src/common/cli): one file per command beside this one, as
 * a function of its arguments and environment (src/subtitles/cli.ts runs it), so tests call it directly.
 * Exit codes: 0 done, 1 failed (bad configuration included), 2 bad usage.
 */
import type { CliIo } from '../../common/cli/command';
import { runProgram } from '../../common/cli/program';
import type { Env } from '../../common/env';
import { InvalidInputError } from '../domain/errors';
import { DuplicateError } from '../store/store';
import { apikeyCreate } from './apikey-create';
import { apikeyList } from './apikey-list';
import { apikeyRevoke } from './apikey-revoke';
import type { CliOptions, SubtitlesContext } from './context';
import { migrate } from './migrate';
import { serve } from './serve';
import { status } from './status';
import { userCreate } from './user-create';

const COMMANDS = [serve, migrate, userCreate, apikeyCreate, apikeyList, apikeyRevoke, status];

export async function runCli(argv: string[], env: Env, io: CliIo, options: CliOptions = {}): Promise<number> {
  const out = (line: string) => io.out(line);
  const err = (line: string) => io.err(line);
  try {
    return await runProgram<SubtitlesContext>(
      {
        name: 'npm run subtitles --',
        label: 'subtitles',
        usage: 'usage: npm run subtitles -- <command>',
        commands: COMMANDS,
        context: () => ({ env, out, err, options }),
        configurationError: (error) => error.message,
      },
      argv,
      io,
    );
  } catch (error) {
    if (error instanceof DuplicateError || error instanceof InvalidInputError) {
      err(error.message);
      return 1;
    }
    err(`failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
