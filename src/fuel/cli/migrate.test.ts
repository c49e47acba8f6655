import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../common/services';
import { createTestDatabase } from '../../common/testing/postgres';
import { migrateCommand } from './migrate';

const dir = mkdtempSync(path.join(os.tmpdir(), 'fuel-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fuel migrate', () => {
  it('applies the migrations to <DATA_DIR>/fuel.db once', async () => {
    const lines: string[] = [];
    await migrateCommand({ DATA_DIR: dir }, (line) => lines.push(line));
    await migrateCommand({ DATA_DIR: dir }, (line) => lines.push(line));
    expect(lines).toEqual([
      `fuel: applied migration 001_initial to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 002_price_history to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 003_latest_prices to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 004_feature_text to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 005_station_order to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 006_station_clusters to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 007_station_tile_points to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 008_rtree_written_by_upsert to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: applied migration 009_street_copies to sqlite:${path.join(dir, 'fuel.db')}`,
      `fuel: sqlite:${path.join(dir, 'fuel.db')} is up to date`,
    ]);
  });

  it('applies them to PostgreSQL, creating PostGIS', async () => {
    const db = await createTestDatabase('specyard_fuel');
    try {
      const lines: string[] = [];
      await migrateCommand({ DATABASE_URL: db.url }, (line) => lines.push(line));
      await migrateCommand({ FUEL_DATABASE_URL: db.url }, (line) => lines.push(line));
      expect(lines[0]).toMatch(/^fuel: applied migration 001_initial to postgres:\/\//);
      expect(lines[1]).toMatch(/^fuel: applied migration 002_price_history to postgres:\/\//);
      expect(lines[2]).toMatch(/^fuel: applied migration 003_map_order to postgres:\/\//);
      expect(lines[3]).toMatch(/^fuel: applied migration 004_covering_price_index to postgres:\/\//);
      expect(lines[4]).toMatch(/^fuel: applied migration 005_stations_version to postgres:\/\//);
      expect(lines[5]).toMatch(/^fuel: applied migration 006_feature_head to postgres:\/\//);
      expect(lines[6]).toMatch(/^fuel: applied migration 007_scrape_runs to /);
      expect(lines[7]).toMatch(/^fuel: applied migration 008_scrape_runs_finished to /);
      expect(lines[8]).toMatch(/^fuel: applied migration 009_station_clusters to /);
      expect(lines[9]).toMatch(/^fuel: applied migration 010_station_tile_points to /);
      expect(lines[10]).toMatch(/^fuel: applied migration 011_price_place_key to /);
      expect(lines[11]).toMatch(/is up to date$/);
    } finally {
      await db.drop();
    }
  });
});

describe('the fuel command line', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/fuel/cli.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      },
    );

  it('stops with a clear message and status 1 on a bad setting', () => {
    const result = run(['migrate'], { DATA_DIR: dir, DATABASE_URL: 'mysql://db/fuel' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('fuel: DATABASE_URL must be a postgres:// URL or file:<path>');
  });

  it('refuses an unknown command with its usage', () => {
    const result = run(['bogus'], {});
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: npm run fuel -- <command>');
    expect(result.stderr).toContain(
      'fuel: error: unknown command "bogus" (choose from serve, migrate, scrape)',
    );
  });
});
