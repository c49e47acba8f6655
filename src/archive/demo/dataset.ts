/**
 * A small, realistic archive: two accounts, six chats (a supergroup, a private chat, a forum, an archived
 * channel, a basic group, and one chat of the second account), with edits, a soft deletion, pins,
 * reactions, media in several states, a transcript, tags, folders and avatar history. It carries the
 * OpenAPI document's example values (refs, ids, texts) so that tests and the contract suite can use
 * them. Deterministic: the same data on every backend and every run.
 */

import { BACKUP_KEYS } from '../store/metadata-keys';
import type { ArchiveDatabase } from '../store/store';
import type { NewMessage } from '../store/writer';
import { FIXTURE_FILES, RELEASE_CREW_FILES } from './files';

export const FIXTURE = Object.freeze({
  accounts: { main: 1, work: 2 },
  releaseCrew: { ref: 'k3JZp0aV8s2Q1xWn7bRt4A', id: -1001234567890, accountId: 1 },
  anna: { ref: 'Vx81mQe2LrT0aZc9pWb4Hg', id: 305718226, accountId: 1 },
  forum: { ref: 'Fo7rUmX2kQ9pLw3Zt8Vb1c', id: -1009876543210, accountId: 1 },
  news: { ref: 'Nw4sCh8nL2mQ7xRt5Yb0Ka', id: -1005550001111, accountId: 1 },
  family: { ref: 'Fm2gRp6kT9wQ1zXc4Vb8Nd', id: -4001122334, accountId: 1 },
  ops: { ref: 'Op5sTm3aW8qL1xZr6Kc9Vb', id: -1002223334445, accountId: 2 },
  /** The photo message of the document's examples, and its media key. */
  photoMessageId: 4182,
  photoMediaKey: '4182_photo',
  voiceMessageId: 4181,
  voiceMediaKey: '4181_voice',
  pinnedMessageId: 4150,
  deletedMessageId: 917,
  folders: { work: 3, family: 4 },
  topics: { general: 1, release: 12 },
  /** Messages in Release Crew (filler 4100–4149 plus the named ones). */
  releaseCrewMessages: 57,
  users: { marta: 582937461, jonas: 771204583, anna: 305718226, owner: 100200300 },
});

const at = (iso: string) => new Date(iso);

const MARTA = { senderId: FIXTURE.users.marta, senderName: 'Marta Lindqvist' };
const JONAS = { senderId: FIXTURE.users.jonas, senderName: 'Jonas Eklund' };
const ANNA = { senderId: FIXTURE.users.anna, senderName: 'Anna Berg' };
const OWNER = { senderId: FIXTURE.users.owner, senderName: 'Erik Sandberg', isOutgoing: true };

const FILLER_TEXTS = [
  'Build {n} is green, shipping it to staging.',
  'Standup notes are in the doc, see you at ten.',
  'Who is reviewing the changelog for {n}?',
  'Coffee machine on the third floor is fixed again.',
  'Reminder: freeze starts Thursday #release',
  'Merged the translation fixes, thanks everyone.',
  'Can someone check the flaky upload test?',
  'Demo recording is on the shared drive.',
  'Moving the retro to Friday afternoon.',
  'Docs site rebuilt with the new search.',
];

function releaseCrewFiller(): NewMessage[] {
  const out: NewMessage[] = [];
  for (let i = 0; i < 50; i++) {
    const id = 4100 + i;
    const date = new Date(Date.UTC(2026, 2, 1, 8, 0, 0) + i * 5 * 3600 * 1000 + (i % 7) * 60_000);
    const who = i % 3 === 0 ? OWNER : i % 2 === 0 ? MARTA : JONAS;
    const text = (FILLER_TEXTS[i % FILLER_TEXTS.length] ?? '').replace('{n}', `2.${i % 5}.${i}`);
    out.push({ accountId: 1, chatId: FIXTURE.releaseCrew.id, id, date, text, ...who });
  }
  return out;
}

export interface FixtureSummary {
  accounts: number;
  chats: number;
  messages: number;
}

