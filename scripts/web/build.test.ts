import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withLockFile } from './build';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'build-lock-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the build lock', () => {
  it('lets one holder work at a time and removes the lock after', async () => {
    const lock = path.join(dir, 'dist', '.archive.lock');
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`${name} in`);
      await sleep(150);
      events.push(`${name} out`);
      return name;
    };
    const results = await Promise.all([withLockFile(lock, work('a')), withLockFile(lock, work('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(existsSync(lock)).toBe(false);
  });

  it('releases the lock when the work fails', async () => {
    const lock = path.join(dir, '.fuel.lock');
    await expect(
      withLockFile(lock, async () => {
        throw new Error('vite failed');
      }),
    ).rejects.toThrow('vite failed');
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock left by a build that died', async () => {
    const lock = path.join(dir, '.fuel.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    await expect(withLockFile(lock, async () => 'built')).resolves.toBe('built');
  });

  it('waits for a live lock', async () => {
    const lock = path.join(dir, '.fuel.lock');
    writeFileSync(lock, '');
    let done = false;
    const waiting = withLockFile(lock, async () => {
      done = true;
    });
    await sleep(300);
    expect(done).toBe(false);
    await rm(lock);
    await waiting;
    expect(done).toBe(true);
  });
});
