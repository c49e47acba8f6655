/**
 * The messages a chat view holds, and how they change: the newest page, the pages around one message (a
 * day picked in the calendar, a pinned message, a reply further back), older and newer pages as the
 * reader scrolls, and the live updates merged in. Plain TypeScript over the generated client, so the fast
 * tier runs it against a live viewer without a browser; use-chat-messages.ts keeps it in a view's state.
 */
import type { createArchiveClient } from '../../../generated/archive/client';
import type { components } from '../../../generated/archive/types';
import type { ServerMessage } from '../../../generated/archive-updates/frames';

export type ArchiveApi = ReturnType<typeof createArchiveClient>;
type Message = components['schemas']['Message'];

/** Messages asked for at a time. */
export const PAGE = 50;

/** Oldest first; a message from the server replaces the one with the same id. */
export function merge(current: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
}

/** A stretch of the chat: its messages oldest first, and whether there is more before or after it. */
export interface Stretch {
  messages: Message[];
  hasOlder: boolean;
  hasNewer: boolean;
}

/** One more page at an end of what is held: the messages, and whether the chat goes on past them. */
export interface Step {
  messages: Message[];
  more: boolean;
}

/** The pages of one chat, in one topic or all (`topic` null). */
export class ChatPages {
  constructor(
    private readonly api: ArchiveApi,
    private readonly chatRef: string,
    private readonly topic: number | null,
  ) {}

  private async page(query: Record<string, number | string>): Promise<Message[]> {
    const result = await this.api.GET('/api/chats/{chat_ref}/messages', {
      params: {
        path: { chat_ref: this.chatRef },
        query: { limit: PAGE, ...(this.topic === null ? {} : { topic_id: this.topic }), ...query },
      },
    });
    return result.data ?? [];
  }

  /** The newest page. */
  async latest(): Promise<Stretch> {
    const list = await this.page({});
    return { messages: merge([], list), hasOlder: list.length === PAGE, hasNewer: false };
  }

  /** A page on each side of message `id`, the message itself among the newer. */
  async around(id: number): Promise<Stretch> {
    const [newer, older] = await Promise.all([
      this.page({ after_id: Math.max(0, id - 1) }),
      this.page({ before_id: id }),
    ]);
    return {
      messages: merge([], [...older, ...newer]),
      hasOlder: older.length === PAGE,
      hasNewer: newer.length === PAGE,
    };
  }

  /** The page before `oldest` (by date, then id: the archive's order). */
  async older(oldest: Message): Promise<Step> {
    const list = await this.page({ before_date: oldest.date, before_id: oldest.id });
    return { messages: list, more: list.length === PAGE };
  }

  /** The page after `newest`. */
  async newer(newest: Message): Promise<Step> {
    const list = await this.page({ after_id: newest.id });
    return { messages: list, more: list.length === PAGE };
  }

  /** Message `id` as the server has it now (a transcript arrived), or undefined. */
  async message(id: number): Promise<Message | undefined> {
    return (await this.page({ after_id: id - 1 })).find((m) => m.id === id);
  }
}

/**
 * A live event applied to the messages held. `atEnd`: the newest messages are shown, so a new one joins
 * them (else it waits for the reader to come to the end). A `transcript` or `pin` event changes what only
 * the server has: the view asks for it (ChatPages.message, the pinned list).
 */
export function applyLive(messages: readonly Message[], event: ServerMessage, atEnd: boolean): Message[] {
  const each = (id: number, change: (m: Message) => Message) =>
    messages.map((m) => (m.id === id ? change(m) : m));
  switch (event.type) {
    case 'new_message':
      // A message the backup pushed before storing it may come without its reactions.
      return atEnd
        ? merge(messages, [{ ...event.message, reactions: event.message.reactions ?? [] }])
        : [...messages];
    case 'edit':
      return each(event.message_id, (m) => ({ ...m, text: event.new_text, edit_date: event.edit_date }));
    case 'delete':
      return event.deletion_mode === 'hard'
        ? messages.filter((m) => m.id !== event.message_id)
        : each(event.message_id, (m) => ({ ...m, is_deleted: true, deleted_at: event.deleted_at }));
    case 'pin':
      return messages.map((m) => (event.message_ids.includes(m.id) ? { ...m, is_pinned: event.pinned } : m));
    case 'reaction':
      return each(event.message_id, (m) => ({ ...m, reactions: event.reactions }));
    default:
      return [...messages];
  }
}
