/**
 * Low 10: data files are not world-readable. Databases (and their journal files) are 0600 in 0700
 * folders, whether the opener creates them or finds them looser; the command lines create whatever they
 * write with the same modes, whatever the umask they were started with.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../src/common/databases';
import { ROOT } from '../src/common/services';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const work = mkdtempSync(path.join(tmpdir(), 'specyard-modes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

describe('file modes', () => {
  it('the SQLite opener creates its folder 0700, the database and its journal files 0600', () => {
    const file = path.join(work, 'made', 'deeper', 'store.db');
    const db = openSqlite(file);
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect(modeOf(path.dirname(file))).toBe(0o700);
    for (const f of [file, `${file}-wal`, `${file}-shm`])
      expect({ f, mode: modeOf(f) }).toEqual({ f, mode: 0o600 });
    db.close();
  });

  it('tightens a database file made world-readable before', () => {
    const file = path.join(work, 'loose.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    openSqlite(file).close();
    expect(modeOf(file)).toBe(0o600);
  });

  it.each([
    ['archive', ['src/archive/cli.ts', 'migrate'], 'archive.db'],
    ['fuel', ['src/fuel/cli.ts', 'migrate'], 'fuel.db'],
  ])('the %s command line writes its data private under umask 022', (_service, args, db) => {
    const dataDir = path.join(work, `data-${_service}`);
    const run = spawnSync(
      'sh',
      ['-c', `umask 022 && exec "${path.join(ROOT, 'node_modules/.bin/tsx')}" "$@"`, 'sh', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(modeOf(path.join(dataDir, db))).toBe(0o600);
    for (const f of walk(dataDir)) {
      const mode = modeOf(f);
      expect({ f, open: mode & 0o077 }).toEqual({ f, open: 0 });
    }
  });
});
