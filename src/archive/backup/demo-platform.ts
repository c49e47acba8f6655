/**
 * The demo archive's platform: a FakePlatform scripted with the fixture archive's accounts and chats
 * (same ids, titles and refs as demo/dataset.ts, so links and examples match), messages carrying every
 * media kind with real bytes, topics, folders and avatars, and a second act of edits, a deletion, reactions
 * and a new avatar. `fillDemoArchive` runs the real backup engine against it twice, so the demo data is
 * whatever the backup code writes.
 */
import type { Logger } from '../../common/logger';
import { FIXTURE } from '../demo/dataset';
import type { BackupState } from '../store/backup-state';
import type { ArchiveDatabase } from '../store/store';
import type { BackupConfig } from './config';
import { type AccountSummary, runBackup } from './engine';
import { FakePlatform } from './fake-platform';
import type { MediaKind, PlatformMessage } from './platform';

const MAIN_PHONE = '+15550100';
const WORK_PHONE = '+15550200';
const { users } = FIXTURE;
const MARTA = { senderId: users.marta, senderName: 'Marta Lindqvist' };
const JONAS = { senderId: users.jonas, senderName: 'Jonas Eklund' };
const ANNA = { senderId: users.anna, senderName: 'Anna Berg' };
const OWNER = { senderId: users.owner, senderName: 'Erik Sandberg', isOutgoing: true };

/** The media of the demo: one file of each kind. `bytes` come from the caller (real small files). */
export const DEMO_MEDIA: {
  kind: MediaKind;
  fileName: string;
  mimeType: string;
  text: string | null;
  width?: number;
  height?: number;
  duration?: number;
}[] = [
  {
    kind: 'photo',
    fileName: 'photo.jpg',
    mimeType: 'image/jpeg',
    text: 'First swim of the season',
    width: 64,
    height: 48,
  },
  { kind: 'voice', fileName: 'voice.ogg', mimeType: 'audio/ogg', text: null, duration: 1 },
  {
    kind: 'video',
    fileName: 'standup.mp4',
    mimeType: 'video/mp4',
    text: 'Standup recording',
    width: 64,
    height: 48,
    duration: 1,
  },
  {
    kind: 'video_note',
    fileName: 'round.mp4',
    mimeType: 'video/mp4',
    text: null,
    width: 64,
    height: 64,
    duration: 1,
  },
  { kind: 'document', fileName: 'checklist.pdf', mimeType: 'application/pdf', text: 'Release checklist' },
  { kind: 'sticker', fileName: 'sticker.webp', mimeType: 'image/webp', text: null, width: 64, height: 64 },
  {
    kind: 'animation',
    fileName: 'party.mp4',
    mimeType: 'video/mp4',
    text: null,
    width: 64,
    height: 48,
    duration: 1,
  },
  { kind: 'audio', fileName: 'jingle.ogg', mimeType: 'audio/ogg', text: 'Jingle draft', duration: 1 },
];

const FILLER = [
  'Build {n} is green, shipping it to staging.',
  'Standup notes are in the doc, see you at ten.',
  'Who is reviewing the changelog for {n}?',
  'Reminder: freeze starts Thursday #release',
  'Merged the translation fixes, thanks everyone.',
  'Docs site rebuilt with the new search.',
];

const start = Date.UTC(2026, 2, 1, 8);
const hours = (n: number) => new Date(start + n * 3_600_000);

export interface DemoPlatform {
  platform: FakePlatform;
  accounts: { index: number; phone: string; label: string | null }[];
  /** The second act: what changes on the platform between the two runs. */
  changeSomething(): void;
}

