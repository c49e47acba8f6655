import type { Logger } from '../../common/logger';
import type { DialectCapabilities } from './dialects';
import type { Dialect, Sql } from './sql';

export type Row = Record<string, unknown>;

/** What the shared store code runs its SQL on: a connection, or a transaction on one. */
export interface Queryable {
  readonly dialect: Dialect;
  /** Everything the query files need to know about the backend's SQL (see dialects.ts). */
  readonly capabilities: DialectCapabilities;
  all<T = Row>(query: Sql): Promise<T[]>;
  get<T = Row>(query: Sql): Promise<T | undefined>;
  run(query: Sql): Promise<{ changes: number }>;
  /**
   * Streams rows into a table in one bulk load (`COPY … FROM STDIN`), where the backend has one
   * (PostgreSQL, inside a transaction); absent elsewhere, where multi-row INSERTs do the work. Values as a
   * statement's parameters take them; returns how many rows went in.
   */
  copyIn?(table: string, columns: string[], pages: AsyncIterable<unknown[][]>): Promise<number>;
}

export interface Driver extends Queryable {
  readonly logger?: Logger;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Several statements at once, in one transaction (a migration). */
  exec(script: string): Promise<void>;
  /** Whether a table (or virtual table) exists. */
  hasTable(name: string): Promise<boolean>;
  /** Whether a column exists. */
  hasColumn(table: string, column: string): Promise<boolean>;
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
