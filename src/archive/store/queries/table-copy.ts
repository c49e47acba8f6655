/**
 * `archive-cli migrate-sqlite-to-postgres`: every table of a SQLite archive copied as it is (ids kept)
 * into a migrated, empty PostgreSQL archive, read in batches and written by one COPY per table where the
 * target has it (else multi-row INSERTs), identity sequences moved past the copied ids,
 * and a verification by row count and an order-independent checksum per table.
 */
import { createHash } from 'node:crypto';
import type { Driver, Queryable, Row } from '../driver';
import { join, raw, type Sql, sql } from '../sql';
import type { TableInfo } from '../tools';
import { writableColumns } from './merge';

const MAX_PARAMS = 30_000;

const quote = (name: string) => raw(`"${name.replace(/"/g, '""')}"`);

/** Tables to copy in creation (foreign-key) order, without full-text shadow tables and migration history. */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const catalog = db.capabilities.tableCatalog;
  if (!catalog) throw new TypeError('the tables are listed from the SQLite archive');
  const tables = await db.all<{ name: string; sql: string | null }>(catalog.tables);
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  const out: TableInfo[] = [];
  for (const t of tables) {
    if (virtual.includes(t.name) || virtual.some((v) => t.name.startsWith(`${v}_`))) continue;
    const key = (await db.all<{ name: string }>(catalog.primaryKey(t.name))).map((c) => c.name);
    out.push({ name: t.name, key: key.length > 0 ? key : ['rowid'] });
  }
  return out;
}

export async function countRows(db: Queryable, table: string): Promise<number> {
  const row = await db.get(sql`SELECT count(*) AS n FROM ${quote(table)}`);
  return Number(row?.n ?? 0);
}

async function* pages(db: Queryable, table: TableInfo, size: number): AsyncGenerator<Row[]> {
  let last: Row | null = null;
  const key = raw(table.key.map((k) => `"${k}"`).join(', '));
  while (true) {
    const after: Sql = last
      ? sql`WHERE (${key}) > (${join(table.key.map((k) => sql`${(last as Row)[k]}`))})`
      : sql``;
    const rows: Row[] = await db.all(
      sql`SELECT * FROM ${quote(table.name)} ${after} ORDER BY ${key} LIMIT ${size}`,
    );
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    last = rows[rows.length - 1] as Row;
  }
}

/** Copies every table in one target transaction; `onTable` hears each table's row count. */
export async function copyTables(
  source: Queryable,
  target: Driver,
  tables: TableInfo[],
  batchSize: number,
  onTable: (table: string, rows: number) => void,
): Promise<void> {
  await target.transaction(async (tx) => {
    for (const table of tables) {
      const wanted = new Set(await writableColumns(tx, table.name));
      const have = (await writableColumns(source, table.name)).filter((c) => wanted.has(c));
      let copied = 0;
      if (tx.copyIn) {
        // One bulk load per table, fed page by page (PostgreSQL's COPY).
        const rows = async function* () {
          for await (const page of pages(source, table, batchSize))
            yield page.map((row) => have.map((c) => row[c]));
        };
        onTable(table.name, await tx.copyIn(table.name, have, rows()));
        continue;
      }
      for await (const page of pages(source, table, batchSize)) {
        const per = Math.max(1, Math.floor(MAX_PARAMS / have.length));
        for (let i = 0; i < page.length; i += per) {
          const values = page
            .slice(i, i + per)
            .map((row) => sql`(${join(have.map((c) => sql`${row[c] ?? null}`))})`);
          await tx.run(
            sql`INSERT INTO ${quote(table.name)} (${raw(have.map((c) => `"${c}"`).join(', '))}) VALUES ${join(values)}`,
          );
        }
        copied += page.length;
      }
      onTable(table.name, copied);
    }
  });
}

/** Moves every identity sequence past the largest id in use; returns how many were set. */
export async function resetSequences(db: Queryable): Promise<number> {
  const identities = db.capabilities.identityColumns;
  if (!identities) return 0;
  const rows = await db.all<{ table_name: string; column_name: string }>(identities);
  for (const r of rows) {
    await db.run(sql`SELECT setval(pg_get_serial_sequence(${r.table_name}, ${r.column_name}),
      coalesce((SELECT max(${quote(r.column_name)}) FROM ${quote(r.table_name)}), 1),
      (SELECT max(${quote(r.column_name)}) FROM ${quote(r.table_name)}) IS NOT NULL)`);
  }
  return rows.length;
}

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
};

/** PostgreSQL's type of each column, to read both backends' values the same way. */
export async function columnTypes(db: Queryable, table: string): Promise<Record<string, string>> {
  const rows = await db.all<{ column_name: string; data_type: string }>(sql`SELECT column_name, data_type
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`);
  return Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
}

function normalise(value: unknown, type: string | undefined): string {
  if (value === null || value === undefined) return '\u0000';
  if (type === 'boolean') return value === true || value === 1 || value === '1' ? '1' : '0';
  if (type?.startsWith('timestamp'))
    return new Date(value instanceof Date ? value : String(value)).toISOString();
  if (type === 'jsonb' || type === 'json') {
    return JSON.stringify(canonical(typeof value === 'string' ? JSON.parse(value) : value));
  }
  if (typeof value === 'number' || typeof value === 'bigint') return String(Number(value));
  if (type && /int|numeric|real|double/.test(type)) return String(Number(value));
  return String(value);
}

/**
 * Row count and checksum of a table over the given columns: the sum of each row's SHA-256 prefix, so
 * the two backends may read rows in their own order (text keys sort differently).
 */
export async function tableChecksum(
  db: Queryable,
  table: TableInfo,
  columns: string[],
  types: Record<string, string>,
  batchSize: number,
): Promise<{ rows: number; checksum: string }> {
  let sum = 0n;
  let rows = 0;
  for await (const page of pages(db, table, batchSize)) {
    for (const row of page) {
      const line = columns.map((c) => normalise(row[c], types[c])).join('\u001f');
      sum = (sum + createHash('sha256').update(line).digest().readBigUInt64BE(0)) & 0xffffffffffffffffn;
      rows++;
    }
  }
  return { rows, checksum: sum.toString(16).padStart(16, '0') };
}
