/**
 * A database `archive-cli migrate` has not set up yet (no file, or an empty one): every command that reads
 * the archive says so in one line and exits 1, instead of the first table it fails to find.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../store/testing/databases';
import { cli, databaseEnv, FIXTURES, tempDir } from './test-cli';

const NO_SCHEMA = 'the database has no schema yet: run `archive-cli migrate`';
const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['a missing SQLite file', () => path.join(dir, 'missing.db')],
  [
    'an empty SQLite file',
    () => {
      const file = path.join(dir, `empty-${Math.random().toString(36).slice(2)}.db`);
      writeFileSync(file, '');
      return file;
    },
  ],
])('on %s', (_case, database) => {
  it.each([
    [['list-chats'], 'List chats failed'],
    [['stats'], 'Stats failed'],
    [['export', '-o', path.join(dir, 'out.json')], 'Export failed'],
    [['backup'], 'Backup failed'],
    [['fill-gaps'], 'Gap-fill failed'],
    [['import', '-p', path.join(FIXTURES, 'tg2md-channel')], 'Import failed'],
  ])('%j says the schema is missing, in one line, exit 1', async (args, prefix) => {
    const result = await cli(args, {
      DATABASE_PATH: database(),
      MSGR_API_ID: '1',
      MSGR_API_HASH: 'hash',
      MSGR_PHONE: '+15550001',
      LOG_LEVEL: 'ERROR',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`${prefix}: ${NO_SCHEMA}`);
  });
});

describe('on an empty PostgreSQL database', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  it.each([
    [['list-chats'], 'List chats failed'],
    [['backup'], 'Backup failed'],
  ])('%j says the schema is missing, in one line, exit 1', async (args, prefix) => {
    database ??= await createTestDatabase('postgresql');
    const result = await cli(args, {
      ...databaseEnv(database.config),
      MSGR_API_ID: '1',
      MSGR_API_HASH: 'hash',
      MSGR_PHONE: '+15550001',
      LOG_LEVEL: 'ERROR',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`${prefix}: ${NO_SCHEMA}`);
  });
});
