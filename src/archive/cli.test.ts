import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../common/services';
import { backupCommands } from './cli/backup-commands';
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

  it('lists every command in its help, and refuses an unknown flag of a backup command with usage', () => {
    const help = cli(['--help']);
    for (const name of ['serve', 'migrate', ...backupCommands.map((c) => c.name)]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    const bad = cli(['fill-gaps', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('usage: archive-cli fill-gaps');
    const missing = cli(['backfill-topics']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the following arguments are required: -c/--chat-id');
  });

  it('fails at start when a chat id list holds a non-integer', () => {
    const env = {
      DATABASE_PATH: path.join(dir, 'bad-list.db'),
      MSGR_API_ID: '1',
      MSGR_API_HASH: 'hash',
      CHAT_IDS: '-100123,abc',
    };
    const result = cli(['backup'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("invalid literal for int() with base 10: 'abc'");
  });

  it('schedule stops cleanly on SIGTERM, exit 0', async () => {
    const heartbeat = path.join(dir, 'schedule.heartbeat');
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'src/archive/cli.ts'), 'schedule'],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_PATH: path.join(dir, 'schedule.db'),
          BACKUP_PATH: path.join(dir, 'schedule-backups'),
          HEARTBEAT_FILE: heartbeat,
          MSGR_API_ID: '1',
          MSGR_API_HASH: 'hash',
          SCHEDULE: '0 0 1 1 *',
        },
      },
    );
    let stdout = '';
    const started = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // No account is configured here: the scheduler migrates and waits (the in-process suite runs it
        // with a platform); either way SIGTERM ends it cleanly.
        if (/Scheduler (started|waiting)/.test(stdout)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await started;
    expect(existsSync(heartbeat)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('says in one line that the platform cannot be reached (auth, backup, fill-gaps), with the traces only at LOG_LEVEL=debug', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: path.join(dir, 'offline'),
      MSGR_API_ID: '12345',
      MSGR_API_HASH: '0123456789abcdef0123456789abcdef',
      MSGR_PHONE: '+15550001111',
    };
    expect(cli(['migrate'], env).code).toBe(0);
    const run = (args: string[], extra: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'src/archive/cli.ts'), ...args],
          { cwd: dir, env: { ...env, ...extra } },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
    // No network here: each command's connection fails (about five seconds of retries), all at once.
    const [auth, backup, gaps, debug] = await Promise.all([
      run(['auth']),
      run(['backup']),
      run(['fill-gaps']),
      run(['auth'], { LOG_LEVEL: 'debug' }),
    ]);
    const reason = 'cannot reach the messaging platform: no connection after 5 attempts; check the network';
    for (const [result, what] of [
      [auth, 'Authentication failed'],
      [backup, 'Backup failed'],
      [gaps, 'Gap-fill failed'],
    ] as const) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${what}: ${reason}\n`);
    }
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain('"stack":"PlatformUnreachableError');
    expect(debug.stderr.trim().split('\n').at(-1)).toBe(`Authentication failed: ${reason}`);
  }, 90_000);
});