/** Builds the demo's platform; `fileBytes(kind)` gives the bytes of each media kind. */
export function demoPlatform(fileBytes: (kind: MediaKind) => Uint8Array, avatar: Uint8Array): DemoPlatform {
  const p = new FakePlatform();
  p.addAccount(MAIN_PHONE, { id: users.owner, firstName: 'Erik', lastName: 'Sandberg' });
  p.addAccount(WORK_PHONE, { id: 100200301, firstName: 'Erik', lastName: 'Sandberg' });
  const rc = FIXTURE.releaseCrew.id;
  p.addChat(MAIN_PHONE, {
    id: rc,
    type: 'supergroup',
    title: 'Release Crew',
    username: 'releasecrew',
    participantsCount: 48,
  });
  p.addChat(MAIN_PHONE, {
    id: FIXTURE.anna.id,
    type: 'private',
    firstName: 'Anna',
    lastName: 'Berg',
    username: 'annaberg',
  });
  p.addChat(
    MAIN_PHONE,
    { id: FIXTURE.forum.id, type: 'supergroup', title: 'Studio Forum', participantsCount: 17, isForum: true },
    [
      { id: FIXTURE.topics.general, title: 'General', isPinned: true },
      { id: FIXTURE.topics.release, title: 'Release 2.4', iconColor: 0x6fb9f0 },
    ],
  );
  p.addChat(MAIN_PHONE, {
    id: FIXTURE.news.id,
    type: 'channel',
    title: 'Specyard News',
    username: 'specyardnews',
    participantsCount: 1290,
    isArchived: true,
  });
  p.addChat(MAIN_PHONE, { id: FIXTURE.family.id, type: 'group', title: 'Family', participantsCount: 5 });
  p.addChat(WORK_PHONE, { id: FIXTURE.ops.id, type: 'supergroup', title: 'Ops Team', participantsCount: 9 });

  const filler: PlatformMessage[] = Array.from({ length: 40 }, (_, i) => ({
    chatId: rc,
    id: 4100 + i,
    date: hours(i * 5),
    text: (FILLER[i % FILLER.length] as string).replace('{n}', `2.${i % 5}.${i}`),
    ...(i % 3 === 0 ? OWNER : i % 2 === 0 ? MARTA : JONAS),
  }));
  const media: PlatformMessage[] = DEMO_MEDIA.map((m, i) => {
    const fileId = `demo-${m.kind}`;
    const bytes = fileBytes(m.kind);
    p.files.set(fileId, bytes);
    return {
      chatId: rc,
      id: 4140 + i,
      date: hours(200 + i),
      text: m.text,
      ...(i % 2 === 0 ? MARTA : JONAS),
      media: {
        kind: m.kind,
        fileId,
        fileName: m.fileName,
        mimeType: m.mimeType,
        size: bytes.length,
        ...(m.width !== undefined && { width: m.width }),
        ...(m.height !== undefined && { height: m.height }),
        ...(m.duration !== undefined && { duration: m.duration }),
      },
      ...(m.kind === 'photo' && { reactions: [{ emoji: '👍', count: 3 }] }),
    };
  });
  p.putMessages(MAIN_PHONE, rc, [
    ...filler,
    ...media,
    {
      chatId: rc,
      id: 4150,
      date: hours(210),
      text: 'Release checklist lives here, please keep it current.',
      ...MARTA,
      isPinned: true,
    },
    {
      chatId: rc,
      id: 4151,
      date: hours(211),
      text: null,
      action: 'pin_message',
      raw: { message_id: 4150 },
      replyToMsgId: 4150,
      ...MARTA,
    },
    {
      chatId: rc,
      id: 4152,
      date: hours(212),
      text: 'Looks good to me #release $SPEC',
      ...JONAS,
      replyToMsgId: 4150,
    },
  ]);
  p.setAvatar(MAIN_PHONE, rc, '5512870036482915003', avatar);
  p.putMessages(MAIN_PHONE, FIXTURE.anna.id, [
    { chatId: FIXTURE.anna.id, id: 910, date: hours(100), text: 'Are we still on for Saturday?', ...ANNA },
    { chatId: FIXTURE.anna.id, id: 911, date: hours(101), text: 'Yes! Ten at the lake.', ...OWNER },
    { chatId: FIXTURE.anna.id, id: 917, date: hours(102), text: 'Bring the blue towel', ...ANNA },
    { chatId: FIXTURE.anna.id, id: 918, date: hours(103), text: 'Will do', ...OWNER },
  ]);
  p.putMessages(MAIN_PHONE, FIXTURE.forum.id, [
    {
      chatId: FIXTURE.forum.id,
      id: 1,
      date: hours(10),
      text: 'Welcome to the studio forum',
      ...MARTA,
      replyToTopId: FIXTURE.topics.general,
    },
    {
      chatId: FIXTURE.forum.id,
      id: 12,
      date: hours(20),
      text: null,
      action: 'topic_created',
      raw: { title: 'Release 2.4' },
      ...MARTA,
    },
    {
      chatId: FIXTURE.forum.id,
      id: 13,
      date: hours(21),
      text: 'Release 2.4 planning starts here',
      ...JONAS,
      replyToTopId: FIXTURE.topics.release,
    },
  ]);
  p.putMessages(MAIN_PHONE, FIXTURE.news.id, [
    { chatId: FIXTURE.news.id, id: 301, date: hours(50), text: 'Specyard 2.4 is out.' },
  ]);
  p.putMessages(MAIN_PHONE, FIXTURE.family.id, [
    { chatId: FIXTURE.family.id, id: 51, date: hours(60), text: 'Dinner on Sunday?', ...ANNA },
    {
      chatId: FIXTURE.family.id,
      id: 52,
      date: hours(61),
      text: null,
      poll: {
        question: 'Where shall we eat on Sunday?',
        options: [
          { text: 'At home, everyone brings a dish', voters: 3, chosen: true, correct: false },
          { text: 'The pizzeria by the lake', voters: 2, chosen: false, correct: false },
          { text: 'Somewhere new', voters: 0, chosen: false, correct: false },
        ],
        total_voters: 5,
        closed: false,
        quiz: false,
        multiple_choice: false,
        anonymous: false,
      },
      ...ANNA,
    },
    { chatId: FIXTURE.family.id, id: 53, date: hours(62), text: 'Home it is!', ...OWNER, replyToMsgId: 52 },
  ]);
  p.putMessages(WORK_PHONE, FIXTURE.ops.id, [
    {
      chatId: FIXTURE.ops.id,
      id: 7001,
      date: hours(70),
      text: 'Pager rotation for next week is up.',
      ...OWNER,
    },
  ]);
  p.account(MAIN_PHONE).folders = [
    { id: FIXTURE.folders.work, title: 'Work', emoticon: '💼', chatIds: [rc, FIXTURE.forum.id] },
    {
      id: FIXTURE.folders.family,
      title: 'Family',
      emoticon: '🏡',
      chatIds: [FIXTURE.anna.id, FIXTURE.family.id],
    },
  ];

  return {
    platform: p,
    accounts: [
      { index: 1, phone: MAIN_PHONE, label: null },
      { index: 2, phone: WORK_PHONE, label: 'work' },
    ],
    changeSomething() {
      const photo = p.account(MAIN_PHONE).chats.get(rc)?.messages.get(4140);
      if (photo) {
        p.putMessages(MAIN_PHONE, rc, [
          {
            ...photo,
            text: 'First swim of the season!',
            editDate: hours(230),
            reactions: [
              { emoji: '👍', count: 4 },
              { emoji: '🔥', count: 1 },
            ],
          },
        ]);
      }
      p.deleteMessages(MAIN_PHONE, FIXTURE.anna.id, [917]);
      p.setAvatar(MAIN_PHONE, rc, '5879443210987654321', avatar);
      p.putMessages(MAIN_PHONE, rc, [
        { chatId: rc, id: 4153, date: hours(240), text: 'Shipped. Thanks all!', ...OWNER },
      ]);
    },
  };
}

