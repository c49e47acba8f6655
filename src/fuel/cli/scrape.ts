/**
 * `scrape --country=KEYS`: the command line scraper tool (`npm run scrape -- --country=ES`). Declared here;
 * its run (scrape-run.ts) is loaded on demand, as serving and migrating need neither the scrapers nor
 * their feeds.
 */
import { defineCommand } from '../../common/cli/command';

export const scrape = defineCommand()({
  name: 'scrape',
  summary: 'run scrapers once (ES, ES,FR,PT, EV_PT, all); exit 1 when any failed',
  usage: 'usage: npm run scrape -- --country=<KEY[,KEY…]|all> [--once]',
  options: {
    country: { type: 'string', metavar: 'KEYS', help: 'the keys to run, comma-separated, or all' },
    once: { type: 'boolean', help: 'run once and exit (the only mode; the upstream tool takes it)' },
  },
  run: async (ctx, values) => {
    const { runScrapeCommand } = await import('./scrape-run');
    return runScrapeCommand(
      { country: values.country },
      { env: ctx.env, out: (line) => ctx.io.out(line), err: (line) => ctx.io.err(line) },
    );
  },
});
