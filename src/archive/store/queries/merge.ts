/**
 * `archive-cli merge`: every row an account owns, read page by page from another archive (either
 * backend) and written into this one's open transaction under a new account id. Column lists come from
 * the target's schema (both archives are at the same revision), values go through the shared SQL
 * conversion, so SQLite's 0/1 and ISO text and PostgreSQL's booleans and Dates cross either way.
 * Viewer accounts, sessions, share links, the audit log and push subscriptions are never read.
 */
import type { Driver, Queryable, Row } from '../driver';
import { str } from '../rows';
import { join, list, raw, Sql, sql } from '../sql';
import type { Db } from './common';
import { freeSlots, mintChatRef, orderKey, slotKey } from './ingest';

const PAGE = 1000;
const MAX_PARAMS = 30_000;

/** Account-owned tables in foreign-key order, with the key a page walks. */
export const OWNED_TABLES: readonly { table: string; key: string[]; serial?: boolean }[] = [
  { table: 'chats', key: ['account_id', 'id'] },
  { table: 'messages', key: ['pk'] },
  { table: 'message_versions', key: ['id'], serial: true },
  { table: 'media', key: ['account_id', 'id'] },
  { table: 'media_transcripts', key: ['id'], serial: true },
  { table: 'reactions', key: ['id'], serial: true },
  { table: 'forum_topics', key: ['account_id', 'chat_id', 'id'] },
  { table: 'chat_folders', key: ['account_id', 'id'] },
  { table: 'chat_folder_members', key: ['account_id', 'folder_id', 'chat_id'] },
  { table: 'avatar_history', key: ['id'], serial: true },
  { table: 'sync_status', key: ['account_id', 'chat_id'] },
  { table: 'chat_figures', key: ['account_id', 'chat_id'] },
];

export interface SourceAccount {
  id: number;
  label: string | null;
  platformUserId: number | null;
}

export interface MergeHooks {
  /** Called after each table of each account is copied (tests inject failures here). */
  afterTable?(table: string): void | Promise<void>;
  /**
   * A media or chat-photo row about to be written under target account `accountId`: returns its
   * file_path in the target (copying the file).
   */
  mediaFile?(
    row: { kind: 'media' | 'avatar'; file_path: string | null; chat_id: number },
    accountId: number,
  ): Promise<string | null>;
}

/** Columns a row can be written with (no generated columns). */
export async function writableColumns(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.all<{ name: string }>(db.capabilities.writableColumns(table));
  return rows.map((r) => r.name);
}

export async function listSourceAccounts(source: Queryable): Promise<SourceAccount[]> {
  const rows = await source.all(sql`SELECT id, label, platform_user_id FROM accounts ORDER BY id`);
  return rows.map((r) => ({
    id: Number(r.id),
    label: str(r.label),
    platformUserId: r.platform_user_id === null ? null : Number(r.platform_user_id),
  }));
}

const after = (key: string[], last: Row | null): Sql => {
  if (!last) return sql``;
  const cols = raw(`(${key.join(', ')})`);
  return sql`AND ${cols} > (${join(key.map((k) => sql`${last[k]}`))})`;
};

/** Source rows of an account's table, page by page in key order. */
async function* pages(source: Queryable, table: string, key: string[], accountId: number | null) {
  let last: Row | null = null;
  const where = accountId === null ? sql`TRUE` : sql`account_id = ${accountId}`;
  while (true) {
    const rows: Row[] = await source.all(sql`SELECT * FROM ${raw(table)} WHERE ${where} ${after(key, last)}
      ORDER BY ${raw(key.join(', '))} LIMIT ${PAGE}`);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE) return;
    last = rows[rows.length - 1] as Row;
  }
}

async function insertRows(tx: Db, table: string, columns: string[], rows: Sql[][], conflict = sql``) {
  const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += per) {
    const values = rows.slice(i, i + per).map((cells) => sql`(${join(cells)})`);
    await tx.run(
      sql`INSERT INTO ${raw(table)} (${raw(columns.join(', '))}) VALUES ${join(values)} ${conflict}`,
    );
  }
}

/** Tables whose rows belong to one message, and the time each row gives its placeholder message. */
const MESSAGE_CHILDREN = [
  { table: 'media', date: 'created_at' },
  { table: 'message_versions', date: 'date' },
  { table: 'reactions', date: 'created_at' },
] as const;

