/**
 * The adapter's mapping on real objects of the platform library (its own `Api` classes), not hand-written
 * shapes: every media kind, service messages, forwards, replies in forum topics, reactions, edits, chats,
 * topics, folders and updates.
 */
import bigInt from 'big-integer';
import { Api } from 'telegram';
import { describe, expect, it } from 'vitest';
import {
  chatTypeOf,
  toPlatformChat,
  toPlatformFolder,
  toPlatformMedia,
  toPlatformMessage,
  toPlatformTopic,
  toPlatformUpdate,
  toPlatformUser,
} from './mapping';

const channel = new Api.PeerChannel({ channelId: bigInt(1234567) });
const user = new Api.PeerUser({ userId: bigInt(42) });
const date = Date.UTC(2026, 2, 1, 9, 30) / 1000;

function document(
  attributes: Api.TypeDocumentAttribute[],
  mimeType = 'application/octet-stream',
): Api.MessageMediaDocument {
  return new Api.MessageMediaDocument({
    document: new Api.Document({
      id: bigInt('5000000000000000001'),
      accessHash: bigInt(1),
      fileReference: Buffer.from([1]),
      date,
      mimeType,
      size: bigInt(2048),
      dcId: 2,
      attributes,
    }),
  });
}

describe('GramJS objects in the archive’s terms', () => {
  it('maps users, basic groups, supergroups, forums and channels to the archive’s chat types', () => {
    const me = new Api.User({ id: bigInt(42), self: true, firstName: 'Ana', phone: '15550001' });
    expect(toPlatformUser(me)).toMatchObject({ id: 42, firstName: 'Ana', phone: '+15550001' });
    expect(toPlatformChat(me)).toMatchObject({ id: 42, type: 'private', title: 'Saved Messages' });
    const bot = new Api.User({ id: bigInt(7), bot: true, firstName: 'Helper' });
    expect(toPlatformChat(bot)).toMatchObject({ type: 'private', firstName: 'Helper' });
    const group = new Api.Chat({
      id: bigInt(77),
      title: 'Family',
      photo: new Api.ChatPhoto({ photoId: bigInt(99), dcId: 2 }),
      participantsCount: 4,
      date,
      version: 1,
    });
    expect(toPlatformChat(group)).toMatchObject({
      id: -77,
      type: 'group',
      title: 'Family',
      avatarPhotoId: '99',
      participantsCount: 4,
    });
    const forum = new Api.Channel({
      id: bigInt(1234567),
      title: 'Builders',
      megagroup: true,
      forum: true,
      photo: new Api.ChatPhotoEmpty(),
      date,
    });
    expect(toPlatformChat(forum, { isArchived: true })).toMatchObject({
      id: -1001234567,
      type: 'supergroup',
      isForum: true,
      isArchived: true,
      avatarPhotoId: null,
    });
    const broadcast = new Api.Channel({
      id: bigInt(9),
      title: 'News',
      broadcast: true,
      photo: new Api.ChatPhotoEmpty(),
      date,
    });
    expect(chatTypeOf(broadcast)).toBe('channel');
  });

  it('maps every media kind with its file id, name, type, size and dimensions', () => {
    const photo = new Api.MessageMediaPhoto({
      photo: new Api.Photo({
        id: bigInt('6000000000000000002'),
        accessHash: bigInt(1),
        fileReference: Buffer.from([1]),
        date,
        dcId: 2,
        sizes: [
          new Api.PhotoSize({ type: 'm', w: 320, h: 240, size: 1000 }),
          new Api.PhotoSize({ type: 'y', w: 1280, h: 960, size: 90_000 }),
        ],
      }),
    });
    expect(toPlatformMedia(photo)).toEqual({
      kind: 'photo',
      fileId: '6000000000000000002',
      mimeType: 'image/jpeg',
      size: 90_000,
      width: 1280,
      height: 960,
    });
    const video = (round: boolean) =>
      document(
        [new Api.DocumentAttributeVideo({ duration: 12, w: 640, h: 640, roundMessage: round })],
        'video/mp4',
      );
    expect(toPlatformMedia(video(false))).toMatchObject({
      kind: 'video',
      duration: 12,
      width: 640,
      mimeType: 'video/mp4',
      size: 2048,
    });
    expect(toPlatformMedia(video(true))?.kind).toBe('video_note');
    expect(
      toPlatformMedia(document([new Api.DocumentAttributeAudio({ duration: 3, voice: true })], 'audio/ogg'))
        ?.kind,
    ).toBe('voice');
    expect(
      toPlatformMedia(
        document([
          new Api.DocumentAttributeAudio({ duration: 200, title: 'Song' }),
          new Api.DocumentAttributeFilename({ fileName: 'song.mp3' }),
        ]),
      ),
    ).toMatchObject({ kind: 'audio', fileName: 'song.mp3', duration: 200 });
    expect(
      toPlatformMedia(
        document(
          [
            new Api.DocumentAttributeSticker({ alt: '🙂', stickerset: new Api.InputStickerSetEmpty() }),
            new Api.DocumentAttributeImageSize({ w: 512, h: 512 }),
          ],
          'image/webp',
        ),
      ),
    ).toMatchObject({ kind: 'sticker', width: 512 });
    expect(
      toPlatformMedia(
        document(
          [
            new Api.DocumentAttributeAnimated(),
            new Api.DocumentAttributeVideo({ duration: 2, w: 200, h: 100 }),
          ],
          'video/mp4',
        ),
      )?.kind,
    ).toBe('animation');
    expect(
      toPlatformMedia(
        document([new Api.DocumentAttributeFilename({ fileName: 'Report – März.pdf' })], 'application/pdf'),
      ),
    ).toMatchObject({
      kind: 'document',
      fileName: 'Report – März.pdf',
      fileId: '5000000000000000001',
    });
    expect(toPlatformMedia(new Api.MessageMediaGeo({ geo: new Api.GeoPointEmpty() }))).toBeNull();
  });

  it('maps a forum reply with reactions, an edit, a pin, a forward and text entities', () => {
    const message = new Api.Message({
      id: 501,
      peerId: channel,
      fromId: user,
      date,
      editDate: date + 60,
      message: 'see https://example.org',
      pinned: true,
      groupedId: bigInt(777),
      replyTo: new Api.MessageReplyHeader({ replyToMsgId: 480, replyToTopId: 12, forumTopic: true }),
      fwdFrom: new Api.MessageFwdHeader({
        fromId: new Api.PeerUser({ userId: bigInt(9) }),
        date: date - 100,
      }),
      entities: [new Api.MessageEntityUrl({ offset: 4, length: 19 })],
      reactions: new Api.MessageReactions({
        results: [
          new Api.ReactionCount({ reaction: new Api.ReactionEmoji({ emoticon: '👍' }), count: 3 }),
          new Api.ReactionCount({
            reaction: new Api.ReactionCustomEmoji({ documentId: bigInt(55) }),
            count: 1,
          }),
        ],
      }),
    });
    const mapped = toPlatformMessage(message, new Map([[42, 'Ana']]));
    expect(mapped).toMatchObject({
      chatId: -1001234567,
      id: 501,
      senderId: 42,
      senderName: 'Ana',
      text: 'see https://example.org',
      date: new Date(date * 1000),
      editDate: new Date((date + 60) * 1000),
      isPinned: true,
      replyToMsgId: 480,
      replyToTopId: 12,
      forwardFromId: 9,
      groupedId: '777',
      reactions: [
        { emoji: '👍', count: 3 },
        { emoji: 'custom_55', count: 1 },
      ],
      media: null,
    });
    expect(mapped?.raw).toMatchObject({ entities: [{ type: 'MessageEntityUrl', offset: 4, length: 19 }] });
  });

  it('maps service messages by their action, a post in a channel to the channel, and an empty slot to null', () => {
    const service = new Api.MessageService({
      id: 2,
      peerId: channel,
      fromId: user,
      date,
      action: new Api.MessageActionChatEditTitle({ title: 'New title' }),
    });
    expect(toPlatformMessage(service)).toMatchObject({
      id: 2,
      action: 'edit_group_title',
      raw: { title: 'New title' },
      text: null,
      senderId: 42,
    });
    const post = new Api.Message({ id: 3, peerId: channel, date, message: 'news' });
    expect(toPlatformMessage(post)?.senderId).toBe(-1001234567);
    expect(toPlatformMessage(new Api.MessageEmpty({ id: 4 }))).toBeNull();
    expect(toPlatformMessage(undefined)).toBeNull();
  });

  it('maps topics, folders and the updates the listener acts on', () => {
    const topic = new Api.ForumTopic({
      id: 12,
      date,
      title: 'Releases',
      iconColor: 0x6fb9f0,
      topMessage: 500,
      readInboxMaxId: 0,
      readOutboxMaxId: 0,
      unreadCount: 0,
      unreadMentionsCount: 0,
      unreadReactionsCount: 0,
      fromId: user,
      notifySettings: new Api.PeerNotifySettings({}),
      closed: true,
    });
    expect(toPlatformTopic(topic)).toMatchObject({
      id: 12,
      title: 'Releases',
      isClosed: true,
      date: new Date(date * 1000),
    });
    const folder = new Api.DialogFilter({
      id: 3,
      title: new Api.TextWithEntities({ text: 'Work', entities: [] }),
      pinnedPeers: [],
      includePeers: [
        new Api.InputPeerChannel({ channelId: bigInt(1234567), accessHash: bigInt(1) }),
        new Api.InputPeerUser({ userId: bigInt(42), accessHash: bigInt(1) }),
      ],
      excludePeers: [],
    });
    expect(toPlatformFolder(folder)).toEqual({
      id: 3,
      title: 'Work',
      emoticon: null,
      chatIds: [-1001234567, 42],
    });
    expect(toPlatformFolder(new Api.DialogFilterDefault())).toBeNull();

    const edit = toPlatformUpdate(
      new Api.UpdateEditChannelMessage({
        message: new Api.Message({ id: 9, peerId: channel, date, message: 'fixed', editDate: date + 5 }),
        pts: 1,
        ptsCount: 1,
      }),
    );
    expect(edit).toMatchObject({ kind: 'edit', message: { id: 9, text: 'fixed' } });
    expect(
      toPlatformUpdate(
        new Api.UpdateDeleteChannelMessages({
          channelId: bigInt(1234567),
          messages: [9, 10],
          pts: 1,
          ptsCount: 2,
        }),
      ),
    ).toEqual({
      kind: 'delete',
      chatId: -1001234567,
      messageIds: [9, 10],
    });
    expect(toPlatformUpdate(new Api.UpdateDeleteMessages({ messages: [1], pts: 1, ptsCount: 1 }))).toEqual({
      kind: 'delete',
      chatId: null,
      messageIds: [1],
    });
    expect(
      toPlatformUpdate(
        new Api.UpdatePinnedMessages({ peer: user, messages: [5], pts: 1, ptsCount: 1, pinned: true }),
      ),
    ).toEqual({
      kind: 'pin',
      chatId: 42,
      messageIds: [5],
      pinned: true,
    });
    expect(
      toPlatformUpdate(
        new Api.UpdateMessageReactions({
          peer: channel,
          msgId: 9,
          reactions: new Api.MessageReactions({
            results: [
              new Api.ReactionCount({ reaction: new Api.ReactionEmoji({ emoticon: '🔥' }), count: 2 }),
            ],
          }),
        }),
      ),
    ).toEqual({
      kind: 'reaction',
      chatId: -1001234567,
      messageId: 9,
      reactions: [{ emoji: '🔥', count: 2 }],
    });
    expect(
      toPlatformUpdate(
        new Api.UpdateUserTyping({ userId: bigInt(1), action: new Api.SendMessageTypingAction() }),
      ),
    ).toBeNull();
  });

  it('maps a poll with its results, and actions to the export’s names with the fields their lines need', () => {
    const option = (n: number) => Buffer.from([n]);
    const poll = new Api.Message({
      id: 5,
      peerId: channel,
      fromId: user,
      date,
      message: '',
      media: new Api.MessageMediaPoll({
        poll: new Api.Poll({
          id: bigInt(9),
          quiz: true,
          closed: true,
          question: new Api.TextWithEntities({ text: 'Capital of Peru?', entities: [] }),
          answers: [
            new Api.PollAnswer({
              text: new Api.TextWithEntities({ text: 'Lima', entities: [] }),
              option: option(0),
            }),
            new Api.PollAnswer({
              text: new Api.TextWithEntities({ text: 'Cusco', entities: [] }),
              option: option(1),
            }),
          ],
        }),
        results: new Api.PollResults({
          totalVoters: 7,
          results: [
            new Api.PollAnswerVoters({ option: option(0), voters: 6, correct: true, chosen: true }),
            new Api.PollAnswerVoters({ option: option(1), voters: 1 }),
          ],
        }),
      }),
    });
    expect(toPlatformMessage(poll)?.poll).toEqual({
      question: 'Capital of Peru?',
      options: [
        { text: 'Lima', voters: 6, chosen: true, correct: true },
        { text: 'Cusco', voters: 1, chosen: false, correct: false },
      ],
      total_voters: 7,
      closed: true,
      quiz: true,
      multiple_choice: false,
      anonymous: true,
    });
    const added = new Api.MessageService({
      id: 6,
      peerId: channel,
      fromId: user,
      date,
      action: new Api.MessageActionChatAddUser({ users: [bigInt(42), bigInt(77)] }),
    });
    expect(toPlatformMessage(added, new Map([[42, 'Ana']]))).toMatchObject({
      action: 'invite_members',
      raw: { members: ['Ana'] },
    });
    const pinned = new Api.MessageService({
      id: 7,
      peerId: channel,
      fromId: user,
      date,
      replyTo: new Api.MessageReplyHeader({ replyToMsgId: 5 }),
      action: new Api.MessageActionPinMessage(),
    });
    expect(toPlatformMessage(pinned)).toMatchObject({ action: 'pin_message', raw: { message_id: 5 } });
  });
});
