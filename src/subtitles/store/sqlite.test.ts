import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openSqliteStore, type SqliteStore, sqliteMigrations } from './sqlite';
import { DuplicateError, jobKey } from './store';

let store: SqliteStore;
beforeEach(() => {
  store = openSqliteStore(':memory:');
});
afterEach(() => store.close());

const job = (name: string, language = 'en', source: 'request' | 'scan' = 'request') => ({
  path: `/media/${name}.mkv`,
  language,
  item: name,
  source,
  enqueuedAt: '2026-01-01T00:00:00.000Z',
});

describe('migrations', () => {
  it('are numbered from 001 without gaps', () => {
    const versions = sqliteMigrations().map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  it('apply once, in order, and are recorded', () => {
    const db = new Database(':memory:');
    expect(migrate(db).map((m) => m.version)).toEqual(sqliteMigrations().map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    const recorded = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(recorded).toHaveLength(sqliteMigrations().length);
    db.close();
  });

  it('survive a reopen of the same file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subtitles-store-'));
    const file = path.join(dir, 'subtitles.db');
    const first = openSqliteStore(file);
    await first.setSetting('k', 'v');
    await first.close();
    const second = openSqliteStore(file);
    expect(await second.getSetting('k')).toBe('v');
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('accounts', () => {
  const user = (name: string, id: string) => ({
    id,
    name,
    passwordHash: 'scrypt$1$1$1$a$b',
    hasPassword: true,
    isAdmin: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  });

  it('refuses a second user with the same name in another letter case', async () => {
    await store.createUser(user('Alice', 'a'.repeat(32)));
    await expect(store.createUser(user('alice', 'b'.repeat(32)))).rejects.toBeInstanceOf(DuplicateError);
    expect((await store.findUserByName('ALICE'))?.id).toBe('a'.repeat(32));
  });

  const session = (tokenHash: string, userId: string, deviceId: string | null) => ({
    id: tokenHash.padEnd(32, '0'),
    tokenHash,
    userId,
    client: deviceId && 'Web',
    device: deviceId && 'Firefox',
    deviceId,
    version: deviceId && '10.11.0',
    createdAt: 'now',
  });

  it('finds a session user and forgets the session with the user', async () => {
    await store.createUser(user('bob', 'c'.repeat(32)));
    expect(await store.openSession(session('h1', 'c'.repeat(32), null))).toBe(0);
    expect((await store.useSession('h1', 'later'))?.name).toBe('bob');
    store.db.prepare('DELETE FROM users').run();
    expect(await store.useSession('h1', 'later')).toBeUndefined();
  });

  it("ends the same user's earlier session on the same device, and only that one", async () => {
    await store.createUser(user('bob', 'c'.repeat(32)));
    await store.createUser(user('carol', 'd'.repeat(32)));
    await store.openSession(session('h1', 'c'.repeat(32), 'dev-1'));
    await store.openSession(session('h2', 'c'.repeat(32), 'dev-2'));
    await store.openSession(session('h3', 'd'.repeat(32), 'dev-1'));
    expect(await store.openSession(session('h4', 'c'.repeat(32), 'dev-1'))).toBe(1);
    expect(await store.useSession('h1', 'later')).toBeUndefined();
    for (const hash of ['h2', 'h3', 'h4']) expect(await store.useSession(hash, 'later')).toBeDefined();
  });

  it('ends a session by its token', async () => {
    await store.createUser(user('bob', 'c'.repeat(32)));
    await store.openSession(session('h1', 'c'.repeat(32), 'dev-1'));
    expect(await store.endSession('h1')).toBe(true);
    expect(await store.endSession('h1')).toBe(false);
    expect(await store.useSession('h1', 'later')).toBeUndefined();
  });

  it('marks API keys used and deletes them by hash or id', async () => {
    const id = await store.createApiKey({ name: 'k1', keyHash: 'x1', keyPrefix: 'abc', createdAt: 't0' });
    await store.createApiKey({ name: 'k2', keyHash: 'x2', keyPrefix: 'def', createdAt: 't0' });
    expect(await store.useApiKey('x1', 't1')).toBe(true);
    expect(await store.useApiKey('nope', 't1')).toBe(false);
    expect((await store.listApiKeys())[0]).toMatchObject({
      id,
      name: 'k1',
      keyPrefix: 'abc',
      lastUsedAt: 't1',
    });
    expect(await store.deleteApiKeyById(id)).toBe(true);
    expect(await store.deleteApiKeyByHash('x2')).toBe(true);
    expect(await store.deleteApiKeyByHash('x2')).toBe(false);
    expect(await store.listApiKeys()).toEqual([]);
  });
});

describe('queue', () => {
  it('keeps one job per file and language, waiting or running', async () => {
    expect(await store.enqueue(job('a'))).toBe(true);
    expect(await store.enqueue(job('a'))).toBe(false);
    expect(await store.enqueue(job('a', 'fr'))).toBe(true);
    await store.claimNext(1, 't');
    expect(await store.enqueue(job('a'))).toBe(false);
    expect(await store.queuedKeys()).toEqual(
      new Set([jobKey('/media/a.mkv', 'en'), jobKey('/media/a.mkv', 'fr')]),
    );
  });

  it('hands out jobs oldest first, each once', async () => {
    await store.enqueue(job('a'));
    await store.enqueue(job('b', 'en', 'scan'));
    expect((await store.claimNext(1, 't'))?.item).toBe('a');
    expect((await store.claimNext(2, 't'))?.item).toBe('b');
    expect(await store.claimNext(1, 't')).toBeUndefined();
    expect((await store.listRunning()).map((j) => j.item)).toEqual(['a', 'b']);
  });

  it('sends a failed attempt to the end, and a released job back to its place', async () => {
    await store.enqueue(job('a'));
    await store.enqueue(job('b'));
    const a = await store.claimNext(1, 't');
    await store.requeue(a?.id ?? 0, 1);
    expect(await store.claimNext(1, 't')).toMatchObject({ item: 'b' });
    expect(await store.claimNext(1, 't')).toMatchObject({ item: 'a', attempts: 1 });
    await store.enqueue(job('c'));
    const running = await store.listRunning();
    for (const r of running) await store.release(r.id);
    expect((await store.claimNext(1, 't'))?.item).toBe('b');
  });

  it('counts waiting jobs and requests, not running or finished ones', async () => {
    await store.enqueue(job('a'));
    await store.enqueue(job('b', 'en', 'scan'));
    await store.enqueue(job('c'));
    expect(await store.queueCounts()).toEqual({ queued: 3, queuedRequests: 2 });
    const first = await store.claimNext(1, 't');
    expect(await store.queueCounts()).toEqual({ queued: 2, queuedRequests: 1 });
    await store.finish(first?.id ?? 0);
    expect(await store.queueCounts()).toEqual({ queued: 2, queuedRequests: 1 });
    expect(await store.enqueue(job('a'))).toBe(true);
  });
});
