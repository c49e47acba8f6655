/**
 * Health of one running service, for the container image's HEALTHCHECK (`src/healthcheck.ts`):
 *
 * - archive serve / schedule: the archive's own scripts (`archive-cli healthcheck-viewer` and
 *   `healthcheck-backup`), as the archive seed gives them;
 * - fuel serve: GET /api/config answers 200 (it reads the store);
 * - subtitles serve: GET /System/Info/Public answers 200;
 * - all: the three servers of `specyard all`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TIMEOUT_MS = 5_000;

export interface Target {
  service: string;
  command: string;
}

/** The service and command a `specyard` command line runs (`… specyard.js archive serve` → archive/serve). */
export function targetOf(argv: string[]): Target | undefined {
  const at = argv.findIndex((arg) => /specyard(\.js)?$/.test(arg));
  const [service, command = 'serve'] = at >= 0 ? argv.slice(at + 1) : argv;
  return service ? { service, command } : undefined;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** The archive's own health scripts; the viewer's address follows VIEWER_PORT unless HEALTHCHECK_URL is set. */
function archiveScript(script: string, env: NodeJS.ProcessEnv): boolean {
  const bin = fileURLToPath(new URL('../../bin/archive-cli.js', import.meta.url));
  const url = env.HEALTHCHECK_URL ?? `http://127.0.0.1:${port(env, 'VIEWER_PORT', 8000)}/api/health`;
  return (
    spawnSync(process.execPath, [bin, script], {
      stdio: 'inherit',
      timeout: TIMEOUT_MS * 2,
      env: { ...env, HEALTHCHECK_URL: url },
    }).status === 0
  );
}

export async function healthy(target: Target, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const fuel = () => answers200(`http://127.0.0.1:${port(env, 'FUEL_PORT', 3000)}/api/config`);
  const subtitles = () =>
    answers200(
      `http://127.0.0.1:${port(env, 'SUBTITLES_PORT', 8096)}${env.SUBTITLES_BASE_PATH ?? ''}/System/Info/Public`,
    );
  switch (target.service) {
    case 'fuel':
      return fuel();
    case 'subtitles':
      return subtitles();
    case 'archive':
      return archiveScript(target.command === 'schedule' ? 'healthcheck-backup' : 'healthcheck-viewer', env);
    case 'all':
      return (
        await Promise.all([fuel(), subtitles(), Promise.resolve(archiveScript('healthcheck-viewer', env))])
      ).every(Boolean);
    default:
      return false;
  }
}
