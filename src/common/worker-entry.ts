/**
 * Starts a worker thread on one of the project's own modules, however the project runs: compiled (the
 * image: `npm run build` writes each worker's entry point beside the server bundle, `dist/server/<name>.js`)
 * or from TypeScript (`npm start`, tests), where the new thread registers the same TypeScript loader
 * before it imports the source file.
 */
import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { ROOT } from './services';

/** Replaced by `true` in the compiled bundle (scripts/build.ts). */
declare const SPECYARD_BUNDLE: boolean | undefined;
const bundled = typeof SPECYARD_BUNDLE !== 'undefined' && SPECYARD_BUNDLE;

/** The compiled entry point of a worker, as scripts/build.ts names it. */
export const bundledWorkerPath = (name: string) => path.join(ROOT, 'dist', 'server', `${name}.js`);

export function startWorker(name: string, source: URL, options: WorkerOptions = {}): Worker {
  if (bundled) return new Worker(bundledWorkerPath(name), options);
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
