import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../common/env';
import { describeDatabase, parseDatabaseConfig } from './config';

describe('parseDatabaseConfig', () => {
  it('defaults to SQLite in the data directory with a 60 second busy timeout', () => {
    expect(parseDatabaseConfig({})).toEqual({
      backend: 'sqlite',
      path: path.join('./data', 'archive.db'),
      timeoutSeconds: 60,
      echo: false,
    });
    expect(parseDatabaseConfig({ DATA_DIR: '/srv/data' })).toMatchObject({ path: '/srv/data/archive.db' });
  });

  it('takes the SQLite file from DATABASE_PATH, DB_PATH or DATABASE_DIR, in that order', () => {
    expect(
      parseDatabaseConfig({ DATABASE_PATH: '/a.db', DB_PATH: '/b.db', DATABASE_DIR: '/c' }),
    ).toMatchObject({ path: '/a.db' });
    expect(parseDatabaseConfig({ DB_PATH: '/b.db', DATABASE_DIR: '/c' })).toMatchObject({ path: '/b.db' });
    expect(parseDatabaseConfig({ DATABASE_DIR: '/c', DB_TYPE: 'SQLite' })).toMatchObject({
      path: '/c/archive.db',
    });
  });

  it('reads DATABASE_URL first, for either backend', () => {
    const url = 'postgresql://archive:secret@db:5432/archive';
    expect(parseDatabaseConfig({ DATABASE_URL: url, DATABASE_PATH: '/a.db' })).toMatchObject({
      backend: 'postgresql',
      url,
    });
    expect(parseDatabaseConfig({ DATABASE_URL: 'postgres://h/db', DB_TYPE: 'postgres' })).toMatchObject({
      backend: 'postgresql',
    });
    expect(parseDatabaseConfig({ DATABASE_URL: 'postgresql+asyncpg://h/db' })).toMatchObject({
      url: 'postgresql://h/db',
    });
    expect(parseDatabaseConfig({ DATABASE_URL: 'sqlite:////data/archive.db' })).toMatchObject({
      backend: 'sqlite',
      path: '/data/archive.db',
    });
    expect(parseDatabaseConfig({ DATABASE_URL: 'sqlite:///rel/archive.db' })).toMatchObject({
      path: 'rel/archive.db',
    });
    expect(parseDatabaseConfig({ DATABASE_URL: 'file:/tmp/x.db' })).toMatchObject({ path: '/tmp/x.db' });
  });

  it('answers "unrecognised database configuration" for a bad DB_TYPE or URL scheme', () => {
    expect(() => parseDatabaseConfig({ DB_TYPE: 'mysql' })).toThrow(/^unrecognised database configuration/);
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'mysql://h/db' })).toThrow(
      /^unrecognised database configuration/,
    );
    expect(() => parseDatabaseConfig({ DATABASE_URL: 'no scheme here' })).toThrow(ConfigError);
    expect(() => parseDatabaseConfig({ DB_TYPE: 'postgresql' })).toThrow(/DATABASE_URL is required/);
  });

  it('reads DATABASE_TIMEOUT and DB_ECHO (only the word true)', () => {
    expect(parseDatabaseConfig({ DATABASE_TIMEOUT: '5' }).timeoutSeconds).toBe(5);
    expect(() => parseDatabaseConfig({ DATABASE_TIMEOUT: 'soon' })).toThrow(/DATABASE_TIMEOUT/);
    expect(parseDatabaseConfig({ DB_ECHO: 'TRUE' }).echo).toBe(true);
    expect(parseDatabaseConfig({ DB_ECHO: 'yes' }).echo).toBe(false);
  });

  it('never puts a URL (it may hold a password) in its description', () => {
    const config = parseDatabaseConfig({ DATABASE_URL: 'postgres://u:secret@h/db' });
    expect(JSON.stringify(describeDatabase(config))).not.toContain('secret');
  });
});