/**
 * Fills an empty, migrated archive from the demo platform with the real engine: the chats are registered
 * first with the fixture's refs (the engine keeps a chat's ref), then two backup runs with the second act
 * in between. Returns the runs' summaries.
 */
export async function fillDemoArchive(
  deps: { config: BackupConfig; store: ArchiveDatabase; state: BackupState; logger: Logger },
  demo: DemoPlatform,
): Promise<AccountSummary[][]> {
  const { store } = deps;
  await store.upsertAccount({ id: 1, label: null, platformUserId: users.owner });
  await store.upsertAccount({ id: 2, label: 'work', platformUserId: 100200301 });
  for (const key of ['releaseCrew', 'anna', 'forum', 'news', 'family', 'ops'] as const) {
    const chat = FIXTURE[key];
    const platformChat = demo.platform
      .account(
        chat.accountId === 1 ? (demo.accounts[0]?.phone as string) : (demo.accounts[1]?.phone as string),
      )
      .chats.get(chat.id)?.chat;
    if (platformChat)
      await store.upsertChat({
        accountId: chat.accountId,
        id: chat.id,
        ref: chat.ref,
        type: platformChat.type,
      });
  }
  const config: BackupConfig = {
    ...deps.config,
    accounts: demo.accounts.map((a) => ({ ...a, chatIds: null })),
    includeChatIds: null,
    excludeChatIds: null,
  };
  const engine = { ...deps, config, platform: demo.platform };
  const first = await runBackup(engine);
  demo.changeSomething();
  const second = await runBackup(engine);
  return [first, second];
}
