/**
 * From database rows to the documented shapes. Both backends go through these, so SQLite's 0/1 flags
 * and ISO text come out exactly like PostgreSQL's booleans and Dates.
 */

import { mediaTypeOf } from '../model/content-type';
import { parseJson as parseExactJson } from '../model/int64';
import type { Row } from './driver';
import type {
  Account,
  AdminChat,
  ChatType,
  StoredChat,
  StoredMedia,
  StoredSearchResult,
  Transcript,
  TranscriptStatus,
} from './types';

export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return date.toISOString().replace('.000Z', 'Z');
}

export const isoRequired = (value: unknown): string => iso(value) ?? '';

export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

export function num(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function str(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function parseJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A stored list of ids (`allowed_accounts`), exact beyond 2^53; null for "all". */
export function idList(value: unknown): number[] | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? parseExactJson(value) : value) as number[] | null;
}

export function accountLabel(id: number, label: unknown): string {
  const stored = str(label)?.trim();
  return stored || (id === 1 ? 'default' : `account${id}`);
}

export function toAccount(row: Row): Account {
  const id = Number(row.id);
  return { id, label: accountLabel(id, row.label) };
}

/** Name shown for a chat: its title, or for a private chat the person's name. */
export function chatName(row: Row): string | null {
  if (row.type !== 'private') return str(row.title);
  const name = [str(row.first_name), str(row.last_name)].filter(Boolean).join(' ');
  return name || str(row.title) || str(row.username);
}

export function toChat(row: Row, accounts: Account[]): StoredChat {
  return {
    ref: String(row.ref),
    id: Number(row.id),
    avatar_photo_id: str(row.avatar_photo_id),
    accounts,
    title: str(row.title),
    name: chatName(row),
    first_name: str(row.first_name),
    last_name: str(row.last_name),
    username: str(row.username),
    type: row.type as ChatType,
    is_forum: bool(row.is_forum),
    is_archived: bool(row.is_archived),
    participants_count: num(row.participants_count),
    last_message_date: iso(row.last_message_date),
  };
}

export function toAdminChat(row: Row): AdminChat {
  return {
    id: Number(row.id),
    ref: String(row.ref),
    account_id: Number(row.account_id),
    title: chatName(row) ?? String(row.id),
    type: row.type as ChatType,
    username: str(row.username),
    first_name: str(row.first_name),
    last_name: str(row.last_name),
  };
}

/** The media nested in a message, as stored; `md_*` columns of the message query. */
export function toMessageMedia(row: Row): StoredMedia | undefined {
  if (row.md_type === null || row.md_type === undefined) return undefined;
  const type = String(row.md_type);
  return {
    id: `${Number(row.id)}_${type}`,
    type,
    file_path: str(row.md_file_path),
    file_name: str(row.md_file_name),
    file_size: num(row.md_file_size),
    mime_type: mediaTypeOf(row.md_mime_type),
    width: num(row.md_width),
    height: num(row.md_height),
    duration: num(row.md_duration),
    downloaded: bool(row.md_downloaded),
    skip_reason: str(row.md_skip_reason),
  };
}

export function toTranscript(row: Row): Transcript {
  return {
    id: Number(row.id),
    status: row.status as TranscriptStatus,
    error: str(row.error),
    text: str(row.text),
    language: str(row.language),
    source: str(row.source),
    engine_name: str(row.engine_name),
    engine_version: str(row.engine_version),
    preset: str(row.preset),
    models: parseJson<Record<string, string>>(row.models),
    confidence: num(row.confidence),
    duration_s: num(row.duration_s),
    requested_at: isoRequired(row.requested_at),
    completed_at: iso(row.completed_at),
    turns: parseJson<Transcript['turns']>(row.turns),
  };
}

/** `c_*` chat columns and message columns of the search and tag queries. */
export function toSearchResult(row: Row): StoredSearchResult {
  return {
    id: Number(row.id),
    date: isoRequired(row.date),
    // A poll found by its question or an option, with no text of its own, shows those words.
    text: str(row.text) ?? str(row.poll_text),
    sender_name: str(row.sender_name),
    sender_account_id: bool(row.is_outgoing) ? Number(row.account_id) : null,
    is_deleted: bool(row.is_deleted),
    topic_title: str(row.topic_title),
    matched_in: row.matched_in === 'transcript' ? 'transcript' : 'text',
    chat: {
      id: Number(row.c_id),
      ref: String(row.c_ref),
      title: str(row.c_title),
      first_name: str(row.c_first_name),
      last_name: str(row.c_last_name),
      username: str(row.c_username),
      type: row.c_type as ChatType,
      is_forum: bool(row.c_is_forum),
      avatar_photo_id: str(row.c_avatar_photo_id),
    },
  };
}

/** Code-point order, the same on every backend (collations differ). */
export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
