/**
 * The subtitles command line, as a function of its arguments and environment (cli.ts runs it), so
 * tests call it directly. Exit codes: 0 done, 1 failed (bad configuration included), 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { ConfigError, type Env } from '../common/env';
import { migrationLabel } from '../common/migrations';
import { loadConfig } from './config';
import { createApiKey, createUser, listApiKeys, revokeApiKey } from './domain/accounts';
import { InvalidInputError } from './domain/errors';
import { hostProbe, type Probe } from './domain/probe';
import { setupStatus } from './domain/setup-status';
import { start } from './main';
import { databasePath, migrateFile, openSqliteStore } from './store/sqlite';
import { DuplicateError } from './store/store';

export const USAGE = `usage: npm run subtitles -- <command>

commands:
  serve                                     start the server (SUBTITLES_PORT, 8096 by default)
  migrate                                   apply pending database migrations
  user create <name> --password <p> [--admin]
                                            add a user (an administrator with --admin)
  apikey create <name>                      add an API key (always an administrator) and print it
  apikey list                               list the API keys (id, name, first characters)
  apikey revoke <key|id>                    revoke an API key
  status                                    print the plugin's setup status as JSON
`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export interface CliOptions {
  probe?: Probe;
  /** `serve` resolves once the server listens and hands it over here. */
  onServing?: (server: { url: string; close(): Promise<void> }) => void;
}

class UsageError extends Error {}

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>, positionals: number) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} argument(s), got ${parsed.positionals.length}`);
  }
  return parsed;
}

async function withStore<T>(
  env: Env,
  work: (store: ReturnType<typeof openSqliteStore>) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env);
  const store = openSqliteStore(databasePath(config.dataDir));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function dispatch(argv: string[], env: Env, io: Io, options: CliOptions): Promise<number> {
  const [command, sub, ...rest] = argv;
  const key =
    sub === undefined || command === 'serve' || command === 'status' || command === 'migrate'
      ? command
      : `${command} ${sub}`;
  const args = key === command ? argv.slice(1) : rest;
  switch (key) {
    case 'serve': {
      parse(args, {}, 0);
      const server = await start(env);
      io.out(`subtitles listening on ${server.url}\n`);
      options.onServing?.(server);
      return 0;
    }
    case 'migrate': {
      parse(args, {}, 0);
      const file = databasePath(loadConfig(env).dataDir);
      const applied = await migrateFile(file);
      io.out(
        applied.length === 0
          ? `${file}: up to date\n`
          : `${file}: applied ${applied.map(migrationLabel).join(', ')}\n`,
      );
      return 0;
    }
    case 'status': {
      parse(args, {}, 0);
      const config = loadConfig(env);
      const status = await setupStatus(options.probe ?? hostProbe(), {
        dataDir: config.dataDir,
        ...config.whisper,
      });
      io.out(`${JSON.stringify(status, null, 2)}\n`);
      return 0;
    }
    case 'user create': {
      const { positionals, values } = parse(
        args,
        { password: { type: 'string' }, admin: { type: 'boolean' } },
        1,
      );
      if (typeof values.password !== 'string')
        throw new UsageError('user create needs --password <password>');
      const user = await withStore(env, (store) =>
        createUser(store, {
          name: positionals[0] as string,
          password: values.password as string,
          isAdmin: values.admin === true,
        }),
      );
      io.out(`created ${user.isAdmin ? 'administrator' : 'user'} ${user.name}\n`);
      return 0;
    }
    case 'apikey create': {
      const { positionals } = parse(args, {}, 1);
      const { key: apiKey } = await withStore(env, (store) => createApiKey(store, positionals[0] as string));
      io.out(`${apiKey}\n`);
      return 0;
    }
    case 'apikey list': {
      parse(args, {}, 0);
      const keys = await withStore(env, (store) => listApiKeys(store));
      io.out('ID\tNAME\tKEY\tCREATED\tLAST USED\n');
      for (const k of keys) {
        io.out(`${k.id}\t${k.name}\t${k.keyPrefix}…\t${k.createdAt}\t${k.lastUsedAt ?? 'never'}\n`);
      }
      return 0;
    }
    case 'apikey revoke': {
      const { positionals } = parse(args, {}, 1);
      const revoked = await withStore(env, (store) => revokeApiKey(store, positionals[0] as string));
      if (!revoked) {
        io.err('no such API key\n');
        return 1;
      }
      io.out('revoked\n');
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given');
  }
}

export async function runCli(argv: string[], env: Env, io: Io, options: CliOptions = {}): Promise<number> {
  try {
    return await dispatch(argv, env, io, options);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof DuplicateError ||
      error instanceof InvalidInputError
    ) {
      io.err(`${error.message}\n`);
      return 1;
    }
    io.err(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
