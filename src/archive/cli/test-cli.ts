/** Running `archive-cli` in-process for the suites: captured output, an environment per database. */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../common/env';
import type { DatabaseConfig } from '../store/config';
import { FIXTURES_DIR } from './fixtures-dir';
import { runCli } from './run';

export const FIXTURES = FIXTURES_DIR;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], env: Env): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    {
      out: (text) => {
        stdout += `${text}\n`;
      },
      err: (text) => {
        stderr += `${text}\n`;
      },
      errWrite: (chunk) => {
        stderr += chunk;
      },
    },
    env,
  );
  return { code, stdout, stderr };
}

export function databaseEnv(config: DatabaseConfig): Env {
  return config.backend === 'sqlite' ? { DATABASE_PATH: config.path } : { DATABASE_URL: config.url };
}

export const tempDir = (prefix = 'specyard-archive-cli-') => mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * An export folder as the desktop app writes it, from a fixture: `files` maps fixture file names to the
 * export's own names (uploaders renamed some: index.html was messages.html, sample.json was result.json).
 */
export function exportFolder(
  sample: string,
  files: Record<string, string>,
  withFolders: string[] = [],
): string {
  const dir = tempDir('specyard-archive-export-');
  for (const [from, to] of Object.entries(files))
    copyFileSync(path.join(FIXTURES, sample, from), path.join(dir, to));
  for (const folder of withFolders) {
    mkdirSync(path.join(dir, folder), { recursive: true });
    cpSync(path.join(FIXTURES, sample, folder), path.join(dir, folder), { recursive: true });
  }
  return dir;
}
