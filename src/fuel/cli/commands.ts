/** The fuel command line's commands, each declared once (flags, help) for the common kit (src/common/cli). */
import type { Command } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { closeOnSignals } from '../../common/serve';
import { loadFuelConfig } from '../config';
import { start } from '../main';
import { describeLocation, migrateDatabase } from '../store/open';

/** Starts the server (migrating first) and keeps it running until a signal. */
export async function serveCommand(env: Env): Promise<void> {
  const running = await start(env);
  closeOnSignals(running.logger, running.close);
}

/** Applies the pending migrations, a line each (also `npm run migrate -- fuel`). */
export async function migrateCommand(env: Env, print: (line: string) => void = console.log): Promise<void> {
  const { database } = loadFuelConfig(env);
  const applied = await migrateDatabase(database);
  const where = describeLocation(database);
  if (applied.length === 0) print(`fuel: ${where} is up to date`);
  for (const m of applied)
    print(`fuel: applied migration ${String(m.version).padStart(3, '0')}_${m.name} to ${where}`);
}

export const FUEL_COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    summary: 'start the HTTP server (migrates the store first)',
    options: {},
    run: async (ctx) => {
      await serveCommand(ctx.env);
      return -1;
    },
  },
  {
    name: 'migrate',
    summary: 'apply pending database migrations',
    options: {},
    run: async (ctx) => {
      await migrateCommand(ctx.env, (line) => ctx.io.out(line));
      return 0;
    },
  },
  {
    name: 'scrape',
    summary: 'run scrapers once (ES, ES,FR,PT, EV_PT, all); exit 1 when any failed',
    usage: 'usage: npm run scrape -- --country=<KEY[,KEY…]|all> [--once]',
    options: {
      country: { type: 'string', metavar: 'KEYS', help: 'the keys to run, comma-separated, or all' },
      once: { type: 'boolean', help: 'run once and exit (the only mode; the upstream tool takes it)' },
    },
    run: async (ctx, values) => {
      // Loaded on demand: serving and migrating do not need the scrapers and their feeds.
      const { runScrapeCommand } = await import('./scrape');
      return runScrapeCommand(
        { country: values.country as string | undefined },
        { env: ctx.env, out: (line) => ctx.io.out(line), err: (line) => ctx.io.err(line) },
      );
    },
  },
];
