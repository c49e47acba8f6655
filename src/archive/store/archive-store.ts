/**
 * The one implementation of ArchiveStore and ArchiveWriter, written once over the Driver: SQLite and
 * PostgreSQL differ only in their driver and its capabilities (dialects.ts).
 *
 * The store is the query modules bound to a driver: every exported `async function name(db, ...args)`
 * of a module listed in QUERY_MODULES becomes the store method `name(...args)`. To add one, export the
 * function from a module here and declare the method in the ArchiveStore (store.ts) or ArchiveWriter
 * (writer.ts) interface; `satisfies ArchiveDatabase` below checks that every declared method exists with
 * the declared signature.
 */
import type { Driver } from './driver';
import * as archiveExport from './queries/archive-export';
import * as changes from './queries/changes';
import * as chatExport from './queries/chat-export';
import * as chats from './queries/chats';
import * as figures from './queries/figures';
import * as grants from './queries/grants';
import * as imports from './queries/imports';
import * as ingest from './queries/ingest';
import * as live from './queries/live';
import * as maintenance from './queries/maintenance';
import * as media from './queries/media';
import * as merge from './queries/merge';
import * as messages from './queries/messages';
import * as push from './queries/push';
import * as search from './queries/search';
import * as sessions from './queries/sessions';
import * as settings from './queries/settings';
import * as tableCopy from './queries/table-copy';
import * as transcripts from './queries/transcripts';
import { sql } from './sql';
import type { ArchiveDatabase } from './store';
import type * as C from './tools';

const QUERY_MODULES = [
  changes,
  chats,
  chatExport,
  archiveExport,
  figures,
  grants,
  imports,
  ingest,
  media,
  maintenance,
  messages,
  search,
  sessions,
  settings,
  live,
  push,
  transcripts,
] as const;

/**
 * A query function `(db, ...args) => Promise` (or an async generator, for streamed reads such as the
 * export) as the store method `(...args) => …`.
 */
type BoundQueries<M> = {
  // biome-ignore lint/suspicious/noExplicitAny: only the shape of the function matters.
  [K in keyof M as M[K] extends (db: Driver, ...args: any[]) => Promise<unknown> | AsyncIterable<unknown>
    ? K
    : never]: M[K] extends (db: Driver, ...args: infer A) => infer R ? (...args: A) => R : never;
};

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

const isAsyncFunction = (value: unknown): value is (...args: unknown[]) => Promise<unknown> =>
  typeof value === 'function' &&
  (value.constructor.name === 'AsyncFunction' || value.constructor.name === 'AsyncGeneratorFunction');

/**
 * Binds every exported async function of the modules to the driver. Other exports (constants, pure
 * helpers) are left out; a name exported by two modules is a programming error.
 */
export function bindQueries<const Ms extends readonly object[]>(
  driver: Driver,
  modules: Ms,
): Intersection<BoundQueries<Ms[number]>> {
  const bound: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (!isAsyncFunction(value)) continue;
      if (name in bound) throw new Error(`store function ${name} is exported by two query modules`);
      bound[name] = (...args: unknown[]) => value(driver, ...args);
    }
  }
  return bound as Intersection<BoundQueries<Ms[number]>>;
}

/** What `openArchiveStore` returns, with the driver beside it (migrations, tests, benchmarks). */
export type ArchiveSqlStore = ArchiveDatabase & { readonly driver: Driver };

export function createArchiveStore(driver: Driver): ArchiveSqlStore {
  return {
    driver,
    backend: driver.dialect,
    async probe() {
      try {
        await driver.get(sql`SELECT 1 AS ok`);
        return true;
      } catch {
        return false;
      }
    },
    close: () => driver.close(),
    ...bindQueries(driver, QUERY_MODULES),
    // Generic methods, and those that take a second archive (merge.ts, table-copy.ts), bound by hand.
    importTransaction: <R>(fn: (w: C.ChatImportWriter) => Promise<R>) =>
      imports.importTransaction(driver, fn),
    maintenanceTransaction: <R>(fn: (w: C.MaintenanceWriter) => Promise<R>) =>
      maintenance.maintenanceTransaction(driver, fn),
    listMergeAccounts: () => merge.listSourceAccounts(driver),
    countOrphans: (accountIds: number[]) => merge.countOrphans(driver, accountIds),
    mergeArchive: (source: C.ArchiveTools, plan: C.MergePlan, hooks: C.MergeHooks) =>
      merge.mergeArchive(driverOf(source as ArchiveDatabase), driver, plan, hooks),
    listCopyTables: () => tableCopy.listTables(driver),
    countTableRows: (table: string) => tableCopy.countRows(driver, table),
    copyTablesTo: (
      target: C.ArchiveTools,
      tables: C.TableInfo[],
      batchSize: number,
      onTable: (table: string, rows: number) => void,
    ) => tableCopy.copyTables(driver, driverOf(target as ArchiveDatabase), tables, batchSize, onTable),
    resetSequences: () => tableCopy.resetSequences(driver),
    writableTableColumns: (table: string) => merge.writableColumns(driver, table),
    tableColumnTypes: (table: string) => tableCopy.columnTypes(driver, table),
    tableChecksum: (t: C.TableInfo, columns: string[], types: Record<string, string>, batchSize: number) =>
      tableCopy.tableChecksum(driver, t, columns, types, batchSize),
  } satisfies ArchiveSqlStore;
}

/** The driver under a store made by createArchiveStore. */
export function driverOf(store: ArchiveDatabase): Driver {
  const driver = (store as Partial<ArchiveSqlStore>).driver;
  if (!driver) throw new TypeError('not a store opened by openArchiveStore');
  return driver;
}
