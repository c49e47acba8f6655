/**
 * The platform library's objects in the archive's terms: chats, messages, media, reactions, topics and
 * folders. Pure functions over GramJS `Api` objects, so they are tested on the library's own classes.
 */
import { Api, utils } from 'telegram';
import type { Poll } from '../../model/polls';
import type { ChatType } from '../../store/types';
import type {
  MediaKind,
  PlatformChat,
  PlatformFolder,
  PlatformMedia,
  PlatformMessage,
  PlatformTopic,
  PlatformUpdate,
  PlatformUser,
} from '../platform';
import { exportAction } from './actions';

type Big = { toJSNumber(): number; toString(): string } | number | bigint;

const toNumber = (value: Big | undefined | null): number | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return value.toJSNumber();
};

/** A 64-bit id as text: file, photo and document ids do not fit a JavaScript number. */
const idText = (value: Big): string => (typeof value === 'object' ? value.toString() : String(value));

const toDate = (seconds: number | undefined | null): Date | null =>
  seconds === undefined || seconds === null ? null : new Date(seconds * 1000);

/** The marked chat id of a peer or entity (users positive, basic groups negative, channels -100…). */
export function chatIdOf(
  peer: Api.TypePeer | Api.User | Api.Chat | Api.Channel | Api.ChatForbidden | Api.ChannelForbidden,
): number {
  return Number(utils.getPeerId(peer as Api.TypePeer));
}

export function chatTypeOf(
  entity: Api.User | Api.Chat | Api.ChatForbidden | Api.Channel | Api.ChannelForbidden,
): ChatType {
  if (entity instanceof Api.User) return 'private';
  if (entity instanceof Api.Chat || entity instanceof Api.ChatForbidden) return 'group';
  if (entity instanceof Api.Channel) return entity.megagroup || entity.gigagroup ? 'supergroup' : 'channel';
  return entity.megagroup ? 'supergroup' : 'channel';
}

export function toPlatformUser(user: Api.User): PlatformUser {
  return {
    id: toNumber(user.id) ?? 0,
    username: user.username ?? null,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    phone: user.phone ? `+${user.phone.replace(/^\+/, '')}` : null,
    isBot: user.bot ?? false,
  };
}

export function toPlatformChat(
  entity: Api.User | Api.Chat | Api.ChatForbidden | Api.Channel | Api.ChannelForbidden,
  extra: { isArchived?: boolean; topMessageId?: number | null } = {},
): PlatformChat {
  const photo = 'photo' in entity ? entity.photo : undefined;
  const photoId =
    photo instanceof Api.UserProfilePhoto || photo instanceof Api.ChatPhoto ? idText(photo.photoId) : null;
  const base: PlatformChat = {
    id: chatIdOf(entity),
    type: chatTypeOf(entity),
    avatarPhotoId: photoId,
    isArchived: extra.isArchived ?? false,
    topMessageId: extra.topMessageId ?? null,
  };
  if (entity instanceof Api.User) {
    return {
      ...base,
      username: entity.username ?? null,
      firstName: entity.firstName ?? null,
      lastName: entity.lastName ?? null,
      title: entity.self ? 'Saved Messages' : null,
    };
  }
  if (entity instanceof Api.Channel) {
    return {
      ...base,
      title: entity.title,
      username: entity.username ?? null,
      isForum: entity.forum ?? false,
      participantsCount: entity.participantsCount ?? null,
    };
  }
  if (entity instanceof Api.Chat)
    return { ...base, title: entity.title, participantsCount: entity.participantsCount };
  return { ...base, title: entity.title };
}

