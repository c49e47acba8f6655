import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The PostgreSQL server the tests use (trust auth on 127.0.0.1). */
export const TEST_POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database made once and copied for every test that needs it (a migrated schema): `name` is unique to
 * its content (for example a hash of the migration files), `prepare` fills it through its URL and closes
 * every connection it opened.
 */
export interface TestTemplate {
  name: string;
  prepare(url: string): Promise<void>;
  /** Other templates whose names start with this are stale once this one is made, and are dropped. */
  stalePrefix?: string;
}

/**
 * A template named after the migration files it is made from (`<prefix>_tpl_<hash>`): a change to any of
 * them makes a new one, and the stale ones of that prefix are dropped when it is made.
 */
export function migratedTemplate(
  prefix: string,
  migrationDirs: string[],
  prepare: TestTemplate['prepare'],
): TestTemplate {
  const hash = createHash('sha256');
  for (const dir of migrationDirs) {
    for (const file of readdirSync(dir).sort()) {
      hash.update(file);
      hash.update(readFileSync(path.join(dir, file)));
    }
  }
  return { name: `${prefix}_tpl_${hash.digest('hex').slice(0, 12)}`, stalePrefix: `${prefix}_tpl_`, prepare };
}

const urlOf = (database: string) => {
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const exists = async (admin: pg.Client, name: string) =>
  (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

/**
 * Drops a test database once the connections a test closed have gone (a second at most), then forcibly:
 * terminating a connection that is still closing makes its client report an error nobody listens to.
 */
async function dropWhenQuiet(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const open = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      name,
    ]);
    if (open.rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

const made = new Map<string, Promise<void>>();

/**
 * Makes the template database when it is missing: once per process, and under an advisory lock so the
 * test workers running at the same time make it once between them. Built under another name and renamed
 * when ready, so no worker copies a half-made template.
 */
function ensureTemplate(template: TestTemplate): Promise<void> {
  let pending = made.get(template.name);
  if (!pending) {
    pending = withAdmin(async (admin) => {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template.name]);
      try {
        if (await exists(admin, template.name)) return;
        const building = `${template.name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building}`);
        await template.prepare(urlOf(building));
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template.name}`);
        if (template.stalePrefix) {
          const stale = await admin.query<{ datname: string }>(
            'SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2',
            [template.stalePrefix, template.name],
          );
          for (const { datname } of stale.rows)
            await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
        }
      } finally {
        await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template.name]);
      }
    });
    made.set(template.name, pending);
    pending.catch(() => made.delete(template.name));
  }
  return pending;
}

/**
 * A fresh database with a unique name, so suites of other services running at the same time never meet
 * this one's rows; with a template, a copy of it (PostgreSQL copies a small database in a fraction of the
 * time its migrations take). `drop()` removes it, closing whatever connections are left.
 */
export async function createTestDatabase(prefix: string, template?: TestTemplate): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  if (template) await ensureTemplate(template);
  await withAdmin((admin) =>
    admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template.name}` : `CREATE DATABASE ${name}`),
  );
  return {
    url: urlOf(name),
    drop: () => withAdmin((admin) => dropWhenQuiet(admin, name)),
  };
}
