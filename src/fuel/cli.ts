/**
 * `npm run fuel -- <command>` (also the `fuel` bin):
 *   serve                 start the HTTP server (migrating the store first)
 *   migrate               apply pending database migrations
 *   scrape --country=ES   run scrapers once (`npm run scrape -- --country=ES`)
 */
import { ConfigError } from '../common/env';
import { privateFileModes } from '../common/file-modes';
import { migrateCommand, serveCommand } from './commands';

const USAGE = `usage: npm run fuel -- <command>
  serve                  start the HTTP server (migrates the store first)
  migrate                apply pending database migrations
  scrape --country=KEYS  run scrapers once (ES, ES,FR,PT, EV_PT, all); exit 1 when any failed`;

async function scrape(argv: string[]): Promise<void> {
  // Loaded on demand: serving and migrating do not need the scrapers and their feeds.
  const { runScrapeCommand } = await import('./cli/scrape');
  process.exitCode = await runScrapeCommand(argv);
}

async function main(argv: string[]): Promise<void> {
  privateFileModes();
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(process.env);
    case 'migrate':
      return migrateCommand(process.env);
    case 'scrape':
      return scrape(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      console.error(`Unknown command "${command}"\n${USAGE}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `fuel: ${error.message}` : error);
  process.exit(1);
});
