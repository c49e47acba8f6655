/**
 * `npx tsx scripts/bench/fuel-ingest.ts [--backend=sqlite|postgres|both] [--stations=100000] [--prices=4]
 *  [--history-runs=3]`
 * (`--prices=0`: a charger register, every station an EV charge point with its power and no price)
 *
 * Feeds a synthetic country (stations spread over Spain, each with `--prices` fuel prices, handed over in
 * parts of 10,000 stations as a feed read while it arrives does) through the scraper pipeline three times: a first run into an empty store (inserts), a second run of the same feed
 * with every price new (updates, the one-transaction price replace, the orphan cleanup and a history row
 * per price), then a third where one station in ten changed its prices, as a real feed does between runs. Each run is a
 * process of its own, so the peak resident memory it reports belongs to that one ingest. Reports
 * stations/s per run.
 *
 * With prices, it then measures what the price history costs: a second store fed the same way with the
 * history turned off (`APP_PRICE_HISTORY_DAYS=0`), and `--history-runs` pairs of runs where one station in
 * ten changed, alternating between the two stores so both see the same machine; it prints the medians and
 * their ratio. Not a test: the figures go to scripts/bench/README.md (fuel ingest).
 *
 * On PostgreSQL each run starts from vacuumed tables, as autovacuum leaves them between two runs of a feed
 * (a replace deletes and inserts every price of the source, past autovacuum's default thresholds; the test
 * machine's server has autovacuum turned off, and there the price table grew by a whole copy per run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../../src/common/testing/postgres';
import { runScraper } from '../../src/fuel/scrapers/pipeline';
import type { FeedBatch, RawPrice, RawStation, RunLog, Scraper } from '../../src/fuel/scrapers/types';
import { openPostgresStore } from '../../src/fuel/store/postgres';
import { openSqliteStore } from '../../src/fuel/store/sqlite';
import type { FuelStore } from '../../src/fuel/store/store';
import { vacuumAnalyze } from './vacuum';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    stations: { type: 'string', default: '100000' },
    prices: { type: 'string', default: '4' },
    'history-runs': { type: 'string', default: '3' },
    // Internal: days of price history of a run (0: turned off); a run of the history's measurement.
    'history-days': { type: 'string', default: '90' },
    'history-phase': { type: 'boolean', default: false },
    // Internal: one run against an existing database.
    run: { type: 'string' },
    database: { type: 'string' },
  },
});
const STATIONS = Number(values.stations);
const PRICES = Math.min(4, Number(values.prices));
const FUELS = (['B7', 'E5', 'E10', 'LPG'] as const).slice(0, PRICES);
const HISTORY_RUNS = Number(values['history-runs']);

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
      return { batches: syntheticParts(round) };
    },
  };
}

/** The synthetic country in parts of PART stations with their prices, made as they are asked for. */
const PART = 10_000;
async function* syntheticParts(round: number): AsyncGenerator<FeedBatch> {
  const next = random(42);
  let stations: RawStation[] = [];
  let prices: RawPrice[] = [];
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
    // The third run changes one station in ten; the others keep the second run's prices (so the second
    // and third rounds, fed in turn, change one station in ten each time).
    const priceRound = round < 2 || i % 10 === 0 ? round : 1;
    for (const [f, fuel] of FUELS.entries()) {
      prices.push({
        externalId: id,
        fuel,
        price: Math.round((1.3 + f * 0.1 + priceRound * 0.01 + next() * 0.2) * 1000) / 1000,
        currency: 'EUR',
      });
    }
    if (stations.length === PART || i === STATIONS - 1) {
      yield { stations, prices };
      stations = [];
      prices = [];
    }
  }
}

const quiet: RunLog = { info: () => undefined, error: (line) => console.error(line) };

