import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Env, portVar, scopedEnv } from './env';

/** The repository root: documents and generated files are read relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const SERVICES = ['subtitles', 'fuel', 'archive'] as const;
export type Service = (typeof SERVICES)[number];

export const DEFAULT_PORTS: Record<Service, number> = { subtitles: 8096, fuel: 3000, archive: 8000 };

/** Each service's port variable and the prefix `npm start` scopes it by (`FUEL_PORT`, `ARCHIVE_VIEWER_PORT`). */
const PORT_VARIABLES: Record<Service, { prefix: string; name: string }> = {
  subtitles: { prefix: 'SUBTITLES_', name: 'SUBTITLES_PORT' },
  fuel: { prefix: 'FUEL_', name: 'PORT' },
  archive: { prefix: 'ARCHIVE_', name: 'VIEWER_PORT' },
};

/** The port a service listens on, read from the variables its own configuration reads. */
export function servicePort(service: Service, env: Env): number {
  const { prefix, name } = PORT_VARIABLES[service];
  return portVar(scopedEnv(env, prefix), name, DEFAULT_PORTS[service]);
}

export function isService(name: string | undefined): name is Service {
  return SERVICES.includes(name as Service);
}

export const bundledDocumentPath = (service: Service) =>
  path.join(ROOT, 'generated', service, 'openapi.json');