/** Orphans the source holds (rows whose chat or message is missing), by kind. */
export async function countOrphans(source: Queryable, accountIds: number[]): Promise<Record<string, number>> {
  const ids = list(accountIds);
  const messages = await source.get(sql`SELECT count(*) AS n FROM messages m WHERE m.account_id IN ${ids}
    AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.account_id = m.account_id AND c.id = m.chat_id)`);
  const counts: Record<string, number> = { messages: Number(messages?.n ?? 0) };
  for (const { table } of MESSAGE_CHILDREN) {
    const row = await source.get(sql`SELECT count(*) AS n FROM ${raw(table)} d WHERE d.account_id IN ${ids}
      AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.account_id = d.account_id AND m.chat_id = d.chat_id
                      AND m.id = d.message_id)`);
    counts[table] = Number(row?.n ?? 0);
  }
  const sync = await source.get(sql`SELECT count(*) AS n FROM sync_status s WHERE s.account_id IN ${ids}
    AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.account_id = s.account_id AND c.id = s.chat_id)`);
  counts.sync_status = Number(sync?.n ?? 0);
  return counts;
}

/** Placeholder chats for the orphans of an account (before its chats are copied). */
async function addMissingChats(source: Queryable, tx: Db, sid: number, tid: number): Promise<number> {
  const children = MESSAGE_CHILDREN.map(
    ({ table }) => sql`UNION SELECT chat_id FROM ${raw(table)} WHERE account_id = ${sid}`,
  );
  const chats = await source.all(sql`SELECT DISTINCT chat_id FROM (
      SELECT chat_id FROM messages WHERE account_id = ${sid}
      UNION SELECT chat_id FROM sync_status WHERE account_id = ${sid}
      ${join(children, ' ')}) x
    WHERE NOT EXISTS (SELECT 1 FROM chats c WHERE c.account_id = ${sid} AND c.id = x.chat_id)`);
  for (const r of chats) {
    const chatId = Number(r.chat_id);
    const ref = await freeRef(tx, null);
    await tx.run(sql`INSERT INTO chat_refs (ref, account_id, chat_id) VALUES (${ref}, ${tid}, ${chatId})`);
    await tx.run(sql`INSERT INTO chats (account_id, id, ref, type)
      VALUES (${tid}, ${chatId}, ${ref}, ${chatId > 0 ? 'private' : chatId > -1_000_000_000_000 ? 'group' : 'supergroup'})`);
  }
  return chats.length;
}

/**
 * Placeholder messages for the rows of an account that belong to a missing message (after its messages
 * are copied, before those rows): dated by the earliest such row.
 */
async function addMissingMessages(source: Queryable, tx: Db, sid: number, tid: number): Promise<number> {
  const missing = new Map<string, { chatId: number; messageId: number; date: Date }>();
  for (const { table, date } of MESSAGE_CHILDREN) {
    const rows = await source.all(sql`SELECT d.chat_id, d.message_id, min(d.${raw(date)}) AS date
      FROM ${raw(table)} d WHERE d.account_id = ${sid} AND NOT EXISTS (SELECT 1 FROM messages m
        WHERE m.account_id = d.account_id AND m.chat_id = d.chat_id AND m.id = d.message_id)
      GROUP BY d.chat_id, d.message_id`);
    for (const r of rows) {
      const at = r.date instanceof Date ? r.date : new Date(String(r.date));
      const key = `${r.chat_id}:${r.message_id}`;
      const seen = missing.get(key);
      if (!seen || at < seen.date) {
        missing.set(key, { chatId: Number(r.chat_id), messageId: Number(r.message_id), date: at });
      }
    }
  }
  for (const [n, m] of [...missing.values()].entries()) {
    await tx.run(sql`INSERT INTO messages (pk, account_id, chat_id, id, date, raw_data)
      VALUES (${orderKey(m.date, n)}, ${tid}, ${m.chatId}, ${m.messageId}, ${m.date},
        ${JSON.stringify({ placeholder: true })})`);
  }
  return missing.size;
}

/** The source's ref when the target has never minted it, else a new one. */
async function freeRef(tx: Db, wanted: string | null): Promise<string> {
  if (wanted) {
    const taken = await tx.get(sql`SELECT 1 AS x FROM chat_refs WHERE ref = ${wanted}`);
    if (!taken) return wanted;
  }
  return mintChatRef();
}

export interface MergePlan {
  /** Source account ids to copy. */
  accounts: number[];
  addMissingParents: boolean;
  dryRun: boolean;
}

export interface MergeResult {
  accounts: { sourceId: number; label: string | null; targetId: number }[];
  /** Rows added per table. */
  rows: Record<string, number>;
}

export interface CopyResult {
  targetId: number;
  rows: Record<string, number>;
}

