// The corridor search on its own, over a source whose reads answer late and out of order (as PostgreSQL's
// pool does) or fail.
import { afterEach, describe, expect, it } from 'vitest';
import { nearestOnLine, prepareLine } from '../geo/line';
import { destination, intermediate } from '../geo/sphere';
import { type CorridorSource, type Placed, searchCorridor } from './corridor';
import { StationPositions } from './positions';
import type { LonLat } from './store';

const LINE: LonLat[] = Array.from({ length: 400 }, (_, i) => [-4 + i * 0.005, 40 + Math.sin(i / 30) * 0.05]);

/** Stations spread along and around LINE; every third one lacks the fuel (its row is not found). */
function stations(count: number): (Placed & { kept: boolean })[] {
  return Array.from({ length: count }, (_, i) => {
    const along = intermediate(LINE[0] as LonLat, LINE.at(-1) as LonLat, ((i * 7919) % count) / count);
    const [lon, lat] = destination(along, (i * 37) % 360, ((i * 13) % 100) / 10);
    return { lon, lat, country: 'ES', externalId: `s${i}`, kept: i % 3 !== 0 };
  });
}

interface Fake {
  source: CorridorSource<Placed>;
  keysRead: () => number;
  running: () => number;
}

function fakeSource(
  all: (Placed & { kept: boolean })[],
  fail?: (call: number) => boolean,
  late = true,
): Fake {
  const positions = new StationPositions(
    all.map((_, i) => i),
    Float64Array.from(all, (s) => s.lon),
    Float64Array.from(all, (s) => s.lat),
  );
  let read = 0;
  let running = 0;
  let call = 0;
  return {
    keysRead: () => read,
    running: () => running,
    source: {
      positions,
      rows: async (places) => {
        const mine = call++;
        read += places.length;
        running++;
        try {
          // Later calls answer sooner: answers arrive out of order. Or at once, as SQLite does.
          if (late) await new Promise((resolve) => setTimeout(resolve, Math.max(0, 12 - mine * 3)));
          if (fail?.(mine)) throw new Error(`read ${mine} failed`);
          const found = new Map<number, Placed>();
          for (const place of places) {
            const station = all[positions.keyAt(place) as number];
            if (station?.kept) found.set(place, station);
          }
          return found;
        } finally {
          running--;
        }
      },
    },
  };
}

/** The answer measured whole: every kept station within the corridor, in order along the line. */
function expected(all: (Placed & { kept: boolean })[], corridorKm: number): string[] {
  const prepared = prepareLine(LINE);
  return all
    .filter((s) => s.kept)
    .map((s) => ({ id: s.externalId, ...nearestOnLine(prepared, [s.lon, s.lat]) }))
    .filter((s) => s.distanceKm <= corridorKm)
    .sort((a, b) => a.alongKm - b.alongKm || (a.id < b.id ? -1 : 1))
    .map((s) => s.id);
}

describe('searchCorridor', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  afterEach(() => {
    expect(unhandled).toEqual([]);
  });

  it.each([
    [1, true],
    [100, true],
    [2500, true],
    [100_000, true],
    [1, false],
    [2500, false],
  ])('keeps the first %i stations along the line (answers late: %s)', async (limit, late) => {
    const all = stations(12_000);
    const want = expected(all, 3);
    expect(want.length).toBeGreaterThan(2500);
    const fake = fakeSource(all, undefined, late);
    const result = await searchCorridor(fake.source, { line: LINE, fuel: 'B7', corridorKm: 3, limit });
    expect(result.stations.map((s) => s.externalId)).toEqual(want.slice(0, limit));
    expect(result.truncated).toBe(want.length > limit);
    expect(fake.running()).toBe(0);
  });

  it.each([
    ['at once', false, 2501 + 50],
    ['late', true, Math.ceil(2501 / 0.9) + 50],
  ])(
    'reads about as many stations as it keeps when the fuel keeps every one (answers %s)',
    async (_, late, most) => {
      const all = stations(12_000).map((s) => ({ ...s, kept: true }));
      const fake = fakeSource(all, undefined, late);
      const result = await searchCorridor(fake.source, {
        line: LINE,
        fuel: 'B7',
        corridorKm: 3,
        limit: 2500,
      });
      expect(result.stations).toHaveLength(2500);
      // The 2,501st station says the answer is cut; beyond it, only the few measured within the corridor's
      // hair of slack and a margin (reading in batches of 1,000 read 3,000). Reads answered late are counted
      // at the share guessed for them before any answer (FIRST_SHARE), a tenth more.
      expect(fake.keysRead()).toBeGreaterThanOrEqual(2501);
      expect(fake.keysRead()).toBeLessThan(most);
    },
  );

  it.each([
    ['a late read', (call: number) => call === 1, 'read 1 failed'],
    ['two reads', (call: number) => call === 0 || call === 2, 'read 0 failed'],
  ])(
    'fails with the first failed read of %s, once every read it asked for has ended',
    async (_, fail, message) => {
      const fake = fakeSource(stations(12_000), fail);
      await expect(
        searchCorridor(fake.source, { line: LINE, fuel: 'B7', corridorKm: 3, limit: 100_000 }),
      ).rejects.toThrow(message);
      expect(fake.running()).toBe(0);
    },
  );

  it('fails on a read that throws at once, while it is still measuring', async () => {
    const fake = fakeSource(stations(12_000));
    const source: CorridorSource<Placed> = {
      positions: fake.source.positions,
      rows: (places) =>
        places.length > 0 ? Promise.reject(new Error('no database')) : fake.source.rows(places),
    };
    await expect(
      searchCorridor(source, { line: LINE, fuel: 'B7', corridorKm: 3, limit: 100_000 }),
    ).rejects.toThrow('no database');
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
