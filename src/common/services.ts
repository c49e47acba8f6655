import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: documents and generated files are read relative to it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const SERVICES = ['subtitles', 'fuel', 'archive'] as const;
export type Service = (typeof SERVICES)[number];

export const DEFAULT_PORTS: Record<Service, number> = { subtitles: 8096, fuel: 3000, archive: 8000 };

export function isService(name: string | undefined): name is Service {
  return SERVICES.includes(name as Service);
}

export const bundledDocumentPath = (service: Service) =>
  path.join(ROOT, 'generated', service, 'openapi.json');
