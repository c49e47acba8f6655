import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../common/cli/command';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import { FUEL_CODES } from '../model/fuels';
import { parseScraperConfig } from '../scrapers/config';
import { commandLineKeys } from '../scrapers/registry';
import { type FakeFeeds, startFakeFeeds } from '../scrapers/testing/fake-feeds';
import { FEED_KEYS_ENV, feedEnv, installFeedRoutes } from '../scrapers/testing/feed-routes';
import { openSqliteStore } from '../store/sqlite';
import { startTestFuel } from '../testing/server';
import { scrape as scrapeCommand } from './scrape';
import { resolveKeys, runScrapeCommand } from './scrape-run';

const noSleep = async () => undefined;

describe('command line scraper tool', () => {
  let fake: FakeFeeds;
  let dir: string;
  beforeAll(async () => {
    fake = await startFakeFeeds();
    installFeedRoutes(fake);
    dir = mkdtempSync(path.join(tmpdir(), 'specyard-scrape-'));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (database: string, extra: Record<string, string> = {}) => ({
    ...feedEnv(fake.url),
    DATABASE_URL: database,
    APP_BNETZA_MIN_STATIONS: '1',
    ...extra,
  });

  /** The tool as the command line runs it: its flags parsed by the kit, then the run. */
  async function scrape(argv: string[], environment: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const { values } = parseCommandArgs(scrapeCommand, argv);
    const code = await runScrapeCommand(
      { country: values.country as string | undefined },
      {
        env: environment,
        out: (line) => out.push(line),
        err: (line) => err.push(line),
        sleep: noSleep,
        tuning: { gridStepKm: 120 },
      },
    );
    return { code, out, err, all: [...out, ...err] };
  }

  describe('choosing keys', () => {
    const config = (extra: Record<string, string> = {}) => parseScraperConfig(extra);

    it('takes one key or several, in any case, and AU brings New South Wales', () => {
      expect(resolveKeys('es', config())).toEqual({ keys: ['ES'] });
      expect(resolveKeys('ES,fr, pt', config())).toEqual({ keys: ['ES', 'FR', 'PT'] });
      expect(resolveKeys('AU,ev_pt', config())).toEqual({ keys: ['AU', 'AU_NSW', 'EV_PT'] });
      expect(resolveKeys('EV_ES_REVE,EV_DE_BNETZA', config())).toEqual({
        keys: ['EV_ES_REVE', 'EV_DE_BNETZA'],
      });
    });

    it('"all" keeps one charger feed for Spain and one for Germany, as the scheduler does', () => {
      const plain = resolveKeys('all', config());
      expect(plain).toMatchObject({
        keys: expect.arrayContaining(['ES', 'AU_NSW', 'EV_ES', 'EV_DE_BNETZA', 'EV_US']),
      });
      expect('keys' in plain && plain.keys).not.toContain('EV_ES_REVE');
      expect('keys' in plain && plain.keys).not.toContain('EV_DE');
      const keyed = resolveKeys('ALL', config({ APP_REVE_API_KEY: 'k', APP_DE_EV_SOURCE: 'OCM' }));
      expect('keys' in keyed && keyed.keys).toContain('EV_ES_REVE');
      expect('keys' in keyed && keyed.keys).toContain('EV_DE');
      expect('keys' in keyed && keyed.keys).not.toContain('EV_ES');
      expect('keys' in keyed && keyed.keys).not.toContain('EV_DE_BNETZA');
    });

    it('naming a crowdsourced feed runs it even when the registry is chosen', () => {
      expect(resolveKeys('EV_ES,EV_DE', config({ APP_REVE_API_KEY: 'k' }))).toEqual({
        keys: ['EV_ES', 'EV_DE'],
      });
    });

    it('has no STATIC_ keys', () => {
      expect(commandLineKeys(config()).some((key) => key.startsWith('STATIC_'))).toBe(false);
    });
  });

  it('an unknown key stops it with the supported keys and exit 1, before opening the database', async () => {
    const file = path.join(dir, 'never.db');
    const { code, out, err } = await scrape(['--country=ES,XX'], env(`file:${file}`));
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^Unknown country "XX"\. Supported: ES, FR, PT, IT, AT, DE, GB, DK, AU, AU_NSW, EV_ES, .*EV_US, EV_ES_REVE, EV_DE_BNETZA, all$/,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('without --country it prints its usage and exits 1', async () => {
    const { code, err } = await scrape(['--once'], env(`file:${path.join(dir, 'usage.db')}`));
    expect(code).toBe(1);
    expect(err).toEqual(['usage: npm run scrape -- --country=<KEY[,KEY…]|all> [--once]']);
  });

  it('prints the scrapers’ lines and a summary with ERRORS; exit 1 when a source failed', async () => {
    const { code, out, err } = await scrape(
      ['--country=es,de', '--once'],
      env(`file:${path.join(dir, 'mixed.db')}`),
    );
    expect(code).toBe(1);
    expect(out).toContain('[miteco] Fetching data for ES ...');
    expect(err).toEqual(['[tankerkoenig] Fatal error: APP_DE_FUEL_API_KEY not set']);
    const summary = out.slice(out.indexOf('=== Summary ==='));
    expect(summary[1]).toMatch(/^ {2}\[miteco\] ES: OK — 5 stations, 16 prices in \d+\.\ds$/);
    expect(summary[2]).toMatch(/^ {2}\[tankerkoenig\] DE: ERRORS — 0 stations, 0 prices in \d+\.\ds$/);
    expect(summary[3]).toBe('    - Fatal: APP_DE_FUEL_API_KEY not set');
    expect(out.at(-1)).toBe('1 of 2 sources failed: DE');
  });

  it('"all" against the fake feeds succeeds on SQLite, and the API serves what it stored', async () => {
    const file = path.join(dir, 'all.db');
    const { code, out, all } = await scrape(['--country=all'], env(`file:${file}`, FEED_KEYS_ENV));
    expect(all.filter((line) => /ERRORS|Fatal|Aborted/.test(line))).toEqual([]);
    expect(code).toBe(0);
    expect(out.at(-1)).toMatch(/^All \d+ sources succeeded\.$/);
    expect(out.filter((line) => line.startsWith('map clusters rebuilt: '))).toHaveLength(1);
    for (const source of ['miteco', 'prix_carburants', 'dgeg', 'mimit', 'econtrol', 'tankerkoenig', 'cma']) {
      expect(out.some((line) => line.startsWith(`  [${source}] `) && line.includes(': OK — '))).toBe(true);
    }
    for (const source of ['fuelprices_dk', 'fuelwatch_wa', 'nsw_fuelcheck', 'ocm', 'reve', 'bnetza']) {
      expect(out.some((line) => line.startsWith(`  [${source}] `))).toBe(true);
    }

    const fuel = await startTestFuel({ store: openSqliteStore(file), seed: false });
    try {
      expect((await fuel.store.refreshStationClusters()).rebuilt).toEqual([]);
      const stats = (await (await fetch(`${fuel.url}/api/stats`)).json()) as {
        countries: { code: string }[];
      };
      expect(stats.countries.map((c) => c.code)).toEqual(
        expect.arrayContaining(['ES', 'FR', 'PT', 'IT', 'AT', 'DE', 'GB', 'DK', 'AU', 'US']),
      );
      // Every price stored is reachable through a code of the document's list.
      let reachable = 0;
      for (const code of FUEL_CODES.filter((c) => c !== 'EV')) {
        const answer = await fetch(`${fuel.url}/api/stations?bbox=-180,-90,180,90&fuel=${code}`);
        expect(answer.status).toBe(200);
        reachable += ((await answer.json()) as { features: unknown[] }).features.length;
      }
      const totals = (await (await fetch(`${fuel.url}/api/stats`)).json()) as { totals: { prices: number } };
      expect(reachable).toBe(totals.totals.prices);
      const spain = await fetch(`${fuel.url}/api/stations?bbox=-1,39,0,40&fuel=B7`);
      expect(spain.status).toBe(200);
      const body = (await spain.json()) as {
        features: { properties: { externalId: string; price: number } }[];
      };
      expect(body.features.map((f) => [f.properties.externalId, f.properties.price])).toEqual([
        ['4375', 1.459],
      ]);
      const chargers = await fetch(`${fuel.url}/api/stations?bbox=13,52,14,53&fuel=EV`);
      const ev = (await chargers.json()) as { features: { properties: { externalId: string } }[] };
      expect(ev.features.map((f) => f.properties.externalId)).toEqual([
        expect.stringMatching(/^bnetza-52\.52192_/),
      ]);
    } finally {
      await fuel.close();
    }
  });

  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase('specyard_fuel');
    });
    afterAll(() => db.drop());

    it('runs the same way, "all" included', async () => {
      const { code, out, all } = await scrape(['--country=all'], env(db.url, FEED_KEYS_ENV));
      expect(all.filter((line) => /ERRORS|Fatal|Aborted/.test(line))).toEqual([]);
      expect(code).toBe(0);
      const summary = out.slice(out.indexOf('=== Summary ==='));
      for (const expected of [
        /^ {2}\[miteco\] ES: OK — 5 stations, 16 prices in/,
        /^ {2}\[dgeg\] PT: OK — 3 stations, 4 prices in/,
        /^ {2}\[ocm\] EV_PT: OK — 3 stations, 0 prices in/,
        /^ {2}\[reve\] EV_ES_REVE: OK — 5 stations, 0 prices in/,
        /^ {2}\[bnetza\] EV_DE_BNETZA: OK — 4 stations, 0 prices in/,
      ]) {
        expect(summary.some((line) => expected.test(line))).toBe(true);
      }
    });
  });
});
