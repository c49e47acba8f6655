/**
 * The test tiers' global set-up: the store suites run against a real PostgreSQL (TEST_POSTGRES_URL, by
 * default postgres://postgres@127.0.0.1:5432/postgres). When none answers, `npm test` brings one up with
 * the script `.ci/run` uses (scripts/ci/postgres.sh: Debian's packages, a trust rule for the loopback
 * addresses), saying so in one line; where it cannot (not root, no apt-get, or a server of the user's own
 * named), it stops the run with one line saying what to run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { TEST_POSTGRES_ADMIN_URL } from '../../src/common/testing/postgres';

const SCRIPT = path.join(import.meta.dirname, 'postgres.sh');

export interface PostgresSetup {
  /** Whether the server answers a query, and the error when it does not. */
  probe(): Promise<string | null>;
  /** Whether this process may install and start one (root, with apt-get). */
  canStart: boolean;
  /** Whether the user named a server of their own (TEST_POSTGRES_URL). */
  userServer: boolean;
  start(): void;
  say(line: string): void;
}

export class PostgresUnavailable extends Error {}

/** Makes sure the test server answers, starting one when it may; throws with the one line to show. */
export async function ensureTestPostgres(setup: PostgresSetup): Promise<void> {
  const problem = await setup.probe();
  if (problem === null) return;
  const where = new URL(TEST_POSTGRES_ADMIN_URL).host;
  if (setup.userServer) {
    throw new PostgresUnavailable(`PostgreSQL at TEST_POSTGRES_URL (${where}) does not answer: ${problem}`);
  }
  if (!setup.canStart) {
    throw new PostgresUnavailable(
      `PostgreSQL does not answer on ${where} (${problem}); the store suites need it: run \`sudo bash scripts/ci/postgres.sh\` (Debian or Ubuntu), or set TEST_POSTGRES_URL to a server where that role may create databases`,
    );
  }
  setup.say(
    `PostgreSQL does not answer on ${where}: starting one with scripts/ci/postgres.sh (installs it on first use)`,
  );
  setup.start();
  const after = await setup.probe();
  if (after !== null) throw new PostgresUnavailable(`PostgreSQL still does not answer on ${where}: ${after}`);
}

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** vitest's globalSetup entry. */
export default async function setup(): Promise<void> {
  try {
    await ensureTestPostgres({
      probe,
      canStart: process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && existsSync(SCRIPT),
      userServer: process.env.TEST_POSTGRES_URL !== undefined,
      start: () => {
        execFileSync('bash', [SCRIPT], { stdio: 'inherit' });
      },
      say: (line) => console.log(line),
    });
  } catch (error) {
    if (!(error instanceof PostgresUnavailable)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
