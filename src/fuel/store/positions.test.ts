import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OFF_THREAD_FROM, PositionsBuilder, type StationPositions, VersionedPositions } from './positions';
import { UuidColumn } from './postgres/positions';
import { stationIdOf } from './sample-key';

const positionsOf = (points: [number, number][]): Promise<StationPositions> => {
  const builder = new PositionsBuilder(1);
  for (const [i, [lon, lat]] of points.entries()) builder.add(100 + i, lon, lat);
  return builder.finish();
};

describe('station positions', () => {
  it('keep every station added past the size expected, and find them in a box', async () => {
    const points = Array.from({ length: 3000 }, (_, i): [number, number] => [i / 1000, (i % 10) / 10]);
    const positions = await positionsOf(points);
    expect(positions.size).toBe(3000);
    const inside = positions.inBox([1, 0, 1.002, 1]).map((place) => positions.keyAt(place));
    expect(inside.sort()).toEqual([1100, 1101, 1102]);
    expect([positions.lonAt(2999), positions.latAt(2999)]).toEqual([2.999, 0.9]);
  });

  it('keep PostgreSQL ids packed and give each back as it was read, past the size first allocated', async () => {
    const ids = [
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      stationIdOf(0),
      stationIdOf(0x7fffffff),
      ...Array.from({ length: 3000 }, () => randomUUID()),
      ...Array.from({ length: 100 }, (_, i) => stationIdOf(i * 4099)),
    ];
    const builder = new PositionsBuilder<string>(0, new UuidColumn());
    for (const [i, id] of ids.entries()) builder.add(id, i / 1000, 0);
    const positions = await builder.finish();
    expect(Array.from({ length: ids.length }, (_, place) => positions.keyAt(place))).toEqual(ids);
    expect(positions.inBox([0.0015, -1, 0.0025, 1]).map((place) => positions.keyAt(place))).toEqual([ids[2]]);
    const column = new UuidColumn();
    column.push(ids[0] as string);
    expect([column.at(-1), column.at(1), column.at(0.5)]).toEqual([undefined, undefined, undefined]);
    for (const bad of [
      '',
      'A0000000-0000-0000-0000-000000000000',
      '00000000000000000000000000000000----',
      `${ids[5]} `,
    ])
      expect(() => column.push(bad), bad).toThrow('not a station id');
    expect(column.length).toBe(1);
  });

  it('are read once per version, again when it moves, and not kept when the read fails', async () => {
    const cache = new VersionedPositions<number>();
    let reads = 0;
    const read = async () => {
      reads++;
      return positionsOf([[reads, 0]]);
    };
    const [a, b] = await Promise.all([cache.at('1', read), cache.at('1', read)]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect((await cache.at('2', read)).lonAt(0)).toBe(2);
    await expect(cache.at('3', () => Promise.reject(new Error('the read failed')))).rejects.toThrow(
      'the read failed',
    );
    expect((await cache.at('3', read)).lonAt(0)).toBe(3);
    expect(reads).toBe(3);
  });

  it('share a read under way with searches that find a newer version, then read that version', async () => {
    const cache = new VersionedPositions<number>();
    let reads = 0;
    let release = () => {};
    const slow = () => {
      reads++;
      const n = reads;
      return new Promise<StationPositions>((resolve) => {
        release = () => void positionsOf([[n, 0]]).then(resolve);
      });
    };
    const first = cache.at('1', slow);
    const newer = cache.at('2', slow);
    expect(newer).toBe(first);
    expect(reads).toBe(1);
    release();
    expect((await newer).lonAt(0)).toBe(1);
    const again = cache.at('2', slow);
    expect(reads).toBe(2);
    release();
    expect((await again).lonAt(0)).toBe(2);
    expect(await cache.at('2', slow)).toBe(await again);
    expect(reads).toBe(2);
  });

  it('built on the index thread when there are many stations, answer as one built here', async () => {
    const n = OFF_THREAD_FROM + 1234;
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const points = Array.from({ length: n }, (): [number, number] => [next() * 20 - 10, next() * 10 + 35]);
    const offThread = await positionsOf(points);
    const here = new (offThread.constructor as typeof StationPositions)(
      points.map((_, i) => 100 + i),
      Float64Array.from(points, (p) => p[0]),
      Float64Array.from(points, (p) => p[1]),
    );
    for (const box of [
      [-3.8, 40.3, -3.6, 40.5],
      [-10, 35, 10, 45],
      [0, 36, 0.5, 36.5],
    ] as const) {
      const keys = (p: StationPositions) =>
        p
          .inBox([...box])
          .map((place) => p.keyAt(place))
          .sort();
      expect(keys(offThread)).toEqual(keys(here));
    }
    expect(offThread.size).toBe(n);
  });

  it('built on the index thread, hold a process up while it waits for them and not once it is done', () => {
    // A process that builds positions off the thread and then has nothing left to do: it prints them,
    // and ends (it had hung there for good, the thread's listener holding it).
    const script = `import('./src/fuel/store/positions.ts').then(async ({ OFF_THREAD_FROM, PositionsBuilder }) => {
      const builder = new PositionsBuilder(OFF_THREAD_FROM);
      for (let i = 0; i < OFF_THREAD_FROM; i++) builder.add(i, (i % 360) - 180, (i % 170) - 85);
      const positions = await builder.finish();
      console.log(positions.size, positions.inBox([-180, -85, -180, -85]).length > 0);
    })`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toBe(`${OFF_THREAD_FROM} true`);
    expect(run.status).toBe(0);
  });
});
