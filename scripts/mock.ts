/**
 * `npm run mock -- <service|all> [--port N] [--host H]`: serves a service's bundled document with Prism,
 * on the service's own default port, so a client written for the real server works against it unchanged.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, SERVICES } from '../src/common/services';
import { startPrism } from './prism';

const USAGE = `usage: npm run mock -- <${SERVICES.join('|')}|all> [--port N] [--host H]`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean' },
    },
  });
  const [which] = positionals;
  if (values.help) return console.log(USAGE);
  const services = which === 'all' ? [...SERVICES] : SERVICES.filter((s) => s === which);
  if (services.length === 0 || positionals.length > 1 || (values.port && services.length > 1)) {
    console.error(USAGE);
    process.exit(2);
  }
  const port = values.port ? Number(values.port) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    console.error(`--port must be a port number, not ${values.port}\n${USAGE}`);
    process.exit(2);
  }
  const mocks = await Promise.all(
    services.map((service) =>
      startPrism(service, { host: values.host, port: port ?? DEFAULT_PORTS[service] }),
    ),
  );
  for (const [i, service] of services.entries()) console.log(`${service} mock listening on ${mocks[i]?.url}`);
  const stop = () => Promise.all(mocks.map((m) => m.stop())).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
