/**
 * What each kind of media is, for serving it: whether it has a file at all, whether a picture can be
 * made of it, and whether a browser shows it inline.
 */
import { MessageMediaTypeLabels } from '../../../generated/archive/labels';

/** Media types the platform sends without a file (a location, a poll, ...). */
export const FILELESS_TYPES: readonly string[] = [
  'geo',
  'geo_live',
  'venue',
  'contact',
  'poll',
  'dice',
  'game',
  'invoice',
  'webpage',
];

const PICTURE_TYPES = new Set(['photo', 'sticker', 'video', 'video_note', 'animation']);
const VIDEO_TYPES = new Set(['video', 'video_note', 'animation']);

export const hasFile = (type: string) => !FILELESS_TYPES.includes(type);

/** Whether a thumbnail can be made: stills and video first frames (not animated stickers). */
export function hasPicture(type: string, mimeType: string | null): boolean {
  if (mimeType === 'application/x-tgsticker') return false;
  return PICTURE_TYPES.has(type) || /^(image|video)\//.test(mimeType ?? '');
}

/** A thumbnail of these is taken from the first frame of the video. */
export const isVideo = (type: string, mimeType: string | null) =>
  VIDEO_TYPES.has(type) || /^video\//.test(mimeType ?? '');

const INLINE_MIME =
  /^(image\/(jpeg|png|gif|webp|avif|bmp)|audio\/.+|video\/.+|application\/pdf|text\/plain)$/;

/** Types a browser shows itself (image, audio, video, PDF, plain text); others are downloaded. */
export const isInline = (mimeType: string) => INLINE_MIME.test(mimeType.toLowerCase());

/** A media key `{message_id}_{type}`, or null when it cannot be one. */
export function parseMediaKey(key: string): { messageId: number; type: string } | null {
  const match = /^(\d{1,18})_([a-z][a-z_]{0,31})$/.exec(key);
  if (!match) return null;
  const messageId = Number(match[1]);
  return Number.isSafeInteger(messageId) ? { messageId, type: match[2] as string } : null;
}

/**
 * Each media type in words, as a chat list or a quote names a message that has no text: the document's
 * (`x-labels` of MessageMedia.type), which the page reads too.
 */
export const MEDIA_WORDS: Readonly<Record<string, string | undefined>> = MessageMediaTypeLabels;

/** A media type in words ("Media" for one the table does not know). */
export const mediaInWords = (type: string) => MEDIA_WORDS[type] ?? 'Media';
