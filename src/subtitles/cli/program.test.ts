import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationLabel } from '../../common/migrations';
import { ROOT } from '../../common/services';
import { hostProbe } from '../domain/probe';
import { sqliteMigrations } from '../store/sqlite';
import { authHeader, type Fixture, makeFixture, writeModel } from '../test-support';
import { runCli } from './program';

let fixture: Fixture;
beforeEach(() => {
  fixture = makeFixture();
});
afterEach(() => fixture.remove());

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    fixture.env,
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), errWrite: (t) => (err += t) },
    { probe: hostProbe({ run: async () => ({ code: null, stdout: '' }) }) },
  );
  return { code, out, err };
}

describe('usage', () => {
  it('prints its help, each command with its summary, without a command', async () => {
    const { code, out, err } = await cli();
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^usage: npm run subtitles -- <command> \.\.\.$/m);
    for (const name of [
      'serve',
      'migrate',
      'user create',
      'apikey create',
      'apikey list',
      'apikey revoke',
      'status',
    ])
      expect(out).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it.each([
    [['frobnicate']],
    [['user']],
    [['user', 'delete', 'bob']],
    [['user', 'create', 'bob']],
    [['user', 'create', '--password', 'x']],
    [['user', 'create', 'bob', '--password']],
    [['user', 'create', 'bob', '--password', 'x', '--root']],
    [['apikey', 'create']],
    [['apikey', 'create', 'a', 'b']],
    [['apikey', 'revoke']],
    [['apikey', 'list', 'extra']],
    [['status', '--verbose']],
    [['migrate', 'now']],
  ])('%j prints the usage on stderr and exits 2', async (argv) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^usage: npm run subtitles -- .*\nsubtitles: error: .+\n$/);
  });
});

describe('migrate', () => {
  it('applies the pending migrations with the common runner, then finds nothing to do', async () => {
    const first = await cli('migrate');
    expect(first.code).toBe(0);
    const all = sqliteMigrations().map(migrationLabel).join(', ');
    expect(all).toMatch(/^001_accounts, 002_queue/);
    expect(first.out.endsWith(`subtitles.db: applied ${all}\n`)).toBe(true);
    expect((await cli('migrate')).out).toMatch(/subtitles\.db: up to date\n$/);
  });
});

describe('accounts', () => {
  it('creates users, and refuses a taken name', async () => {
    expect(await cli('user', 'create', 'alice', '--password', 's3cret', '--admin')).toEqual({
      code: 0,
      out: 'created administrator alice\n',
      err: '',
    });
    expect((await cli('user', 'create', 'bob', '--password', 'pw')).out).toBe('created user bob\n');
    expect(await cli('user', 'create', 'ALICE', '--password', 'x')).toEqual({
      code: 1,
      out: '',
      err: 'a user named ALICE already exists\n',
    });
  });

  it('creates, lists and revokes API keys, showing only their first characters', async () => {
    const created = await cli('apikey', 'create', 'Home Assistant');
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const second = (await cli('apikey', 'create', 'backup')).out.trim();

    const list = await cli('apikey', 'list');
    expect(list.out).toContain(`1\tHome Assistant\t${key.slice(0, 6)}…\t`);
    expect(list.out).toContain('\tnever\n');
    expect(list.out).not.toContain(key);

    expect(await cli('apikey', 'revoke', key)).toEqual({ code: 0, out: 'revoked\n', err: '' });
    expect(await cli('apikey', 'revoke', key)).toEqual({ code: 1, out: '', err: 'no such API key\n' });
    expect((await cli('apikey', 'revoke', '2')).code).toBe(0);
    expect((await cli('apikey', 'list')).out).not.toContain(second.slice(0, 6));
  });
});

describe('status', () => {
  it('prints the Setup/Status object', async () => {
    const model = writeModel(fixture.dataDir);
    const { code, out } = await cli('status');
    expect(code).toBe(0);
    const status = JSON.parse(out);
    expect(status).toMatchObject({
      SetupComplete: false,
      BinaryFound: false,
      ModelFound: true,
      ModelPath: model,
      InstalledVariant: '',
    });
    expect(Object.keys(status.Gpu)).toContain('RecommendedVariant');
  });

  it('exits 1 with the message on bad configuration', async () => {
    let err = '';
    const code = await runCli(
      ['status'],
      { ...fixture.env, SUBTITLES_LOCAL_WORKERS: 'many' },
      { out: () => {}, err: (t) => (err += `${t}\n`), errWrite: (t) => (err += t) },
    );
    expect(code).toBe(1);
    expect(err).toBe('SUBTITLES_LOCAL_WORKERS must be a whole number from 1 to 16, not "many"\n');
  });
});

describe('serve', () => {
  it('starts the server, which answers with a key made by the command line', async () => {
    const key = (await cli('apikey', 'create', 'serve test')).out.trim();
    let running: { url: string; close(): Promise<void> } | undefined;
    const code = await runCli(
      ['serve'],
      fixture.env,
      { out: () => {}, err: () => {}, errWrite: () => {} },
      { onServing: (s) => (running = s) },
    );
    expect(code).toBe(0);
    try {
      const res = await fetch(`${running?.url}/Plugins/Subtitles/Queue`, { headers: authHeader(key) });
      expect(res.status).toBe(200);
    } finally {
      await running?.close();
    }
  });
});

describe('the installed command', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/subtitles/cli.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...fixture.env, ...env },
        encoding: 'utf8',
      },
    );

  it('exits 2 with the usage on an unknown command, and 1 on bad configuration', () => {
    const unknown = run(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('subtitles: error: unknown command "frobnicate"');
    const bad = run(['apikey', 'list'], { SUBTITLES_SERVER_VERSION: 'eleven' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('SUBTITLES_SERVER_VERSION must be a version number');
  });
});
