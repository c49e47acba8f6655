/**
 * What the desktop-app export readers (JSON and HTML) produce: a stream of events, one chat at a time,
 * with messages already mapped to the archive's fields.
 */
import type { Poll } from '../model/polls';
import type { ChatType } from '../store/store';

export interface ImportedChat {
  /** Marked id: users positive, basic groups negative, supergroups and channels -100... */
  id: number;
  type: ChatType;
  /** The export's own chat type word (personal_chat, private_supergroup, ...). */
  exportType: string;
  title: string | null;
}

export interface ImportedMedia {
  /** The archive's media type: photo, video, document, voice, audio, sticker, animation, video_note. */
  type: string;
  /** Path inside the export folder; null when the export left the file out. */
  relativePath: string | null;
  fileName: string | null;
  mimeType: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  fileSize: number | null;
}

export interface ImportedMessage {
  id: number;
  date: Date;
  senderId: number | null;
  senderName: string | null;
  text: string | null;
  replyToMsgId: number | null;
  forwardFromId: number | null;
  editDate: Date | null;
  /** What the archive has no column for (service action, entities, forward name, ...). */
  raw: Record<string, unknown>;
  /**
   * The same as JSON text, set instead by the thread that reads a large export (raw is then empty): the
   * text crosses to the importing thread far cheaper than the object, and is stored as it is.
   */
  rawJson?: string;
  media: ImportedMedia | null;
  /** A poll message's poll. */
  poll: Poll | null;
  reactions: { emoji: string; count: number }[];
  /** A pin service message: the id it pinned. */
  pinned: number | null;
}

export type ImportEvent =
  | { kind: 'account'; userId: number }
  | { kind: 'chat'; chat: ImportedChat }
  | { kind: 'message'; message: ImportedMessage }
  /** An entry the archive cannot store (no date): counted, not imported. */
  | { kind: 'skipped'; reason: string }
  | { kind: 'end' };

export class ImportError extends Error {
  override name = 'ImportError';
}

/**
 * An import that stopped part-way (a stop signal, a full disk, a database that went away): the chats done
 * are kept, the chat in progress was rolled back, and the same import with --merge finishes the job.
 */
export class ImportStopped extends ImportError {
  override name = 'ImportStopped';
  constructor(
    why: string,
    /** The titles of the chats imported and kept before it stopped. */
    readonly kept: readonly string[],
    override readonly cause?: unknown,
  ) {
    const chats = `${kept.length} chat${kept.length === 1 ? '' : 's'}`;
    super(
      `${why} after ${chats}${kept.length > 0 ? ` (kept: ${kept.join(', ')})` : ''}; the chat in progress ` +
        'was rolled back. Run the same import with --merge to finish it',
    );
  }

  get chatsDone(): number {
    return this.kept.length;
  }
}

/** A stop signal (SIGTERM, SIGINT) came. */
export class ImportInterrupted extends ImportStopped {
  override name = 'ImportInterrupted';
  constructor(kept: readonly string[]) {
    super('interrupted by a stop signal', kept);
  }
}
