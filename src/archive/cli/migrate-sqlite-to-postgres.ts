/**
 * `migrate-sqlite-to-postgres -s PATH -p URL [-b N] [-v] [-n]`: a SQLite archive moved to PostgreSQL.
 * The target is migrated to the newest schema when it has none, must be empty, receives every table in
 * batches within one transaction (ids kept), and has its sequences reset. `--verify-only` compares row
 * counts and a checksum per table; `--dry-run` counts and writes nothing.
 */
import { existsSync } from 'node:fs';
import {
  type CommandContext,
  defineCommand,
  errorText,
  intOption,
  type OptionValues,
} from '../../common/cli/command';
import { parseDatabaseConfig } from '../store/config';
import { listMigrations, migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import type { ArchiveDatabase, TableInfo } from '../store/store';

class Refused extends Error {}

async function verify(
  ctx: CommandContext,
  source: ArchiveDatabase,
  target: ArchiveDatabase,
  tables: TableInfo[],
  batch: number,
) {
  let failed = 0;
  ctx.io.out('Verifying row counts and checksums:');
  for (const table of tables) {
    const targetColumns = new Set(await target.writableTableColumns(table.name));
    const columns = (await source.writableTableColumns(table.name)).filter((c) => targetColumns.has(c));
    const types = await target.tableColumnTypes(table.name);
    const a = await source.tableChecksum(table, columns, types, batch);
    const b = await target.tableChecksum(table, columns, types, batch);
    const ok = a.rows === b.rows && a.checksum === b.checksum;
    if (!ok) failed++;
    ctx.io.out(
      ok
        ? `  ${table.name}: ${a.rows} rows, checksum ${a.checksum} OK`
        : `  ${table.name}: SQLite ${a.rows} rows (checksum ${a.checksum}), PostgreSQL ${b.rows} rows (checksum ${b.checksum}) MISMATCH`,
    );
  }
  ctx.io.out(failed === 0 ? 'Verification passed.' : `Verification FAILED: ${failed} tables differ.`);
  return failed === 0 ? 0 : 1;
}

export async function runSqliteToPostgres(ctx: CommandContext, values: OptionValues): Promise<number> {
  const batch = intOption(values, 'batch-size', 1000, 1);
  const verifyOnly = values['verify-only'] === true;
  const dryRun = values['dry-run'] === true;
  const sqlitePath = String(values.sqlite);
  let source: ArchiveDatabase | null = null;
  let target: ArchiveDatabase | null = null;
  try {
    const pg = parseDatabaseConfig({ DATABASE_URL: String(values.postgres) });
    if (pg.backend !== 'postgresql') throw new Refused('-p/--postgres must be a PostgreSQL URL');
    if (!existsSync(sqlitePath)) throw new Refused(`SQLite database not found: ${sqlitePath}`);
    source = await openArchiveStore(
      { backend: 'sqlite', path: sqlitePath, timeoutSeconds: 60, echo: pg.echo },
      ctx.logger,
      {
        readonly: true,
      },
    );
    target = await openArchiveStore(pg, ctx.logger);
    const tables = await source.listCopyTables();
    if (verifyOnly) return await verify(ctx, source, target, tables, batch);

    const latest = Math.max(...listMigrations('sqlite').map((m) => m.version));
    const from = await source.schemaRevision();
    if (from !== latest) {
      throw new Refused(
        `the SQLite archive is at schema revision ${from}, not ${latest}; run migrate on it first`,
      );
    }
    const revision = await target.schemaRevision();
    if (revision === 0 && !dryRun) await migrateOpenStore(target, ctx.logger);
    else if (revision !== 0 && revision !== latest) {
      throw new Refused(`the PostgreSQL database is at schema revision ${revision}, not ${latest}`);
    }
    if (revision !== 0) {
      for (const table of tables) {
        if ((await target.countTableRows(table.name)) > 0) {
          throw new Refused(`the PostgreSQL database is not empty (table ${table.name} has rows)`);
        }
      }
    }
    if (dryRun) {
      ctx.io.out(`[DRY RUN] Would copy from SQLite to PostgreSQL (batch size ${batch}):`);
      let total = 0;
      for (const table of tables) {
        const n = await source.countTableRows(table.name);
        total += n;
        ctx.io.out(`  ${table.name}: ${n} rows`);
      }
      ctx.io.out(`[DRY RUN] ${total} rows in ${tables.length} tables; nothing was written.`);
      return 0;
    }
    ctx.io.out(`Copying SQLite to PostgreSQL (batch size ${batch}):`);
    let total = 0;
    const started = Date.now();
    await source.copyTablesTo(target, tables, batch, (table, rows) => {
      total += rows;
      ctx.io.out(`  ${table}: ${rows} rows`);
    });
    const sequences = await target.resetSequences();
    ctx.logger.info({ rows: total, tables: tables.length, ms: Date.now() - started }, 'tables copied');
    ctx.io.out(`Sequences reset: ${sequences}`);
    ctx.io.out(`Migration complete: ${total} rows in ${tables.length} tables.`);
    return 0;
  } catch (error) {
    ctx.io.err(`${error instanceof Refused ? 'Migration refused' : 'Migration failed'}: ${errorText(error)}`);
    return 1;
  } finally {
    await source?.close();
    await target?.close();
  }
}

export const migrateSqliteToPostgres = defineCommand()({
  name: 'migrate-sqlite-to-postgres',
  summary: 'copy a SQLite archive into an empty PostgreSQL database, or verify a copy',
  options: {
    sqlite: { type: 'string', short: 's', required: true, metavar: 'PATH', help: 'the SQLite archive' },
    postgres: {
      type: 'string',
      short: 'p',
      required: true,
      metavar: 'URL',
      help: 'the PostgreSQL database URL',
    },
    'batch-size': { type: 'string', short: 'b', metavar: 'N', help: 'rows per batch (default 1000)' },
    'verify-only': { type: 'boolean', short: 'v', help: 'compare row counts and checksums per table' },
    'dry-run': { type: 'boolean', short: 'n', help: 'count what would be copied, write nothing' },
  },
  run: runSqliteToPostgres,
});
