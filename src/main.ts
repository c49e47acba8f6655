/**
 * `npm start`: every service on its own port. A service whose implementation has not landed yet is
 * served by its documented mock (Prism over the bundled document), so clients can work against it now.
 */
import { startPrism } from './common/prism';
import { DEFAULT_PORTS, SERVICES, type Service } from './common/services';

const PORT_VARIABLES: Record<Service, string> = {
  subtitles: 'SUBTITLES_PORT',
  fuel: 'FUEL_PORT',
  archive: 'VIEWER_PORT',
};

function portOf(service: Service): number {
  const name = PORT_VARIABLES[service];
  const raw = process.env[name];
  if (raw === undefined || raw === '') return DEFAULT_PORTS[service];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${name} must be a port number (1-65535), not "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const ports = SERVICES.map((service) => [service, portOf(service)] as const);
  const running = await Promise.all(
    ports.map(([service, port]) => startPrism(service, { host: process.env.HOST ?? '127.0.0.1', port })),
  );
  for (const [i, [service]] of ports.entries()) {
    console.log(`${service}: documented mock listening on ${running[i]?.url}`);
  }
  const stop = () => Promise.all(running.map((r) => r.stop())).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
