/**
 * Every real export in the fixtures imported whole: per sample, the messages, polls, service lines and
 * media files the archive then shows, against the numbers written here and against a count taken from the
 * sample itself (`countInSample`), so a number here cannot drift from the file it describes. Service lines
 * must read as words (never an action's code), and the global search finds a poll by its question.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { openArchiveStore } from '../store/open';
import { ALL_VISIBLE, type ArchiveDatabase } from '../store/store';
import { createTestDatabase } from '../store/testing/databases';
import { cli, databaseEnv, exportFolder, FIXTURES, tempDir } from './test-cli';

interface Counts {
  messages: number;
  polls: number;
  services: number;
  media: number;
}

interface Sample {
  /** The sample's folder and the files of one export, as the export names them. */
  sample: string;
  files: Record<string, string>;
  /** For an HTML export: the chat id given with -c. */
  chatId?: number;
  expected: Counts;
  /** Words of a poll's question that the global search must find it by. */
  pollSearch?: string;
  /** Its pins, worded by the HTML export ("pinned this message"), quote the pinned message. */
  pinsQuoted?: boolean;
}

const SAMPLES: Sample[] = [
  {
    sample: 'tg2md-channel',
    files: { 'result.json': 'result.json' },
    expected: { messages: 19, polls: 0, services: 1, media: 9 },
  },
  {
    sample: 'innerdvations-saved-and-groups',
    files: { 'saved.json': 'result.json' },
    expected: { messages: 21, polls: 2, services: 1, media: 6 },
  },
  {
    sample: 'innerdvations-saved-and-groups',
    files: { 'private_channel.json': 'result.json' },
    expected: { messages: 7, polls: 2, services: 2, media: 0 },
  },
  {
    sample: 'innerdvations-saved-and-groups',
    files: { 'public_supergroup.json': 'result.json' },
    expected: { messages: 4, polls: 0, services: 3, media: 0 },
  },
  {
    sample: 'mlomb-chat-analytics',
    files: { 'DM_2A_7M.json': 'result.json' },
    expected: { messages: 8, polls: 0, services: 2, media: 2 },
  },
  {
    sample: 'mlomb-chat-analytics',
    files: { 'MultiChat_2C_6M.json': 'result.json' },
    expected: { messages: 6, polls: 0, services: 1, media: 1 },
  },
  {
    sample: 'tele-dashboard-group',
    files: { 'sample.json': 'result.json' },
    // Its uploader gave all 256 entries one id (69420): the archive keeps the first and reports the rest as
    // duplicate ids.
    expected: { messages: 1, polls: 0, services: 1, media: 0 },
  },
  {
    sample: 'tkonverter-synthetic',
    files: { 'result.json': 'result.json' },
    expected: { messages: 86, polls: 1, services: 61, media: 8 },
  },
  {
    sample: 'tkonverter-synthetic',
    files: { 'result_group.json': 'result.json' },
    expected: { messages: 44, polls: 5, services: 21, media: 4 },
    pollSearch: 'What should we do',
  },
  {
    sample: 'cnafateh-html-fixture',
    files: { 'messages.html': 'messages.html' },
    chatId: -4001,
    expected: { messages: 2, polls: 0, services: 0, media: 1 },
  },
  {
    sample: 'devcomputaria-android-channel',
    files: { 'index.html': 'index.html', 'messages2.html': 'messages2.html' },
    chatId: -1001100000001,
    expected: { messages: 1471, polls: 0, services: 2, media: 66 },
  },
  {
    sample: 'onlineverdan-civil-channel',
    files: { 'messages.html': 'messages.html', 'messages2.html': 'messages2.html' },
    chatId: -1001100000002,
    expected: { messages: 1985, polls: 245, services: 25, media: 931 },
    pollSearch: 'mohr circle strains',
    pinsQuoted: true,
  },
];

type Entry = Record<string, unknown>;

