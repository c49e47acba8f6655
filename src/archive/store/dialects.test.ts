/**
 * What differs between SQLite and PostgreSQL is a capability of the driver (dialects.ts): no query file
 * tests which backend it runs on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_CAPABILITIES } from './postgres';
import { SQLITE_CAPABILITIES } from './sqlite';

const QUERIES = path.join(import.meta.dirname, 'queries');
const BRANCH = /\b(dialect|backend)\s*[!=]==|[!=]==\s*['"](sqlite|postgresql)['"]/;

describe('dialect capabilities', () => {
  it('no query file branches on the backend', () => {
    const branches = readdirSync(QUERIES)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) =>
        readFileSync(path.join(QUERIES, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
          .filter(({ line }) => BRANCH.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(branches).toEqual([]);
  });

  it('both backends declare the same capabilities', () => {
    expect(Object.keys(POSTGRES_CAPABILITIES).sort()).toEqual(Object.keys(SQLITE_CAPABILITIES).sort());
  });

  it('the rule sees a branch', () => {
    expect(BRANCH.test("  if (db.dialect === 'sqlite') {")).toBe(true);
    expect(BRANCH.test("  if (db.dialect !== 'postgresql') return 0;")).toBe(true);
  });
});
