/**
 * The PostgreSQL backend: a pg pool behind the Driver. 64-bit integers and numerics come back as
 * JavaScript numbers (chat ids and counts fit in 53 bits; photo ids are stored as text); JSON columns come
 * back as text.
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { escapeCopyText } from '../../../common/copy-text';
import { createPgPool, isDatabaseOutage } from '../../../common/databases';
import type { Logger } from '../../../common/logger';
import { stringifyJson } from '../../model/int64';
import type { Driver, Queryable, Row } from '../driver';
import { DatabaseUnavailableError } from '../errors';
import { compile, type Sql } from '../sql';
import { POSTGRES_CAPABILITIES } from './capabilities';

export interface PostgresOptions {
  url: string;
  timeoutSeconds: number;
  echo?: boolean;
  logger?: Logger;
  maxConnections?: number;
  /** Every transaction read-only (a merge source). */
  readonly?: boolean;
}

const INT8 = 20;
const NUMERIC = 1700;
const JSON_TEXT = 114;
const JSONB = 3802;

const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => (value === null ? null : Number(value));
    // JSON comes back as text, read by rows.ts like SQLite's (so id lists beyond 2^53 stay exact).
    if (oid === JSON_TEXT || oid === JSONB) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

function translate(err: unknown): unknown {
  return isDatabaseOutage(err) ? new DatabaseUnavailableError('database unreachable', { cause: err }) : err;
}

/** A value as COPY's text format reads it into a column of any type (a parameter's text, escaped). */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
  if (typeof value === 'object') return escapeCopyText(stringifyJson(value));
  return escapeCopyText(String(value));
}

/** `COPY table (columns) FROM STDIN` on one client, fed page by page with backpressure. */
async function copyInto(
  client: pg.PoolClient,
  table: string,
  columns: string[],
  pages: AsyncIterable<unknown[][]>,
): Promise<number> {
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const stream = client.query(copyFrom(`COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM STDIN`));
  let rows = 0;
  async function* lines() {
    for await (const page of pages) {
      yield page.map((row) => `${row.map(copyField).join('\t')}\n`).join('');
      rows += page.length;
    }
  }
  try {
    await pipeline(Readable.from(lines()), stream);
  } catch (err) {
    throw translate(err);
  }
  return rows;
}

function queryable(
  run: (text: string, params: unknown[], name?: string) => Promise<pg.QueryResult>,
  options: PostgresOptions,
  client?: pg.PoolClient,
) {
  const exec = async (query: Sql) => {
    const { text, params } = compile(query, 'postgresql');
    if (options.echo) options.logger?.info({ sql: text }, 'sql');
    try {
      return await run(text, params, query.name);
    } catch (err) {
      throw translate(err);
    }
  };
  const q: Queryable = {
    dialect: 'postgresql',
    capabilities: POSTGRES_CAPABILITIES,
    all: async <T>(query: Sql) => (await exec(query)).rows as T[],
    get: async <T>(query: Sql) => (await exec(query)).rows[0] as T | undefined,
    run: async (query: Sql) => ({ changes: (await exec(query)).rowCount ?? 0 }),
    ...(client && {
      copyIn: (table: string, columns: string[], pages: AsyncIterable<unknown[][]>) =>
        copyInto(client, table, columns, pages),
    }),
  };
  return q;
}

export class PostgresDriver implements Driver {
  readonly dialect = 'postgresql' as const;
  readonly capabilities = POSTGRES_CAPABILITIES;
  readonly logger?: Logger;
  readonly pool: pg.Pool;
  private readonly direct: Queryable;

  constructor(private readonly options: PostgresOptions) {
    this.logger = options.logger;
    this.pool = createPgPool(options.url, {
      max: options.maxConnections ?? 10,
      connectTimeoutMs: Math.max(1000, Math.round(options.timeoutSeconds * 1000)),
      types,
      ...(options.readonly ? { options: '-c default_transaction_read_only=on' } : {}),
      onIdleError: (err) => options.logger?.warn({ err: err.message }, 'idle database connection failed'),
    });
    this.direct = queryable(
      (text, params, name) =>
        this.pool.query(name ? { name, text, values: params } : { text, values: params }),
      options,
    );
  }

  all<T = Row>(query: Sql): Promise<T[]> {
    return this.direct.all<T>(query);
  }

  get<T = Row>(query: Sql): Promise<T | undefined> {
    return this.direct.get<T>(query);
  }

  run(query: Sql): Promise<{ changes: number }> {
    return this.direct.run(query);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translate(err);
    }
    try {
      await client.query('BEGIN');
      const result = await fn(
        queryable(
          (text, params, name) =>
            client.query(name ? { name, text, values: params } : { text, values: params }),
          this.options,
          client,
        ),
      );
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw translate(err);
    } finally {
      client.release();
    }
  }

  async exec(script: string): Promise<void> {
    // One simple-protocol query runs all its statements in one implicit transaction.
    try {
      await this.pool.query(script);
    } catch (err) {
      throw translate(err);
    }
  }

  async hasTable(name: string): Promise<boolean> {
    const rows = await this.query('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
    return rows.rows[0]?.present === true;
  }

  async hasColumn(table: string, column: string): Promise<boolean> {
    const rows = await this.query(
      `SELECT 1 FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
      [table, column],
    );
    return (rows.rowCount ?? 0) > 0;
  }

  async sizeBytes(): Promise<number> {
    const rows = await this.query('SELECT pg_database_size(current_database()) AS size');
    return Number(rows.rows[0]?.size ?? 0);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** A statement outside the query modules, with the same error translation. */
  private async query(text: string, params: unknown[] = []): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(text, params);
    } catch (err) {
      throw translate(err);
    }
  }
}
