/**
 * `npx tsx scripts/bench/fuel-ingest.ts [--backend=sqlite|postgres|both] [--stations=100000] [--prices=4]`
 * (`--prices=0`: a charger register, every station an EV charge point with its power and no price)
 *
 * Feeds a synthetic country (stations spread over Spain, each with `--prices` fuel prices) through the
 * scraper pipeline three times: a first run into an empty store (inserts), a second run of the same feed
 * with every price new (updates, the one-transaction price replace, the orphan cleanup and a history row
 * per price), then a third where one station in ten changed its prices, as a real feed does between runs. Each run is a
 * process of its own, so the peak resident memory it reports belongs to that one ingest. Reports
 * stations/s per run. Not a test: the figures go to scripts/bench/README.md (fuel ingest).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../../src/common/testing/postgres';
import { runScraper } from '../../src/fuel/scrapers/pipeline';
import type { RawPrice, RawStation, RunLog, Scraper } from '../../src/fuel/scrapers/types';
import { openPostgresStore } from '../../src/fuel/store/postgres';
import { openSqliteStore } from '../../src/fuel/store/sqlite';
import type { FuelStore } from '../../src/fuel/store/store';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    stations: { type: 'string', default: '100000' },
    prices: { type: 'string', default: '4' },
    // Internal: one run against an existing database.
    run: { type: 'string' },
    database: { type: 'string' },
  },
});
const STATIONS = Number(values.stations);
const PRICES = Math.min(4, Number(values.prices));
const FUELS = (['B7', 'E5', 'E10', 'LPG'] as const).slice(0, PRICES);

/** A deterministic pseudo-random sequence, so every run feeds the same country. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function syntheticFeed(round: number): Scraper {
  return {
    key: 'ES',
    source: 'bench',
    country: 'ES',
    timeoutMs: 60_000,
    async fetch() {
      const next = random(42);
      const stations: RawStation[] = [];
      const prices: RawPrice[] = [];
      for (let i = 0; i < STATIONS; i++) {
        const id = `bench-${i}`;
        stations.push({
          externalId: id,
          name: `Estación ${i}`,
          brand: ['REPSOL', 'CEPSA', 'GALP', 'BP', null][i % 5] ?? null,
          address: `Calle ${i % 997}, ${i % 89}`,
          city: `Municipio ${i % 8131}`,
          lat: 36 + next() * 7.8,
          lon: -9.3 + next() * 12.6,
          // Without prices the feed is a charger register (a Europe-wide one holds about 1,000,000).
          ...(PRICES === 0
            ? { type: 'ev_charger' as const, powerKw: [11, 22, 50, 150, 350][i % 5] ?? 22 }
            : { type: 'fuel' as const }),
        });
        // The third run changes one station in ten; the others keep the second run's prices.
        const priceRound = round < 2 || i % 10 === 0 ? round : 1;
        for (const [f, fuel] of FUELS.entries()) {
          prices.push({
            externalId: id,
            fuel,
            price: Math.round((1.3 + f * 0.1 + priceRound * 0.01 + next() * 0.2) * 1000) / 1000,
            currency: 'EUR',
          });
        }
      }
      return { stations, prices };
    },
  };
}

const quiet: RunLog = { info: () => undefined, error: (line) => console.error(line) };

/** One run in this process: prints its line and exits. */
async function oneRun(backend: string, database: string, round: number): Promise<void> {
  const store: FuelStore =
    // Opened as the scrape thread opens it.
    backend === 'postgres'
      ? await openPostgresStore(database)
      : openSqliteStore(database, { forScrapes: true });
  try {
    const started = performance.now();
    const summary = await runScraper(syntheticFeed(round), { store, log: quiet });
    const seconds = (performance.now() - started) / 1000;
    if (summary.errors.length > 0) throw new Error(summary.errors.join('; '));
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const label =
      ['first run (insert)', 'second (all changed)', 'third (10 % changed)'][round] ?? `run ${round}`;
    console.log(
      `${backend.padEnd(8)} ${label.padEnd(21)} ${summary.stations} stations ${summary.prices} prices ` +
        `${seconds.toFixed(1).padStart(5)} s ${Math.round(summary.stations / seconds)
          .toString()
          .padStart(6)} stations/s  peak RSS ${peakMb.toFixed(0)} MB`,
    );
  } finally {
    await store.close();
  }
}

function spawnRun(backend: string, database: string, round: number): void {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      script,
      `--backend=${backend}`,
      `--stations=${STATIONS}`,
      `--prices=${PRICES}`,
      `--run=${round}`,
      `--database=${database}`,
    ],
    { stdio: 'inherit' },
  );
  if (child.status !== 0) throw new Error(`${backend} run ${round} failed`);
}

async function benchBackend(backend: string): Promise<void> {
  if (backend === 'postgres') {
    const db = await createTestDatabase('specyard_fuel_bench');
    try {
      // Opening once applies the migrations before the measured runs.
      await (await openPostgresStore(db.url)).close();
      for (const round of [0, 1, 2]) spawnRun(backend, db.url, round);
    } finally {
      await db.drop();
    }
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fuel-ingest-'));
  try {
    const file = path.join(dir, 'fuel.db');
    await openSqliteStore(file).close();
    for (const round of [0, 1, 2]) spawnRun(backend, file, round);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.run !== undefined && values.database) {
  await oneRun(values.backend, values.database, Number(values.run));
} else {
  const backends = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend];
  for (const backend of backends) {
    if (backend !== 'sqlite' && backend !== 'postgres') {
      throw new Error(`--backend must be sqlite, postgres or both, not "${backend}"`);
    }
    await benchBackend(backend);
  }
}