function documentKind(document: Api.Document): { kind: MediaKind; attributes: Partial<PlatformMedia> } {
  let kind: MediaKind = 'document';
  const attributes: Partial<PlatformMedia> = {};
  for (const attribute of document.attributes) {
    if (attribute instanceof Api.DocumentAttributeFilename) attributes.fileName = attribute.fileName;
    if (attribute instanceof Api.DocumentAttributeImageSize) {
      attributes.width = attribute.w;
      attributes.height = attribute.h;
    }
    if (attribute instanceof Api.DocumentAttributeVideo) {
      attributes.width = attribute.w;
      attributes.height = attribute.h;
      attributes.duration = attribute.duration;
      if (kind !== 'animation' && kind !== 'sticker') kind = attribute.roundMessage ? 'video_note' : 'video';
    }
    if (attribute instanceof Api.DocumentAttributeAudio) {
      attributes.duration = attribute.duration;
      kind = attribute.voice ? 'voice' : 'audio';
    }
    if (attribute instanceof Api.DocumentAttributeSticker) kind = 'sticker';
    if (attribute instanceof Api.DocumentAttributeAnimated && kind !== 'sticker') kind = 'animation';
  }
  return { kind, attributes };
}

/** A message's downloadable media, or null (web pages, polls, locations, contacts are kept in raw data). */
export function toPlatformMedia(media: Api.TypeMessageMedia | undefined): PlatformMedia | null {
  if (media instanceof Api.MessageMediaPhoto && media.photo instanceof Api.Photo) {
    const largest = media.photo.sizes.filter((s): s is Api.PhotoSize => s instanceof Api.PhotoSize).at(-1);
    return {
      kind: 'photo',
      fileId: idText(media.photo.id),
      mimeType: 'image/jpeg',
      size: largest?.size ?? null,
      width: largest?.w ?? null,
      height: largest?.h ?? null,
    };
  }
  if (media instanceof Api.MessageMediaDocument && media.document instanceof Api.Document) {
    const { kind, attributes } = documentKind(media.document);
    return {
      kind,
      fileId: idText(media.document.id),
      mimeType: media.document.mimeType,
      size: toNumber(media.document.size),
      ...attributes,
    };
  }
  return null;
}

function reactionsOf(reactions: Api.MessageReactions | undefined): { emoji: string; count: number }[] {
  return (reactions?.results ?? []).map((result) => ({
    emoji:
      result.reaction instanceof Api.ReactionEmoji
        ? result.reaction.emoticon
        : result.reaction instanceof Api.ReactionCustomEmoji
          ? `custom_${idText(result.reaction.documentId)}`
          : 'paid',
    count: result.count,
  }));
}

const plainText = (text: Api.TypeTextWithEntities | string) => (typeof text === 'string' ? text : text.text);

/** A poll message's poll, with its results when the platform sent them. */
export function toPoll(media: Api.MessageMediaPoll): Poll {
  const { poll, results } = media;
  const counted = new Map(
    (results.results ?? []).map((r) => [Buffer.from(r.option).toString('hex'), r] as const),
  );
  return {
    question: plainText(poll.question),
    options: poll.answers.map((answer) => {
      const result = counted.get(Buffer.from(answer.option).toString('hex'));
      return {
        text: plainText(answer.text),
        voters: result?.voters ?? null,
        chosen: result?.chosen ?? false,
        correct: result?.correct ?? false,
      };
    }),
    total_voters: results.totalVoters ?? null,
    closed: poll.closed ?? false,
    quiz: poll.quiz ?? false,
    multiple_choice: poll.multipleChoice ?? false,
    anonymous: !(poll.publicVoters ?? false),
  };
}

