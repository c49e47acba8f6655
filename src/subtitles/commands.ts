/**
 * The subtitles command line on the common kit (src/common/cli), each command declared once, as a
 * function of its arguments and environment (cli.ts runs it), so tests call it directly. Exit codes: 0
 * done, 1 failed (bad configuration included), 2 bad usage.
 */
import type { Command } from '../common/cli/command';
import { runProgram } from '../common/cli/program';
import type { Env } from '../common/env';
import { migrationLabel } from '../common/migrations';
import { loadConfig } from './config';
import { createApiKey, createUser, listApiKeys, revokeApiKey } from './domain/accounts';
import { InvalidInputError } from './domain/errors';
import { hostProbe, type Probe } from './domain/probe';
import { setupStatus } from './domain/setup-status';
import { start } from './main';
import { databasePath, migrateFile, openSqliteStore } from './store/sqlite';
import { DuplicateError } from './store/store';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export interface CliOptions {
  probe?: Probe;
  /** `serve` resolves once the server listens and hands it over here. */
  onServing?: (server: { url: string; close(): Promise<void> }) => void;
}

interface SubtitlesContext {
  env: Env;
  /** One line each (the newline is added). */
  out(line: string): void;
  err(line: string): void;
  options: CliOptions;
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

const COMMANDS: readonly Command<SubtitlesContext>[] = [
  {
    name: 'serve',
    summary: 'start the server (SUBTITLES_PORT, 8096 by default)',
    options: {},
    async run(ctx) {
      const server = await start(ctx.env);
      ctx.out(`subtitles listening on ${server.url}`);
      ctx.options.onServing?.(server);
      return 0;
    },
  },
  {
    name: 'migrate',
    summary: 'apply pending database migrations',
    options: {},
    async run(ctx) {
      const file = databasePath(loadConfig(ctx.env).dataDir);
      const applied = await migrateFile(file);
      ctx.out(
        applied.length === 0
          ? `${file}: up to date`
          : `${file}: applied ${applied.map(migrationLabel).join(', ')}`,
      );
      return 0;
    },
  },
  {
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
          password: values.password as string,
          isAdmin: values.admin === true,
        }),
      );
      ctx.out(`created ${user.isAdmin ? 'administrator' : 'user'} ${user.name}`);
      return 0;
    },
  },
  {
    name: 'apikey create',
    summary: 'add an API key (always an administrator) and print it',
    options: {},
    positionals: { names: ['NAME'], min: 1 },
    async run(ctx, _values, [name]) {
      const { key } = await withStore(ctx.env, (store) => createApiKey(store, name as string));
      ctx.out(key);
      return 0;
    },
  },
  {
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
  },
  {
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
  },
  {
    name: 'status',
    summary: "print the plugin's setup status as JSON",
    options: {},
    async run(ctx) {
      const config = loadConfig(ctx.env);
      const status = await setupStatus(ctx.options.probe ?? hostProbe(), {
        dataDir: config.dataDir,
        ...config.whisper,
      });
      ctx.out(JSON.stringify(status, null, 2));
      return 0;
    },
  },
];

export async function runCli(argv: string[], env: Env, io: Io, options: CliOptions = {}): Promise<number> {
  const out = (line: string) => io.out(`${line}\n`);
  const err = (line: string) => io.err(`${line}\n`);
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
      { out, err, errWrite: (chunk) => io.err(chunk) },
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
