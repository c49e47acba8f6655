/**
 * `npm run build`: compiles the services' entry points to JavaScript under dist/server/ so that a production
 * install runs without a TypeScript loader (the container image does). esbuild bundles the project's own
 * code and leaves every package import to node_modules.
 *
 * Source files find their data files (migrations, datasets, static assets) next to themselves through
 * `import.meta.url`. In a bundle that URL would be the bundle's, so each source file's `import.meta.url` is
 * rewritten to the URL its source file has relative to the bundle: the compiled code reads the same files
 * under src/ that the TypeScript does, and the image keeps those non-TypeScript files (see Dockerfile).
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ROOT } from '../src/common/services';

export const SERVER_OUT = path.join(ROOT, 'dist', 'server');

/** Entry points by output name: the one-process start and each service's command line. */
export const SERVER_ENTRIES: Record<string, string> = {
  main: 'src/main.ts',
  'archive-cli': 'src/archive/cli.ts',
  'fuel-cli': 'src/fuel/cli.ts',
  'subtitles-cli': 'src/subtitles/cli.ts',
  healthcheck: 'src/healthcheck.ts',
  // Worker threads (src/common/worker-entry.ts starts them from here when compiled).
  'fuel-scrape-worker': 'src/fuel/jobs/scrape-worker.ts',
  'fuel-positions-worker': 'src/fuel/store/positions-worker.ts',
  'archive-json-worker': 'src/archive/importers/desktop-json-worker.ts',
};

const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
      const fromOut = path.relative(SERVER_OUT, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

export async function buildServer(): Promise<void> {
  await rm(SERVER_OUT, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)]),
    ),
    outdir: SERVER_OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    define: { SPECYARD_BUNDLE: 'true' },
    plugins: [sourceUrls],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'scripts', 'build.ts')) {
  await buildServer();
  console.log(
    `built ${Object.keys(SERVER_ENTRIES).length} entry points into ${path.relative(ROOT, SERVER_OUT)}/`,
  );
}