/** A message or service message of a chat; null for an empty slot (a message the platform no longer has). */
export function toPlatformMessage(
  message: Api.TypeMessage | undefined,
  senders: Map<number, string> = new Map(),
): PlatformMessage | null {
  if (!message || message instanceof Api.MessageEmpty) return null;
  const chatId = chatIdOf(message.peerId);
  const fromId = message.fromId ? chatIdOf(message.fromId) : message.out ? null : chatId;
  const reply = message.replyTo instanceof Api.MessageReplyHeader ? message.replyTo : undefined;
  const topicId = reply?.forumTopic
    ? (reply.replyToTopId ?? reply.replyToMsgId ?? null)
    : (reply?.replyToTopId ?? null);
  const common: PlatformMessage = {
    chatId,
    id: message.id,
    date: toDate(message.date) ?? new Date(Number.NaN),
    senderId: fromId,
    senderName: fromId === null ? null : (senders.get(fromId) ?? null),
    replyToMsgId: reply?.replyToMsgId ?? null,
    replyToTopId: topicId,
    isOutgoing: message.out ?? false,
    raw: { class: message.className },
  };
  if (message instanceof Api.MessageService) {
    const pinned = reply?.replyToMsgId ?? null;
    const { action, details } = exportAction(message.action, (id) => senders.get(id) ?? null, pinned);
    return { ...common, text: null, action, raw: { class: message.className, ...details } };
  }
  const forward = message.fwdFrom?.fromId ? chatIdOf(message.fwdFrom.fromId) : null;
  return {
    ...common,
    text: message.message || null,
    editDate: toDate(message.editDate),
    isPinned: message.pinned ?? false,
    forwardFromId: forward,
    groupedId: message.groupedId ? idText(message.groupedId) : null,
    media: toPlatformMedia(message.media),
    poll: message.media instanceof Api.MessageMediaPoll ? toPoll(message.media) : null,
    reactions: reactionsOf(message.reactions),
    raw: {
      class: message.className,
      ...(message.entities?.length
        ? {
            entities: message.entities.map((e) => ({
              type: e.className,
              offset: e.offset,
              length: e.length,
            })),
          }
        : {}),
      ...(message.media && !toPlatformMedia(message.media) ? { media: message.media.className } : {}),
      ...(message.fwdFrom
        ? {
            forward: {
              from_id: forward,
              from_name: message.fwdFrom.fromName ?? null,
              date: message.fwdFrom.date,
            },
          }
        : {}),
    },
  };
}

export function toPlatformTopic(topic: Api.TypeForumTopic): PlatformTopic | null {
  if (!(topic instanceof Api.ForumTopic)) return null;
  return {
    id: topic.id,
    title: topic.title,
    iconColor: topic.iconColor,
    iconEmoji: topic.iconEmojiId ? idText(topic.iconEmojiId) : null,
    isClosed: topic.closed ?? false,
    isPinned: topic.pinned ?? false,
    isHidden: topic.hidden ?? false,
    date: toDate(topic.date),
  };
}

export function toPlatformFolder(filter: Api.TypeDialogFilter): PlatformFolder | null {
  if (!(filter instanceof Api.DialogFilter || filter instanceof Api.DialogFilterChatlist)) return null;
  const title = typeof filter.title === 'string' ? filter.title : (filter.title as Api.TextWithEntities).text;
  return {
    id: filter.id,
    title,
    emoticon: filter.emoticon ?? null,
    chatIds: filter.includePeers
      .map((peer) => chatIdOf(peer as unknown as Api.TypePeer))
      .filter(Number.isFinite),
  };
}

/** A raw update the backup listens to, or null for the many it does not. */
export function toPlatformUpdate(update: Api.TypeUpdate): PlatformUpdate | null {
  if (update instanceof Api.UpdateNewMessage || update instanceof Api.UpdateNewChannelMessage) {
    const message = toPlatformMessage(update.message);
    return message ? { kind: 'new_message', message } : null;
  }
  if (update instanceof Api.UpdateEditMessage || update instanceof Api.UpdateEditChannelMessage) {
    const message = toPlatformMessage(update.message);
    return message ? { kind: 'edit', message } : null;
  }
  if (update instanceof Api.UpdateDeleteChannelMessages) {
    return {
      kind: 'delete',
      chatId: chatIdOf(new Api.PeerChannel({ channelId: update.channelId })),
      messageIds: update.messages,
    };
  }
  if (update instanceof Api.UpdateDeleteMessages)
    return { kind: 'delete', chatId: null, messageIds: update.messages };
  if (update instanceof Api.UpdatePinnedMessages || update instanceof Api.UpdatePinnedChannelMessages) {
    const peer =
      update instanceof Api.UpdatePinnedMessages
        ? update.peer
        : new Api.PeerChannel({ channelId: update.channelId });
    return {
      kind: 'pin',
      chatId: chatIdOf(peer),
      messageIds: update.messages,
      pinned: update.pinned ?? false,
    };
  }
  if (update instanceof Api.UpdateMessageReactions) {
    return {
      kind: 'reaction',
      chatId: chatIdOf(update.peer),
      messageId: update.msgId,
      reactions: reactionsOf(update.reactions),
    };
  }
  return null;
}
