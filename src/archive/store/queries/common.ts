import type { Queryable } from '../driver';
import { join, list, raw, type Sql, sql } from '../sql';
import type { ChatKey, Visibility } from '../types';

/** The caller's visibility as a condition on a chats row aliased `alias`. */
export function visibleChats(vis: Visibility, alias = 'c'): Sql {
  const a = raw(alias);
  const parts: Sql[] = [];
  if (vis.accounts) parts.push(sql`${a}.account_id IN ${list(possibleAccountIds(vis.accounts))}`);
  if (vis.chatRefs) parts.push(sql`${a}.ref IN ${list(vis.chatRefs)}`);
  if (vis.displayChatIds) parts.push(sql`${a}.id IN ${list(vis.displayChatIds)}`);
  return parts.length > 0 ? join(parts, ' AND ') : sql`TRUE`;
}

/** Account ids are 32-bit in the schema: a granted id beyond matches no account (and is left out of SQL). */
const MAX_ACCOUNT_ID = 2_147_483_647;
export const possibleAccountIds = (ids: readonly number[]) => ids.filter((id) => id <= MAX_ACCOUNT_ID);

export const isRestricted = (vis: Visibility) =>
  vis.accounts !== null || vis.chatRefs !== null || vis.displayChatIds !== null;

export const inChat = (chat: ChatKey, alias = 'm') =>
  sql`${raw(alias)}.account_id = ${chat.accountId} AND ${raw(alias)}.chat_id = ${chat.chatId}`;

/** Message columns plus its media as `md_*` (joined as `md`). */
export const MESSAGE_COLUMNS = raw(`m.account_id, m.chat_id, m.id, m.sender_id, m.sender_name, m.date, m.text,
  m.reply_to_msg_id, m.reply_to_top_id, m.reply_to_text, m.forward_from_id, m.edit_date, m.is_outgoing,
  m.is_pinned, m.is_deleted, m.deleted_at, m.raw_data, m.poll,
  md.id AS md_storage_id, md.type AS md_type, md.file_path AS md_file_path, md.file_name AS md_file_name,
  md.file_size AS md_file_size, md.mime_type AS md_mime_type, md.width AS md_width, md.height AS md_height,
  md.duration AS md_duration, md.downloaded AS md_downloaded, md.skip_reason AS md_skip_reason`);

export const MEDIA_JOIN = raw(
  'LEFT JOIN media md ON md.account_id = m.account_id AND md.chat_id = m.chat_id AND md.message_id = m.id',
);

export const CHAT_JOIN = raw('JOIN chats c ON c.account_id = m.account_id AND c.id = m.chat_id');

/** Chat columns as `c_*` for search results and the change feed. */
export const RESULT_CHAT_COLUMNS =
  raw(`c.id AS c_id, c.ref AS c_ref, c.title AS c_title, c.first_name AS c_first_name,
  c.last_name AS c_last_name, c.username AS c_username, c.type AS c_type, c.is_forum AS c_is_forum,
  c.avatar_photo_id AS c_avatar_photo_id`);

export type Db = Queryable;
