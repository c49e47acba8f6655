import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool } from './spool';

describe('Spool', () => {
  let dir: string;
  let saved: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'spool-test-'));
    saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one list in memory: nothing is written to disk', () => {
    const spool = new Spool<{ id: string }>();
    spool.add([{ id: 'a' }]);
    expect(readdirSync(dir)).toEqual([]);
    expect([...spool.lists()]).toEqual([[0, [{ id: 'a' }]]]);
    spool.close();
  });

  it('gives back every list in its order, the later ones from a file only its owner reads, removed on close', () => {
    const spool = new Spool<{ id: string; lat: number; brand: string | null }>();
    const lists = Array.from({ length: 5 }, (_, n) =>
      Array.from({ length: n * 300 }, (_, i) => ({
        id: `${n}-${i}`,
        lat: n + i / 7,
        brand: i % 2 ? 'Ñandú €' : null,
      })),
    );
    for (const list of lists) spool.add(list);
    expect(spool.size).toBe(5);
    const [made] = readdirSync(dir);
    expect(made).toMatch(/^specyard-feed-/);
    const file = path.join(dir, made as string, 'spool');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, made as string)).mode & 0o777).toBe(0o700);
    expect([...spool.lists()]).toEqual(lists.map((list, n) => [n, list]));
    // Read twice: the same lists.
    expect([...spool.lists()].map(([n, list]) => [n, list.length])).toEqual(
      lists.map((list, n) => [n, list.length]),
    );
    spool.close();
    expect(readdirSync(dir)).toEqual([]);
    expect(spool.size).toBe(0);
  });
});
