/**
 * In-chat substring search over many spellings, as cases every backend's test file runs: the substring
 * index (SQLite's trigrams, PostgreSQL's words) may narrow which messages get the exact check, never what
 * the search answers. The answers are held to a statement with the exact condition alone, so the backend's
 * own casefolding is the reference and only the index is under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern } from '../../model/search';
import type { ArchiveSqlStore } from '../archive-store';
import { foldedSearchText } from '../queries/messages';
import { sql } from '../sql';
import type { Backend, ChatKey } from '../store';
import { openTestStore, type TestStore } from './databases';

// Characters JavaScript lower-cases into ASCII (İ, the Kelvin sign), or into more than they are (İ), or by
// their place (Σ), or that are more than one UTF-16 unit (emoji), beside quotes, wildcards, the word
// breaks (space, tab, line break) and spaces that break no word (no-break space), and the ASCII letters
// those fold into: what an index may never miss.
const ALPHABET = [
  'a',
  'B',
  'i',
  'k',
  'K',
  ' ',
  '\t',
  '\u00A0',
  '"',
  '%',
  '_',
  '\\',
  '*',
  'İ',
  '\u212A',
  'Σ',
  'ς',
  'ß',
  'д',
  'Ж',
  '😀',
  '\u0307',
  '\n',
];
const BREAKS = new Set([' ', '\t', '\n']);

export function substringSearchCases(backend: Backend): void {
  describe(`in-chat substring search over many spellings on ${backend}`, () => {
    let store: TestStore;
    afterAll(() => store?.close());
    const chat: ChatKey = { accountId: 1, chatId: 77, ref: 'spellings' };

    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const text = (length: number, letters = ALPHABET) =>
      Array.from({ length }, () => letters[random(letters.length)]).join('');
    const unbroken = ALPHABET.filter((c) => !BREAKS.has(c));
    // Every 25th text holds a word longer than an index keeps whole (PostgreSQL's words: 64 characters).
    const texts = Array.from({ length: 1500 }, (_, i) =>
      i % 25 === 0 ? `${text(3)} ${text(60 + (i % 50), unbroken)} ${text(3)}` : text(3 + (i % 40)),
    );
    /** Needles cut from the texts as JavaScript casefolds them, one to eight characters, a few longer, some plain ASCII. */
    const cut = (length: () => number) => {
      const folded = Array.from(`${texts[random(texts.length)]} `.toLowerCase());
      const from = random(folded.length - 1);
      return folded.slice(from, from + length()).join('');
    };
    const needles = [
      ...Array.from({ length: 150 }, () => cut(() => 1 + random(8))),
      ...Array.from({ length: 20 }, () => cut(() => 10 + random(70))),
      'i',
      'k',
      'ki',
      'KI',
      'kak',
      'i\u0307',
    ];

    beforeAll(async () => {
      store = await openTestStore(backend, { seed: false });
      await store.db.upsertAccount({ id: 1, label: null });
      chat.ref = await store.db.upsertChat({ accountId: 1, id: 77, type: 'private', title: 'Spellings' });
      const messages = texts.map((t, i) => ({
        accountId: 1,
        chatId: 77,
        id: i + 1,
        date: new Date(Date.UTC(2025, 0, 1, 0, i)),
        text: t,
      }));
      for (let i = 0; i < messages.length; i += 500)
        await store.db.upsertMessages(messages.slice(i, i + 500));
    });

    const driver = () => (store.db as ArchiveSqlStore).driver;

    it('narrows every needle cut from a text to a set that holds that text', async () => {
      const index = driver().capabilities.substringCandidates;
      if (!index) throw new Error(`${backend} has no substring index`);
      const folded = foldedSearchText(driver().capabilities);
      let narrowed = 0;
      for (const [i, t] of texts.entries()) {
        if (i % 5 !== 0) continue;
        const casefolded = Array.from(`${t} `.toLowerCase());
        for (let k = 0; k < 5; k++) {
          const from = random(casefolded.length - 1);
          const needle = casefolded.slice(from, from + 2 + random(casefolded.length - from - 1)).join('');
          const found = await index.find(driver(), needle, folded);
          // Whether the backend's casefolding holds the needle at all is the exact check's to say.
          const holds = await driver().get<{ n: number }>(
            sql`SELECT count(*) AS n FROM messages m WHERE m.chat_id = 77 AND m.id = ${i + 1}
              AND ${folded} LIKE ${containsPattern(needle)} ESCAPE '\\'`,
          );
          if (Number(holds?.n) === 0 || found === null) continue;
          expect(found, JSON.stringify({ t, needle })).not.toBe('none');
          if (found === 'none') continue;
          narrowed++;
          const rows = await driver().all<{ id: number }>(
            sql`SELECT m.id FROM messages m WHERE m.chat_id = 77 AND ${found.condition}`,
          );
          expect(
            rows.map((r) => Number(r.id)),
            JSON.stringify({ t, needle }),
          ).toContain(i + 1);
        }
      }
      expect(narrowed).toBeGreaterThan(500);
    });

    it('answers every search as the exact condition alone does, before and after a bulk write ends', async () => {
      const folded = foldedSearchText(driver().capabilities);
      const check = async () => {
        for (const needle of needles) {
          const page = await store.db.listMessages(chat, {
            limit: 50,
            search: needle,
            withTranscripts: false,
          });
          const reference = await driver().all<{ id: number }>(
            sql`SELECT m.id FROM messages m WHERE m.chat_id = 77 AND ${folded} LIKE ${containsPattern(needle)} ESCAPE '\\'
              ORDER BY m.date DESC, m.id DESC LIMIT 50`,
          );
          expect(
            page.map((m) => m.id),
            JSON.stringify(needle),
          ).toEqual(reference.map((r) => Number(r.id)));
        }
      };
      await check();
      // The end of a bulk write, as after an import: the figures counted, the indexes compacted (SQLite's
      // trigrams counted: the search then asks for its rarest trigrams only).
      await store.db.finishBulkWrite(new Date('2026-01-01T00:00:00Z'));
      await check();
    });

    it('finds what an edit writes, and no longer what it took away', async () => {
      await store.db.upsertMessages([
        {
          accountId: 1,
          chatId: 77,
          id: 3,
          date: new Date(Date.UTC(2025, 0, 1, 0, 2)),
          text: `quetzalcoatl\tand ${'x'.repeat(70)}ocelotl${'y'.repeat(10)}`,
        },
      ]);
      for (const [needle, ids] of [
        ['quetzalcoatl', [3]],
        ['ocelotl', [3]],
        ['xocelotly', [3]],
        [texts[2]?.toLowerCase() ?? '', []],
      ] as const) {
        const page = await store.db.listMessages(chat, { limit: 50, search: needle, withTranscripts: false });
        expect(
          page.map((m) => m.id).filter((id) => id === 3),
          needle,
        ).toEqual(ids);
      }
    });
  });
}