/** Loads the fixture archive into a migrated, empty database. */
export async function seedFixtures(db: ArchiveDatabase): Promise<FixtureSummary> {
  const rc = FIXTURE.releaseCrew.id;
  await db.upsertAccount({ id: 1, label: null, platformUserId: FIXTURE.users.owner });
  await db.upsertAccount({ id: 2, label: 'work', platformUserId: 100200301 });
  for (const user of [
    { id: FIXTURE.users.marta, username: 'martal', firstName: 'Marta', lastName: 'Lindqvist' },
    { id: FIXTURE.users.jonas, username: 'jonase', firstName: 'Jonas', lastName: 'Eklund' },
    { id: FIXTURE.users.anna, username: 'annaberg', firstName: 'Anna', lastName: 'Berg' },
    { id: FIXTURE.users.owner, username: 'eriks', firstName: 'Erik', lastName: 'Sandberg' },
  ]) {
    await db.upsertUser(user);
  }

  await db.upsertChat({
    accountId: 1,
    id: rc,
    ref: FIXTURE.releaseCrew.ref,
    type: 'supergroup',
    title: 'Release Crew',
    username: 'releasecrew',
    participantsCount: 48,
  });
  await db.upsertChat({
    accountId: 1,
    id: FIXTURE.anna.id,
    ref: FIXTURE.anna.ref,
    type: 'private',
    firstName: 'Anna',
    lastName: 'Berg',
    username: 'annaberg',
  });
  await db.upsertChat({
    accountId: 1,
    id: FIXTURE.forum.id,
    ref: FIXTURE.forum.ref,
    type: 'supergroup',
    title: 'Studio Forum',
    participantsCount: 17,
    isForum: true,
  });
  await db.upsertChat({
    accountId: 1,
    id: FIXTURE.news.id,
    ref: FIXTURE.news.ref,
    type: 'channel',
    title: 'Specyard News',
    username: 'specyardnews',
    participantsCount: 1290,
    isArchived: true,
  });
  await db.upsertChat({
    accountId: 1,
    id: FIXTURE.family.id,
    ref: FIXTURE.family.ref,
    type: 'group',
    title: 'Family',
    participantsCount: 5,
  });
  await db.upsertChat({
    accountId: 2,
    id: FIXTURE.ops.id,
    ref: FIXTURE.ops.ref,
    type: 'supergroup',
    title: 'Ops Team',
    participantsCount: 9,
  });

  const messages: NewMessage[] = [
    ...releaseCrewFiller(),
    {
      accountId: 1,
      chatId: rc,
      id: 4150,
      ...MARTA,
      date: at('2026-03-11T16:02:33Z'),
      text: 'Release checklist for 2.4: freeze on Thursday, tag on Friday, party on Saturday. #release',
      isPinned: true,
    },
    {
      accountId: 1,
      chatId: rc,
      id: 4170,
      ...JONAS,
      date: at('2026-03-13T21:07:45Z'),
      text: '$BTC back above 90k, told you to hold.',
    },
    {
      accountId: 1,
      chatId: rc,
      id: 4171,
      ...MARTA,
      date: at('2026-03-13T21:09:02Z'),
      text: 'Not financial advice: $btc is noise. #release_notes are due though.',
    },
    {
      accountId: 1,
      chatId: rc,
      id: 4176,
      ...JONAS,
      date: at('2026-03-14T07:55:12Z'),
      text: 'Morning! Who has the keys to the studio?',
    },
    {
      accountId: 1,
      chatId: rc,
      id: 4179,
      ...OWNER,
      date: at('2026-03-14T09:02:41Z'),
      text: 'Does anyone have the photos from Saturday?',
    },
    { accountId: 1, chatId: rc, id: 4181, ...JONAS, date: at('2026-03-14T09:18:40Z'), text: '' },
    {
      accountId: 1,
      chatId: rc,
      id: 4182,
      ...MARTA,
      date: at('2026-03-14T09:21:07Z'),
      text: "Photos from Saturday's release party are up.",
      replyToMsgId: 4179,
      replyToText: 'Does anyone have the photos from Saturday?',
      rawData: {},
    },
    {
      accountId: 1,
      chatId: FIXTURE.anna.id,
      id: 901,
      ...ANNA,
      date: at('2026-03-12T19:40:55Z'),
      text: 'Hej! Quick question about the weekend.',
    },
    {
      accountId: 1,
      chatId: FIXTURE.anna.id,
      id: 903,
      ...ANNA,
      date: at('2026-03-12T19:44:10Z'),
      text: 'Are you coming to the release party on Saturday?',
    },
    {
      accountId: 1,
      chatId: FIXTURE.anna.id,
      id: 904,
      ...OWNER,
      date: at('2026-03-12T19:50:31Z'),
      text: 'Yes! Bringing the café-style cake #party',
    },
    {
      accountId: 1,
      chatId: FIXTURE.anna.id,
      id: 917,
      ...ANNA,
      date: at('2026-03-14T07:58:03Z'),
      text: 'Wrong chat, sorry, ignore this.',
    },
    {
      accountId: 1,
      chatId: FIXTURE.forum.id,
      id: 1,
      ...OWNER,
      date: at('2025-11-03T08:00:00Z'),
      text: 'Welcome to the studio forum',
      replyToTopId: 1,
    },
    {
      accountId: 1,
      chatId: FIXTURE.forum.id,
      id: 12,
      ...MARTA,
      date: at('2026-02-20T10:15:00Z'),
      text: 'Release 2.4 planning thread',
      replyToTopId: 12,
    },
    {
      accountId: 1,
      chatId: FIXTURE.forum.id,
      id: 40,
      ...JONAS,
      date: at('2026-03-13T22:30:00Z'),
      text: 'Mixing session booked for Saturday night',
      replyToTopId: 12,
      replyToMsgId: 12,
    },
    {
      accountId: 1,
      chatId: FIXTURE.forum.id,
      id: 41,
      ...MARTA,
      date: at('2026-03-14T00:15:00Z'),
      text: 'Late-night idea: #release party playlist',
      replyToTopId: 12,
      replyToMsgId: 12,
    },
    {
      accountId: 1,
      chatId: FIXTURE.forum.id,
      id: 42,
      ...OWNER,
      date: at('2026-03-14T06:45:00Z'),
      text: 'General housekeeping: keys are at the desk',
      replyToTopId: 1,
    },
    {
      accountId: 1,
      chatId: FIXTURE.news.id,
      id: 300,
      date: at('2026-03-10T12:00:00Z'),
      text: 'Specyard 2.4 is out: faster search, calmer release notes. #release',
    },
    {
      accountId: 1,
      chatId: FIXTURE.news.id,
      id: 301,
      date: at('2026-03-13T12:00:00Z'),
      text: 'Maintenance window tonight from 22:00 UTC.',
    },
    {
      accountId: 1,
      chatId: FIXTURE.family.id,
      id: 75,
      date: at('2026-03-09T17:00:00Z'),
      rawData: {
        export_type: 'service',
        action: 'invite_members',
        actor: 'Erik Sandberg',
        members: ['Anna Berg'],
      },
    },
    {
      accountId: 1,
      chatId: FIXTURE.family.id,
      id: 76,
      ...ANNA,
      date: at('2026-03-09T17:30:00Z'),
      poll: {
        question: 'Which Sunday works for dinner?',
        options: [
          { text: 'This Sunday', voters: 3, chosen: true, correct: false },
          { text: 'Next Sunday', voters: 1, chosen: false, correct: false },
        ],
        total_voters: 4,
        closed: false,
        quiz: false,
        multiple_choice: false,
        anonymous: false,
      },
    },
    {
      accountId: 1,
      chatId: FIXTURE.family.id,
      id: 77,
      ...OWNER,
      date: at('2026-03-09T18:00:00Z'),
      text: 'Sunday dinner at six?',
    },
    {
      accountId: 1,
      chatId: FIXTURE.family.id,
      id: 78,
      ...ANNA,
      date: at('2026-03-09T18:05:00Z'),
      text: 'Perfect, I will bring dessert.',
    },
    {
      accountId: 2,
      chatId: FIXTURE.ops.id,
      id: 5001,
      senderId: 660011,
      senderName: 'Lars Holm',
      date: at('2026-03-12T07:30:00Z'),
      text: 'Pager rotation for the release week is posted. #release',
    },
    {
      accountId: 2,
      chatId: FIXTURE.ops.id,
      id: 5002,
      senderId: 100200301,
      senderName: 'Erik Sandberg',
      isOutgoing: true,
      date: at('2026-03-12T07:41:00Z'),
      text: 'Thanks, I take Saturday. $BTC jokes not allowed on call.',
    },
  ];
  await db.upsertMessages(messages);

  await db.editMessage({
    accountId: 1,
    chatId: rc,
    messageId: 4182,
    text: "Photos from Saturday's release party are up, grab the ones you want.",
    editDate: at('2026-03-14T09:24:51Z'),
    capturedAt: at('2026-03-14T09:24:53Z'),
    source: 'listener',
  });
  await db.editMessage({
    accountId: 1,
    chatId: FIXTURE.anna.id,
    messageId: 901,
    text: 'Hej! Quick question about Saturday.',
    editDate: at('2026-03-12T19:41:30Z'),
    capturedAt: at('2026-03-12T19:41:31Z'),
    source: 'listener',
  });
  await db.markMessageDeleted(
    { accountId: 1, chatId: FIXTURE.anna.id, messageId: 917 },
    at('2026-03-14T08:02:19Z'),
  );
  await db.setReactions({ accountId: 1, chatId: rc, messageId: 4182 }, [
    { emoji: '👍', count: 3 },
    { emoji: '🔥', count: 1 },
  ]);
  await db.setReactions({ accountId: 1, chatId: rc, messageId: 4150 }, [{ emoji: '❤', count: 7 }]);

  await db.upsertMedia({
    accountId: 1,
    chatId: rc,
    messageId: 4182,
    type: 'photo',
    filePath: FIXTURE_FILES.photo.path,
    fileName: 'IMG_20260314_092107.jpg',
    fileSize: FIXTURE_FILES.photo.size,
    mimeType: 'image/jpeg',
    width: 640,
    height: 480,
    downloaded: true,
    downloadAttempts: 1,
    downloadDate: at('2026-03-14T09:21:30Z'),
  });
  const voice = await db.upsertMedia({
    accountId: 1,
    chatId: rc,
    messageId: 4181,
    type: 'voice',
    filePath: FIXTURE_FILES.voice.path,
    fileName: 'voice_2026-03-14.ogg',
    fileSize: FIXTURE_FILES.voice.size,
    mimeType: 'audio/ogg',
    duration: 6.4,
    downloaded: true,
    downloadAttempts: 1,
    downloadDate: at('2026-03-14T09:19:02Z'),
  });
  for (const extra of RELEASE_CREW_FILES) {
    const file = FIXTURE_FILES[extra.file];
    await db.upsertMedia({
      accountId: 1,
      chatId: rc,
      messageId: extra.messageId,
      type: extra.type,
      filePath: file.path,
      fileName: extra.fileName,
      fileSize: file.size,
      mimeType: extra.mimeType,
      width: extra.width ?? null,
      height: extra.height ?? null,
      duration: extra.duration ?? null,
      contentHash: extra.file === 'sticker' ? FIXTURE_FILES.sticker.sha256 : null,
      downloaded: true,
      downloadAttempts: 1,
      downloadDate: at('2026-03-10T12:00:00Z'),
    });
  }
  await db.upsertMedia({
    accountId: 1,
    chatId: FIXTURE.news.id,
    messageId: 300,
    type: 'document',
    fileName: 'specyard-2.4.0.tar.gz',
    fileSize: 3_221_225_472,
    mimeType: 'application/gzip',
    skipReason: 'oversize',
  });
  await db.upsertMedia({
    accountId: 1,
    chatId: FIXTURE.family.id,
    messageId: 78,
    type: 'video',
    fileName: 'dessert.mp4',
    mimeType: 'video/mp4',
    downloadAttempts: 2,
  });
  await db.addTranscript({
    accountId: 1,
    mediaId: voice,
    status: 'done',
    text: 'Running ten minutes late, start without me and keep a seat for Marta.',
    language: 'en',
    source: 'akou',
    engineName: 'whisper.cpp',
    engineVersion: '1.7.6',
    preset: 'voice-notes',
    models: { asr: 'large-v3-turbo' },
    confidence: 0.93,
    durationS: 6.4,
    requestedAt: at('2026-03-14T09:22:10Z'),
    completedAt: at('2026-03-14T09:41:52Z'),
  });

  await db.upsertTopic({
    accountId: 1,
    chatId: FIXTURE.forum.id,
    id: 1,
    title: 'General',
    date: at('2025-11-03T08:00:00Z'),
  });
  await db.upsertTopic({
    accountId: 1,
    chatId: FIXTURE.forum.id,
    id: 12,
    title: 'Release 2.4',
    iconColor: 7322096,
    iconEmoji: '🚀',
    isPinned: true,
    date: at('2026-02-20T10:15:00Z'),
  });
  await db.upsertFolder({
    accountId: 1,
    id: 3,
    title: 'Work',
    emoticon: '💼',
    sortOrder: 0,
    chatIds: [rc, FIXTURE.forum.id],
  });
  await db.upsertFolder({
    accountId: 1,
    id: 4,
    title: 'Family',
    sortOrder: 1,
    chatIds: [FIXTURE.anna.id, FIXTURE.family.id],
  });
  await db.addAvatar({
    accountId: 1,
    chatId: rc,
    photoId: '5512870036482915003',
    seenAt: at('2025-11-03T08:00:00Z'),
    filePath: FIXTURE_FILES.olderChatAvatar.path,
  });
  await db.addAvatar({
    accountId: 1,
    chatId: rc,
    photoId: '5879443210987654321',
    seenAt: at('2026-01-08T12:30:00Z'),
    filePath: FIXTURE_FILES.chatAvatar.path,
  });
  for (const chat of [
    FIXTURE.releaseCrew,
    FIXTURE.anna,
    FIXTURE.forum,
    FIXTURE.news,
    FIXTURE.family,
    FIXTURE.ops,
  ]) {
    await db.setSyncStatus(chat.accountId, chat.id, 0, at('2026-03-14T10:00:00Z'));
  }
  await db.setMetadata(BACKUP_KEYS.lastStartedAt, '2026-03-14T06:00:12.000Z');
  await db.setMetadata(BACKUP_KEYS.lastFinishedAt, '2026-03-14T06:04:40.000Z');
  await db.setMetadata(BACKUP_KEYS.inProgress, 'false');
  await db.refreshArchiveFigures(at('2026-03-14T06:04:51Z'));
  return { accounts: 2, chats: 6, messages: messages.length };
}
