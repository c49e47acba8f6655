/**
 * The export's chat types mapped to the archive's, and bare export ids to the platform's marked ids,
 * as the platform itself does: users positive, basic groups negative, supergroups and channels -100...
 */
import type { ChatType } from '../store/store';
import { ImportError } from './types';

const TYPES: Record<string, ChatType> = {
  personal_chat: 'private',
  bot_chat: 'private',
  saved_messages: 'private',
  private_group: 'group',
  private_supergroup: 'supergroup',
  public_supergroup: 'supergroup',
  private_channel: 'channel',
  public_channel: 'channel',
};

const CHANNEL_OFFSET = 1_000_000_000_000;

export function archiveChatType(exportType: string): ChatType {
  const type = TYPES[exportType];
  if (!type) throw new ImportError(`unknown chat type "${exportType}" in the export`);
  return type;
}

/** The marked id of an export's bare chat id (an already negative id is kept). */
export function markedChatId(bareId: number, type: ChatType): number {
  if (bareId < 0) return bareId;
  if (type === 'private') return bareId;
  if (type === 'group') return -bareId;
  return -(CHANNEL_OFFSET + bareId);
}

/** A peer reference of the export ("user123", "channel123", "chat123", or a bare number). */
export function peerId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value !== 'string') return null;
  const match = /^(user|channel|chat|group)?(-?\d+)$/.exec(value);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  if (match[1] === 'channel') return markedChatId(id, 'channel');
  if (match[1] === 'chat' || match[1] === 'group') return markedChatId(id, 'group');
  return id;
}
