import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { privateFileModes } from '../src/common/file-modes';
import { isService, ROOT, SERVICES } from '../src/common/services';

/**
 * `npm run <task> -- <service> [variant] [args]` runs scripts/<task>/<service>.ts (or
 * scripts/<task>/<service>-<variant>.ts) with the remaining arguments.
 * Each service adds its own file; a service without one says so.
 */
export async function dispatch(task: string, argv = process.argv.slice(2)): Promise<void> {
  const [service, ...rest] = argv;
  // Demo data and migrated databases are private like every data file (src/common/file-modes.ts).
  privateFileModes();
  if (!isService(service)) {
    console.error(`usage: npm run ${task} -- <${SERVICES.join('|')}> [options]`);
    process.exit(2);
  }
  // A word after the service names a variant: `npm run bench -- fuel ingest` → scripts/bench/fuel-ingest.ts.
  const [word, ...afterWord] = rest;
  const variant =
    word && !word.startsWith('-') ? path.join(ROOT, 'scripts', task, `${service}-${word}.ts`) : '';
  const [file, args] =
    variant && existsSync(variant)
      ? [variant, afterWord]
      : [path.join(ROOT, 'scripts', task, `${service}.ts`), rest];
  if (!existsSync(file)) {
    console.error(`${service} has no ${task} yet`);
    process.exit(1);
  }
  process.argv = [process.argv[0] ?? 'node', file, ...args];
  await import(pathToFileURL(file).href);
}