/** One run in this process: prints its line and exits. */
async function oneRun(backend: string, database: string, round: number, historyDays: number): Promise<void> {
  const store: FuelStore =
    // Opened as the scrape thread opens it.
    backend === 'postgres'
      ? await openPostgresStore(database)
      : openSqliteStore(database, { forScrapes: true });
  try {
    const started = performance.now();
    const summary = await runScraper(syntheticFeed(round), { store, log: quiet, historyDays });
    const seconds = (performance.now() - started) / 1000;
    if (summary.errors.length > 0) throw new Error(summary.errors.join('; '));
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const label =
      (values['history-phase']
        ? 'again (10 % changed)'
        : (['first run (insert)', 'second (all changed)', 'third (10 % changed)'][round] ?? `run ${round}`)) +
      (historyDays === 0 ? ', no history' : '');
    console.log(
      `${backend.padEnd(8)} ${label.padEnd(33)} ${summary.stations} stations ${summary.prices} prices ` +
        `${seconds.toFixed(2).padStart(6)} s ${Math.round(summary.stations / seconds)
          .toString()
          .padStart(6)} stations/s  peak RSS ${peakMb.toFixed(0)} MB`,
    );
  } finally {
    await store.close();
  }
}

/** One run in a process of its own (on PostgreSQL, after what autovacuum would do); returns its seconds. */
async function spawnRun(
  backend: string,
  database: string,
  round: number,
  historyDays = 90,
  historyPhase = false,
): Promise<number> {
  if (backend === 'postgres') await vacuumAnalyze(database);
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
      `--history-days=${historyDays}`,
      ...(historyPhase ? ['--history-phase'] : []),
    ],
    { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  process.stdout.write(child.stdout);
  const seconds = / ([\d.]+) s /.exec(child.stdout)?.[1];
  if (child.status !== 0 || seconds === undefined) throw new Error(`${backend} run ${round} failed`);
  return Number(seconds);
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

/**
 * The history's cost: `with` and `without` hold the first and second runs of the same feed, with the history
 * on and off; runs where one station in ten changed then alternate between them.
 */
async function historyCost(backend: string, withHistory: string, without: string): Promise<void> {
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < HISTORY_RUNS; i++) {
    for (const round of [2, 1]) {
      on.push(await spawnRun(backend, withHistory, round, 90, true));
      off.push(await spawnRun(backend, without, round, 0, true));
    }
  }
  const ratio = median(on) / median(off);
  console.log(
    `${backend.padEnd(8)} one station in ten changed, ${on.length} runs each: ${median(on).toFixed(2)} s with ` +
      `the price history, ${median(off).toFixed(2)} s without (medians): ${ratio.toFixed(3)}, ` +
      `+${((ratio - 1) * 100).toFixed(1)} %`,
  );
}

/** The three runs on one store, then (with prices) the history's cost against a second store. */
async function runAll(backend: string, database: string, second: string): Promise<void> {
  for (const round of [0, 1, 2]) await spawnRun(backend, database, round);
  if (PRICES === 0 || HISTORY_RUNS < 1) return;
  for (const round of [0, 1]) await spawnRun(backend, second, round, 0);
  await historyCost(backend, database, second);
}

async function benchBackend(backend: string): Promise<void> {
  if (backend === 'postgres') {
    const db = await createTestDatabase('specyard_fuel_bench');
    const second = await createTestDatabase('specyard_fuel_bench_nohistory');
    try {
      // Opening once applies the migrations before the measured runs.
      for (const url of [db.url, second.url]) await (await openPostgresStore(url)).close();
      await runAll(backend, db.url, second.url);
    } finally {
      await db.drop();
      await second.drop();
    }
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fuel-ingest-'));
  try {
    const [file, second] = [path.join(dir, 'fuel.db'), path.join(dir, 'no-history.db')];
    for (const f of [file, second]) await openSqliteStore(f).close();
    await runAll(backend, file, second);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.run !== undefined && values.database) {
  await oneRun(values.backend, values.database, Number(values.run), Number(values['history-days']));
} else {
  const backends = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend];
  for (const backend of backends) {
    if (backend !== 'sqlite' && backend !== 'postgres') {
      throw new Error(`--backend must be sqlite, postgres or both, not "${backend}"`);
    }
    await benchBackend(backend);
  }
}
