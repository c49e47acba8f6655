import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../common/services';
import { COMMANDS } from './cli/commands';

const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-archive-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'src/archive/cli.ts'), ...args],
    { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Each run starts a TypeScript process (several seconds on a loaded machine).
describe('archive-cli', { timeout: 90_000 }, () => {
  it('prints help without a command', () => {
    const help = cli([]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: archive-cli');
  });

  it('names an unknown command, after a short usage line, exit 2', () => {
    // Named also after the global option (two runs only: each starts a TypeScript process).
    const unknown = cli(['--data-dir', path.join(dir, 'data'), 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim().split('\n')).toEqual([
      'usage: archive-cli [--data-dir PATH] <command>',
      `archive-cli: error: unknown command "frobnicate" (choose from ${COMMANDS.map((c) => c.name).join(', ')})`,
    ]);
    const later = cli(['backup']);
    expect(later.code).toBe(2);
    expect(later.stderr).toContain('command "backup" is not available in this build');
  });

  it('migrates, saying so, and fails with the seed message', () => {
    const env = { DATABASE_PATH: path.join(dir, 'archive.db') };
    const first = cli(['migrate'], env);
    expect(first.stdout.trim(), first.stderr).toBe('Database schema is up to date.');
    expect(first.code).toBe(0);
    expect(cli(['migrate'], env).code).toBe(0);
    const bad = cli(['migrate'], { DB_TYPE: 'oracle' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Migration failed: unrecognised database configuration/);
  });
});