/** The counts read straight from the sample's files: JSON entries, or the HTML pages' blocks. */
function countInSample({ sample, files }: Sample): Counts {
  const texts = Object.keys(files).map((file) => readFileSync(path.join(FIXTURES, sample, file), 'utf8'));
  if (Object.keys(files).some((file) => file.endsWith('.html'))) {
    const all = texts.join('\n');
    const ids = [...all.matchAll(/<div class="message ([^"]*)" id="message(-?\d+)"/g)];
    const own = ids.filter(([, , id]) => Number(id) > 0);
    return {
      messages: own.length,
      polls: (all.match(/class="media_poll"/g) ?? []).length,
      services: own.filter(([, classes]) => classes?.split(/\s+/).includes('service')).length,
      media:
        (all.match(/class="media_wrap clearfix"/g) ?? []).length -
        (all.match(/class="media_poll"/g) ?? []).length,
    };
  }
  const doc = JSON.parse(texts[0] as string) as Entry & { chats?: { list: Entry[] } };
  const chats = (doc.chats?.list ?? [doc]) as Entry[];
  const entries = chats.flatMap((c) => (c.messages as Entry[]) ?? []);
  // An id names one message of a chat: a repeated id is the same message (the first copy is kept).
  const byId = new Map<number, Entry>();
  for (const e of entries) {
    if (typeof e.id === 'number' && (e.date_unixtime || e.date) && !byId.has(e.id)) byId.set(e.id, e);
  }
  const dated = [...byId.values()];
  return {
    messages: dated.length,
    polls: dated.filter((e) => e.poll !== undefined).length,
    services: dated.filter((e) => e.type === 'service').length,
    media: dated.filter((e) => e.type !== 'service' && (e.photo !== undefined || e.file !== undefined))
      .length,
  };
}

/** What the archive shows: every message of every chat as the viewer's routes read them. */
async function countInArchive(
  db: ArchiveDatabase,
): Promise<Counts & { lines: string[]; questions: Map<string, string>; empty: number[] }> {
  const counts = { messages: 0, polls: 0, services: 0, media: 0, lines: [] as string[] };
  /** Each poll's question by its chat and message id. */
  const questions = new Map<string, string>();
  /** Messages that would read as an empty bubble: no text, media, poll, service line or attachment. */
  const empty: number[] = [];
  const { chats } = await db.listChats(ALL_VISIBLE, { limit: 100, offset: 0 });
  for (const chat of chats) {
    const found = await db.findChat(ALL_VISIBLE, (chat as { ref: string }).ref);
    if (!found) continue;
    const messages = await db.listMessages(found.key, { limit: 5000, withTranscripts: false });
    counts.messages += messages.length;
    for (const m of messages) {
      if (m.poll) questions.set(`${m.chat_id}/${m.id}`, m.poll.question);
      if (!m.text && !m.media && !m.poll && !m.service && !m.attachment) empty.push(m.id);
    }
    counts.polls += messages.filter((m) => m.poll).length;
    counts.media += messages.filter((m) => m.media).length;
    for (const m of messages.filter((m) => m.service)) {
      counts.services++;
      counts.lines.push(m.service?.text ?? '');
    }
  }
  return { ...counts, questions, empty };
}

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('every real export, imported whole', () => {
  it.each(SAMPLES.map((s) => [`${s.sample}/${Object.keys(s.files).join('+')}`, s] as const))(
    '%s: its messages, polls, service lines and media files',
    async (_, sample) => {
      expect(countInSample(sample)).toEqual(sample.expected);
      const database = await createTestDatabase('sqlite');
      const dir = exportFolder(sample.sample, sample.files);
      cleanup.push(dir);
      const work = tempDir();
      cleanup.push(work);
      const env = {
        ...databaseEnv(database.config),
        BACKUP_PATH: path.join(work, 'backups'),
        LOG_LEVEL: 'WARNING',
      };
      try {
        expect((await cli(['migrate'], env)).code).toBe(0);
        const chat = sample.chatId === undefined ? [] : ['-c', String(sample.chatId)];
        const imported = await cli(['import', '-p', dir, ...chat], env);
        expect(imported.code, imported.stderr).toBe(0);
        const db = await openArchiveStore(database.config, silentLogger());
        try {
          const { lines, questions, empty, ...counts } = await countInArchive(db);
          expect(counts).toEqual(sample.expected);
          expect(empty).toEqual([]);
          // Words, not codes: no line is a bare action name or holds one.
          for (const line of lines) expect(line).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
          // The HTML export's "pinned this message" quotes the message it links to.
          if (sample.pinsQuoted)
            expect(lines.filter((line) => /pinned “/.test(line)).length).toBeGreaterThan(0);
          if (sample.pollSearch) {
            const found = await db.searchMessages(ALL_VISIBLE, {
              query: sample.pollSearch,
              limit: 5,
              offset: 0,
              includeTranscripts: false,
            });
            expect(found.indexed).toBe(true);
            const words = sample.pollSearch.toLowerCase().split(' ');
            const asked = found.results.map(
              (r) => questions.get(`${r.chat.id}/${r.id}`)?.toLowerCase() ?? '',
            );
            expect(asked.some((question) => words.every((word) => question.includes(word)))).toBe(true);
          }
        } finally {
          await db.close();
        }
      } finally {
        await database.drop();
      }
    },
  );
});
