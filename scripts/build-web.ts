/**
 * `npm run build:web [-- <service>...] [--if-stale]`: builds the web pages into `web/dist/<service>/`.
 * With `--if-stale` (what `npm start` runs) a page whose inputs have not changed is left as it is.
 */
import { parseArgs } from 'node:util';
import { buildPage, buildStale } from './web/build';
import { WEB_SERVICES, type WebService } from './web/build-config';

const USAGE = `usage: npm run build:web -- [${WEB_SERVICES.join('|')}]... [--if-stale]`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'if-stale': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) return console.log(USAGE);
  const unknown = positionals.filter((name) => !(WEB_SERVICES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown page ${unknown.join(', ')}\n${USAGE}`);
    process.exit(2);
  }
  const services = positionals.length > 0 ? (positionals as WebService[]) : WEB_SERVICES;
  if (values['if-stale']) {
    const built = await buildStale(services);
    console.log(built.length > 0 ? `web pages built: ${built.join(', ')}` : 'web pages up to date');
    return;
  }
  for (const service of services) {
    const started = Date.now();
    await buildPage(service);
    console.log(`web/${service} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