/** Copies one source account and everything it owns into the target transaction. */
export async function copyAccount(
  source: Queryable,
  tx: Db,
  account: SourceAccount,
  options: { addMissingParents: boolean; hooks: MergeHooks },
): Promise<CopyResult> {
  const rows: Record<string, number> = { accounts: 1 };
  const inserted = await tx.get(sql`INSERT INTO accounts (label, platform_user_id)
    VALUES (${account.label}, ${account.platformUserId}) RETURNING id`);
  const tid = Number(inserted?.id);
  const bump = (table: string, n: number) => {
    rows[table] = (rows[table] ?? 0) + n;
  };
  if (options.addMissingParents) bump('placeholders', await addMissingChats(source, tx, account.id, tid));
  await options.hooks.afterTable?.('accounts');

  for (const { table, key, serial } of OWNED_TABLES) {
    const columns = (await writableColumns(tx, table)).filter((c) => !(serial && c === 'id'));
    bump(table, 0);
    for await (const page of pages(source, table, key, account.id)) {
      const perSecond = new Map<number, number>();
      const dateOf = (row: Row) => (row.date instanceof Date ? row.date : new Date(String(row.date)));
      const slots = table === 'messages' ? await freeSlots(tx, page.map(dateOf)) : null;
      const cells: Sql[][] = [];
      for (const row of page) {
        const values: Record<string, unknown> = { ...row, account_id: tid };
        if (table === 'chats') {
          values.ref = await freeRef(tx, str(row.ref));
          await tx.run(
            sql`INSERT INTO chat_refs (ref, account_id, chat_id) VALUES (${values.ref}, ${tid}, ${row.id})`,
          );
        }
        if (table === 'media_transcripts') values.copied_from_id = null;
        if ((table === 'media' || table === 'avatar_history') && options.hooks.mediaFile) {
          values.file_path = await options.hooks.mediaFile(
            {
              kind: table === 'media' ? 'media' : 'avatar',
              file_path: str(row.file_path),
              chat_id: Number(row.chat_id),
            },
            tid,
          );
        }
        cells.push(
          columns.map((c) => {
            if (table === 'messages' && c === 'pk') {
              const date = dateOf(row);
              const second = Math.floor(date.getTime() / 1000);
              const n = perSecond.get(second) ?? 0;
              perSecond.set(second, n + 1);
              const key = slotKey(slots, date, n);
              return key instanceof Sql ? key : sql`${key}`;
            }
            return sql`${values[c] ?? null}`;
          }),
        );
      }
      await insertRows(tx, table, columns, cells);
      bump(table, page.length);
    }
    if (table === 'messages' && options.addMissingParents) {
      bump('placeholders', await addMissingMessages(source, tx, account.id, tid));
    }
    await options.hooks.afterTable?.(table);
  }
  return { targetId: tid, rows };
}

/** Users are global: those the target lacks are added, none is changed. */
export async function copyMissingUsers(source: Queryable, tx: Db): Promise<number> {
  const columns = await writableColumns(tx, 'users');
  let added = 0;
  for await (const page of pages(source, 'users', ['id'], null)) {
    const before = await tx.get(sql`SELECT count(*) AS n FROM users`);
    await insertRows(
      tx,
      'users',
      columns,
      page.map((row) => columns.map((c) => sql`${row[c] ?? null}`)),
      sql`ON CONFLICT (id) DO NOTHING`,
    );
    const now = await tx.get(sql`SELECT count(*) AS n FROM users`);
    added += Number(now?.n ?? 0) - Number(before?.n ?? 0);
  }
  return added;
}

class DryRunDone extends Error {
  constructor(readonly result: MergeResult) {
    super('dry run');
  }
}

/** The whole merge in one target transaction (rolled back at the end of a dry run). */
export async function mergeArchive(
  source: Driver,
  target: Driver,
  plan: MergePlan,
  hooks: MergeHooks,
): Promise<MergeResult> {
  const wanted = new Set(plan.accounts);
  const accounts = (await listSourceAccounts(source)).filter((a) => wanted.has(a.id));
  // PostgreSQL's sequence moves outside the transaction: a merge that died (kill -9) after drawing ids had
  // no chance to give them back, so every merge starts from the ids in use.
  const afterExplicitId = target.capabilities.afterExplicitId('accounts');
  if (afterExplicitId) await target.run(afterExplicitId);
  try {
    return await target.transaction(async (tx) => {
      const result: MergeResult = { accounts: [], rows: { users: await copyMissingUsers(source, tx) } };
      await hooks.afterTable?.('users');
      for (const account of accounts) {
        const copied = await copyAccount(source, tx, account, {
          addMissingParents: plan.addMissingParents,
          hooks,
        });
        result.accounts.push({ sourceId: account.id, label: account.label, targetId: copied.targetId });
        for (const [table, n] of Object.entries(copied.rows))
          result.rows[table] = (result.rows[table] ?? 0) + n;
      }
      if (plan.dryRun) throw new DryRunDone(result);
      return result;
    });
  } catch (error) {
    // Rolled back (a dry run, or a failure): the account ids the merge drew from PostgreSQL's sequence go
    // back to it, so the next merge maps to the ids a dry run printed.
    if (afterExplicitId) await target.run(afterExplicitId);
    if (error instanceof DryRunDone) return error.result;
    throw error;
  }
}
