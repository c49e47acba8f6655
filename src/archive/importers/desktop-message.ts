/**
 * One message object of the desktop app's JSON export mapped to the archive's fields. What has no
 * column (service actions, forward names, entities, locations, ...) is kept in raw_data; a poll has its own.
 */
import { peerId } from './chat-types';
import { pollFromJsonExport } from './export-polls';
import type { ImportedMedia, ImportedMessage } from './types';

type Json = Record<string, unknown>;

/** Keys that become columns or media rows; every other key of the entry is kept in raw_data. */
const MAPPED = new Set([
  'id',
  'type',
  'date',
  'date_unixtime',
  'from',
  'from_id',
  'actor',
  'actor_id',
  'text',
  'text_entities',
  'reply_to_message_id',
  'edited',
  'edited_unixtime',
  'reactions',
  'photo',
  'photo_file_size',
  'file',
  'file_name',
  'file_size',
  'media_type',
  'mime_type',
  'width',
  'height',
  'duration_seconds',
  'thumbnail',
  'thumbnail_file_size',
  'forwarded_from_id',
  'poll',
]);

const MEDIA_TYPES: Record<string, string> = {
  sticker: 'sticker',
  voice_message: 'voice',
  video_message: 'video_note',
  animation: 'animation',
  video_file: 'video',
  audio_file: 'audio',
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The export's time: `*_unixtime` (seconds, as a string) when present and non-zero, else the local
 * `YYYY-MM-DDTHH:MM:SS` read as UTC (a timestamp without an offset is UTC). */
export function exportTime(unixtime: unknown, local: unknown): Date | null {
  if (typeof unixtime === 'string' || typeof unixtime === 'number') {
    const seconds = Number(unixtime);
    if (Number.isFinite(seconds) && seconds > 0) return new Date(seconds * 1000);
  }
  if (typeof local === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(local)) {
    const date = new Date(`${local}Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

/**
 * Text as a string, or the mixed array of strings and `{type, text}` parts; its entities placed
 * (placedEntities).
 */
export function exportText(value: unknown, entities: unknown): { text: string; entities: Json[] } {
  if (typeof value === 'string') {
    return { text: value, entities: placedEntities(value, Array.isArray(entities) ? entities : []) };
  }
  if (!Array.isArray(value)) return { text: '', entities: [] };
  let out = '';
  const derived: Json[] = [];
  for (const part of value) {
    if (typeof part === 'string') {
      out += part;
      derived.push({ type: 'plain', text: part });
    } else if (part && typeof part === 'object') {
      const piece = text((part as Json).text) ?? '';
      out += piece;
      derived.push(part as Json);
    }
  }
  return { text: out, entities: placedEntities(out, Array.isArray(entities) ? entities : derived) };
}

/**
 * The export's entities are the text cut into pieces, in order, each `{type, text}` with no position: each
 * piece gets its `offset` and `length` in the text (UTF-16 units, as the platform counts them), which is
 * what a client needs to draw it; a link's target (`href`) becomes `url` and a bare link (`link`) `url`
 * as the platform names them; plain pieces are left out. None when the pieces do not spell the text.
 */
export function placedEntities(textValue: string, pieces: unknown[]): Json[] {
  const out: Json[] = [];
  let at = 0;
  for (const item of pieces) {
    if (!item || typeof item !== 'object') return [];
    const entity = item as Json;
    const piece = text(entity.text) ?? '';
    if (!textValue.startsWith(piece, at)) return [];
    const type = text(entity.type) ?? 'plain';
    if (type !== 'plain' && piece.length > 0) {
      const { href, ...rest } = entity;
      out.push({
        ...rest,
        type: type === 'link' ? 'url' : type,
        offset: at,
        length: piece.length,
        ...(typeof href === 'string' && { url: href }),
      });
    }
    at += piece.length;
  }
  return at === textValue.length ? out : [];
}

/** A path the export wrote, or null for its "(File not included ...)" placeholders. */
function exportedPath(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.startsWith('(')) return null;
  return value;
}

function media(entry: Json): ImportedMedia | null {
  if (entry.photo !== undefined) {
    return {
      type: 'photo',
      relativePath: exportedPath(entry.photo),
      fileName: null,
      mimeType: 'image/jpeg',
      width: num(entry.width),
      height: num(entry.height),
      duration: null,
      fileSize: num(entry.photo_file_size),
    };
  }
  if (entry.file === undefined && entry.media_type === undefined) return null;
  const mediaType = text(entry.media_type);
  return {
    type: (mediaType && MEDIA_TYPES[mediaType]) || 'document',
    relativePath: exportedPath(entry.file),
    fileName: text(entry.file_name),
    mimeType: text(entry.mime_type),
    width: num(entry.width),
    height: num(entry.height),
    duration: num(entry.duration_seconds),
    fileSize: num(entry.file_size),
  };
}

function reactions(value: unknown): { emoji: string; count: number }[] {
  if (!Array.isArray(value)) return [];
  const out = new Map<string, number>();
  for (const r of value as Json[]) {
    const count = num(r?.count) ?? 0;
    let emoji: string | null = null;
    if (r?.type === 'emoji') emoji = text(r.emoji);
    else if (r?.type === 'custom_emoji') emoji = r.document_id ? `custom_${String(r.document_id)}` : null;
    else if (r?.type === 'paid') emoji = 'paid';
    if (emoji && emoji.length <= 50 && count > 0) out.set(emoji, (out.get(emoji) ?? 0) + count);
  }
  return [...out].map(([emoji, count]) => ({ emoji, count }));
}

/** Null when the entry has no usable id or date (an "unsupported" entry). */
export function fromJsonEntry(entry: Json): ImportedMessage | null {
  const id = num(entry.id);
  const date = exportTime(entry.date_unixtime, entry.date);
  if (id === null || !Number.isSafeInteger(id) || date === null) return null;
  const service = entry.type === 'service';
  const body = exportText(entry.text, entry.text_entities);
  const raw: Json = { export_type: entry.type ?? 'message' };
  for (const [key, value] of Object.entries(entry)) {
    // A service entry's photo (a new group photo) has no media row, nor a call's length a column: both
    // are kept with the action.
    if (!MAPPED.has(key) || (service && (key === 'photo' || key === 'duration_seconds'))) raw[key] = value;
  }
  if (body.entities.length > 0) raw.entities = body.entities;
  if (service) raw.actor = entry.actor ?? null;
  if (entry.forwarded_from_id !== undefined) raw.forwarded_from_id = entry.forwarded_from_id;
  if (entry.thumbnail !== undefined) raw.thumbnail = entry.thumbnail;
  return {
    id,
    date,
    senderId: peerId(service ? entry.actor_id : entry.from_id),
    senderName: text(service ? entry.actor : entry.from),
    text: body.text === '' ? null : body.text,
    replyToMsgId: num(entry.reply_to_message_id),
    forwardFromId: peerId(entry.forwarded_from_id),
    editDate: exportTime(entry.edited_unixtime, entry.edited),
    raw,
    media: service ? null : media(entry),
    poll: pollFromJsonExport(entry.poll),
    reactions: reactions(entry.reactions),
    pinned: service && entry.action === 'pin_message' ? num(entry.message_id) : null,
  };
}
