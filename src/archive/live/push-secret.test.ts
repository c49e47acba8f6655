import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { PUSH_SECRET_FILE, resolvePushSecret } from './push-secret';

describe('the /internal/push secret', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-secret-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sqlite = (extra: Record<string, string> = {}) =>
    loadConfig({ DATABASE_PATH: path.join(dir, 'archive.db'), ...extra });

  it('is created once beside a SQLite database: 256 random bits, mode 0600', () => {
    const config = sqlite();
    expect(config.database.backend).toBe('sqlite');
    const secret = resolvePushSecret(config);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, PUSH_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(resolvePushSecret(sqlite())).toBe(secret);
  });

  it('comes from INTERNAL_PUSH_SECRET when set, and PostgreSQL has none otherwise', () => {
    expect(resolvePushSecret(sqlite({ INTERNAL_PUSH_SECRET: 'from-env' }))).toBe('from-env');
    expect(resolvePushSecret(loadConfig({ DATABASE_URL: 'postgresql://127.0.0.1/x' }))).toBeNull();
  });
});
