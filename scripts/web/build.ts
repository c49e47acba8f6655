/**
 * Builds the web pages with Vite. `isStale` compares a fingerprint of every input (the page, the shared
 * code, the generated client of its service, the build configuration and the lock file) with the one
 * written beside the last build, so `npm start` and the browser tests rebuild only what changed.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'vite';
import { distOf, viteConfig, type WebService, webRoot } from './build-config';

const repoRoot = path.dirname(webRoot);
const STAMP = '.build-stamp';

function files(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') files(full, out);
    } else if (!entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** The build's own files: a change to one makes every page stale. */
const TOOLS = ['build-config.ts', 'favicon.ts', 'build.ts'].map((name) =>
  path.join(import.meta.dirname, name),
);
TOOLS.push(path.join(repoRoot, 'package-lock.json'));
for (const tool of TOOLS) if (!existsSync(tool)) throw new Error(`the page build's input ${tool} is missing`);

/** A hash of the inputs' names, sizes and contents. */
export function fingerprint(service: WebService): string {
  const inputs = [
    ...files(path.join(webRoot, service)),
    ...files(path.join(webRoot, 'shared')),
    ...files(path.join(repoRoot, 'generated', service)),
    // The archive page also reads the live updates' frames.
    ...(service === 'archive' ? files(path.join(repoRoot, 'generated', 'archive-updates')) : []),
    ...TOOLS,
  ].sort();
  const hash = createHash('sha256');
  for (const file of inputs) {
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    hash.update(path.relative(repoRoot, file));
    hash.update('\0');
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

export function isStale(service: WebService): boolean {
  const stamp = path.join(distOf(service), STAMP);
  if (!existsSync(stamp) || !existsSync(path.join(distOf(service), 'index.html'))) return true;
  return readFileSync(stamp, 'utf8').trim() !== fingerprint(service);
}

export async function buildPage(service: WebService): Promise<void> {
  const print = fingerprint(service);
  await build(viteConfig(service, { mode: 'production' }));
  writeFileSync(path.join(distOf(service), STAMP), `${print}\n`);
}

/** A lock older than this was left by a build that died; it is taken over. */
const ABANDONED_LOCK_MS = 5 * 60_000;

/**
 * Runs `work` holding a lock file beside the built pages, so that processes starting at once (the browser
 * test files run in parallel workers) do not build the same page together: a build empties the page's
 * folder, which would pull files from under a page another process is already showing.
 */
export async function withLockFile<T>(lock: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > ABANDONED_LOCK_MS) rmSync(lock, { force: true });
      else await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Builds each page whose inputs changed since its last build; answers the ones it built. */
export async function buildStale(services: readonly WebService[]): Promise<WebService[]> {
  const built: WebService[] = [];
  for (const service of services) {
    if (!isStale(service)) continue;
    // Another process may have built it while this one waited for the lock.
    const lock = path.join(path.dirname(distOf(service)), `.${service}.lock`);
    const rebuilt = await withLockFile(lock, async () => {
      if (!isStale(service)) return false;
      await buildPage(service);
      return true;
    });
    if (rebuilt) built.push(service);
  }
  return built;
}
