/**
 * What `archive-cli import` writes, inside one transaction per chat: the ImportWriter is bound to that
 * transaction, so a chat either lands whole or not at all.
 */

import type { Driver } from '../driver';
import { list, sql } from '../sql';
import type { ChatImportWriter, ImportTarget } from '../tools';
import type { Db } from './common';
import { refreshArchiveFigures } from './figures';
import { insertMessageRows, upsertChatIn, upsertMedia, upsertUser } from './ingest';
import { compactSearchIndex } from './search';

const ID_BATCH = 500;

/** The account imports go to: the first one, created when the archive has none. */
export async function importAccountId(db: Db): Promise<number | null> {
  const row = await db.get(sql`SELECT min(id) AS id FROM accounts`);
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

export async function countChatMessages(db: Db, t: ImportTarget): Promise<number> {
  const row = await db.get(
    sql`SELECT count(*) AS n FROM messages WHERE account_id = ${t.accountId} AND chat_id = ${t.chatId}`,
  );
  return Number(row?.n ?? 0);
}

/** Which of these message ids the chat already has. */
export async function existingMessageIds(db: Db, t: ImportTarget, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const part = ids.slice(i, i + ID_BATCH);
    const rows = await db.all<{ id: number }>(sql`SELECT id FROM messages
      WHERE account_id = ${t.accountId} AND chat_id = ${t.chatId}
        AND id IN ${list(part)}`);
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
}

function writer(tx: Db): ChatImportWriter {
  return {
    ensureAccount: async () => {
      const id = await importAccountId(tx);
      if (id !== null) return id;
      const row = await tx.get(sql`INSERT INTO accounts (label) VALUES (${null}) RETURNING id`);
      return Number(row?.id);
    },
    upsertChat: (chat) => upsertChatIn(tx, chat),
    upsertUser: (user) => upsertUser(tx, user),
    countMessages: (target) => countChatMessages(tx, target),
    existingMessageIds: (target, ids) => existingMessageIds(tx, target, ids),
    insertMessages: (messages) => insertMessageRows(tx, messages),
    upsertMedia: (media) => upsertMedia(tx, media),
    addReactions: async (ref, reactions) => {
      for (const r of reactions) {
        await tx.run(sql`INSERT INTO reactions (account_id, chat_id, message_id, emoji, count)
          VALUES (${ref.accountId}, ${ref.chatId}, ${ref.messageId}, ${r.emoji}, ${r.count})
          ON CONFLICT DO NOTHING`);
      }
    },
    pinMessages: async (target, ids) => {
      for (let i = 0; i < ids.length; i += ID_BATCH) {
        await tx.run(sql`UPDATE messages SET is_pinned = TRUE
          WHERE account_id = ${target.accountId} AND chat_id = ${target.chatId}
            AND id IN ${list(ids.slice(i, i + ID_BATCH))}`);
      }
    },
  };
}

export async function importTransaction<T>(
  driver: Driver,
  fn: (w: ChatImportWriter) => Promise<T>,
): Promise<T> {
  const bulk = driver.capabilities.bulkWrite;
  const settings = bulk && (await driver.capabilities.hasFullTextIndex(driver)) ? bulk : null;
  return driver.transaction(async (tx) => {
    if (settings) await tx.run(settings.begin);
    const result = await fn(writer(tx));
    if (settings) await tx.run(settings.end);
    return result;
  });
}

/**
 * What every bulk write (an import, a merge, a generated archive) ends with: the cached figures `stats`
 * prints counted again, then the search indexes merged and their word lists and trigram counts brought up
 * to date (seconds per million messages, so once at the end, not per chat).
 */
export async function finishBulkWrite(driver: Driver, now = new Date()): Promise<void> {
  await refreshArchiveFigures(driver, now);
  await compactSearchIndex(driver);
}
