/**
 * Live events: what the backup reports (`/internal/push` body or a database notification) and what the
 * viewer's event bus carries once the chat is resolved to its ref.
 */
import type { ChatKey } from '../store/store';

export const EVENT_TYPES = ['new_message', 'edit', 'delete', 'pin', 'reaction', 'transcript'] as const;
export type LiveEventType = (typeof EVENT_TYPES)[number];

/** The writer's form: platform chat id (the writer knows no refs), optional account, the frame's fields. */
export interface WireEvent {
  type: LiveEventType;
  chat_id: number;
  account_id?: number | null;
  data: Record<string, unknown>;
}

/** An event on the bus: its chat resolved. */
export interface LiveEvent {
  type: LiveEventType;
  chat: ChatKey;
  data: Record<string, unknown>;
}

/** Fields each event type must carry in `data` (the AsyncAPI frame's fields besides type and chat_ref). */
export const EVENT_FIELDS: Record<LiveEventType, readonly string[]> = {
  new_message: ['message'],
  edit: ['message_id', 'new_text', 'edit_date'],
  delete: ['message_id', 'deletion_mode', 'deleted_at'],
  pin: ['message_ids', 'pinned'],
  reaction: ['message_id', 'reactions'],
  transcript: ['message_id', 'transcript_id', 'status'],
};

/** The first missing field of an event's data, or null when complete. */
export function missingField(type: LiveEventType, data: Record<string, unknown>): string | null {
  return EVENT_FIELDS[type].find((field) => data[field] === undefined) ?? null;
}

export function isWireEvent(value: unknown): value is WireEvent {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    EVENT_TYPES.includes(v.type as LiveEventType) &&
    Number.isInteger(v.chat_id) &&
    (v.account_id === undefined || v.account_id === null || Number.isInteger(v.account_id)) &&
    !!v.data &&
    typeof v.data === 'object' &&
    !Array.isArray(v.data)
  );
}

export type LiveListener = (event: LiveEvent) => void;

/**
 * The one event bus inside a viewer: the WebSocket hub and Web Push both listen. Listeners run in turn
 * and must not block (Web Push only queues); one that throws is logged by the caller's handler and never
 * stops the others.
 */
export class EventBus {
  private readonly listeners: LiveListener[] = [];
  emitted = 0;

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  on(listener: LiveListener): void {
    this.listeners.push(listener);
  }

  emit(event: LiveEvent): void {
    this.emitted++;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
