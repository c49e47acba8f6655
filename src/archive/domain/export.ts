/**
 * A chat export as one JSON document, written piece by piece as the store reads batches, so a chat of any
 * size is exported with bounded memory (the writer's back-pressure pauses the reading).
 */
import type { Writable } from 'node:stream';
import type { ArchiveStore, ChatKey, ExportWindow, StoredChat } from '../store/store';
import { invalid } from './errors';
import { parseApiTimestamp } from './time';

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export interface ExportRequest {
  from?: string | undefined;
  to?: string | undefined;
}

/** `from` inclusive; `to` exclusive, except that a bare date as `to` includes that whole day. */
export function exportWindow(req: ExportRequest): ExportWindow {
  const from = req.from !== undefined ? parseApiTimestamp(req.from, 'from') : undefined;
  let to: Date | undefined;
  if (req.to !== undefined) {
    const parsed = parseApiTimestamp(req.to, 'to');
    to = BARE_DATE.test(req.to) ? new Date(parsed.getTime() + DAY_MS) : parsed;
  }
  if (from && to && from.getTime() >= to.getTime()) throw invalid("'from' must be before 'to'");
  return { ...(from && { from }), ...(to && { to }) };
}

/** `<chat name>_export.json`, the name reduced to letters, digits, spaces, `-` and `_`. */
export function exportFileName(chat: Pick<StoredChat, 'title' | 'name' | 'username' | 'ref'>): string {
  const clean = (s: string | null | undefined) =>
    (s ?? '')
      .normalize('NFC')
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 100);
  const name = clean(chat.title) || clean(chat.name) || clean(chat.username) || chat.ref;
  return `${name}_export.json`;
}

/** Writes, then waits for the reader when the buffer is full (or fails when the client went away). */
function write(out: Writable, text: string): Promise<void> {
  if (out.destroyed) return Promise.reject(new Error('export stream closed'));
  if (out.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      if (out.destroyed) reject(new Error('export stream closed'));
      else resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

export async function writeChatExport(
  store: ArchiveStore,
  chat: { key: ChatKey; chat: StoredChat },
  req: ExportRequest,
  window: ExportWindow,
  out: Writable,
): Promise<void> {
  const head = {
    chat: {
      id: chat.key.chatId,
      ref: chat.key.ref,
      type: chat.chat.type,
      title: chat.chat.title,
      username: chat.chat.username,
    },
    ...((req.from !== undefined || req.to !== undefined) && {
      filters: { from: req.from ?? null, to: req.to ?? null },
    }),
  };
  await write(out, `${JSON.stringify(head).slice(0, -1)},"messages":[`);
  let first = true;
  for await (const batch of store.exportMessages(chat.key, window)) {
    for (const message of batch) {
      await write(out, (first ? '' : ',') + JSON.stringify(message));
      first = false;
    }
  }
  await write(out, '],"message_versions":[');
  first = true;
  for await (const batch of store.exportMessageVersions(chat.key, window)) {
    await write(out, (first ? '' : ',') + batch.map((v) => JSON.stringify(v)).join(','));
    first = false;
  }
  await write(out, ']}');
}
