/**
 * `npm run dev:web -- <service> [--mock] [--port N] [--api URL]`: serves a web page with hot reload
 * (Vite), its API calls proxied to the running service (default: the service's own port on 127.0.0.1)
 * or, with `--mock`, to a Prism mock of the service's document started here.
 */
import { parseArgs } from 'node:util';
import { createServer, type ProxyOptions } from 'vite';
import { DEFAULT_PORTS } from '../src/common/services';
import { startPrism } from './prism';
import { viteConfig, WEB_SERVICES, type WebService } from './web/build-config';

const USAGE = `usage: npm run dev:web -- <${WEB_SERVICES.join('|')}> [--mock] [--port N] [--api URL]`;

/** The path prefixes each page calls. */
const API_PREFIXES: Record<WebService, string[]> = {
  archive: ['/api', '/auth', '/media', '/ws', '/sw.js'],
  fuel: ['/api'],
  subtitles: ['/Plugins', '/System', '/Users', '/web'],
};

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      mock: { type: 'boolean' },
      port: { type: 'string', default: '5173' },
      api: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(USAGE);
  const [service] = positionals;
  if (!service || positionals.length > 1 || !(WEB_SERVICES as readonly string[]).includes(service)) {
    console.error(USAGE);
    process.exit(2);
  }
  const page = service as WebService;
  const mock = values.mock ? await startPrism(page, { host: '127.0.0.1' }) : undefined;
  const target = mock?.url ?? values.api ?? `http://127.0.0.1:${DEFAULT_PORTS[page]}`;
  const proxy: Record<string, ProxyOptions> = {};
  for (const prefix of API_PREFIXES[page])
    proxy[prefix] = { target, changeOrigin: true, ws: prefix === '/ws' };
  const server = await createServer(
    viteConfig(page, {
      mode: 'development',
      server: { host: '127.0.0.1', port: Number(values.port), strictPort: true, proxy },
    }),
  );
  await server.listen();
  console.log(`web/${page} on ${server.resolvedUrls?.local[0] ?? values.port}, API at ${target}`);
  const stop = async () => {
    await server.close();
    await mock?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
