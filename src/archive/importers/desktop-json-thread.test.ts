/**
 * The export read on a thread of its own gives what the same reader gives on the caller's thread: every
 * real sample's events, in order, field for field (dates as dates), the same refusals, and a reader that
 * stops early lets its thread go.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../cli/fixtures-dir';
import { stringifyJson } from '../model/int64';
import { readDesktopJson } from './desktop-json';
import { readDesktopJsonFile } from './desktop-json-thread';
import { ImportError, type ImportEvent } from './types';

const work = mkdtempSync(path.join(os.tmpdir(), 'specyard-json-thread-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function events(reader: AsyncGenerator<ImportEvent>): Promise<ImportEvent[]> {
  const out: ImportEvent[] = [];
  for await (const event of reader) out.push(event);
  return out;
}

async function failure(reader: AsyncGenerator<ImportEvent>): Promise<Error> {
  try {
    await events(reader);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the reader did not fail');
}

const samples = readdirSync(FIXTURES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json'))
  .sort();

/** A single-chat export of `count` messages, as the desktop app writes it. */
function writeExport(name: string, count: number): string {
  const messages = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    type: 'message',
    date: '2024-03-01T10:00:00',
    date_unixtime: String(1709287200 + i),
    from: 'Member',
    from_id: 'user42',
    text: i % 3 === 0 ? ['plain ', { type: 'bold', text: `bold ${i}` }] : `message ${i}`,
    ...(i % 7 === 0 ? { reactions: [{ type: 'emoji', count: 2, emoji: '👍' }] } : {}),
  }));
  const file = path.join(work, name);
  writeFileSync(file, JSON.stringify({ name: 'Big chat', type: 'private_supergroup', id: 77, messages }));
  return file;
}

describe('readDesktopJsonFile', () => {
  it.each(samples)('%s: the same events on a thread as on the caller’s thread', async (sample) => {
    const file = path.join(FIXTURES_DIR, sample);
    const here = await events(readDesktopJson(file));
    expect(here.length).toBeGreaterThan(1);
    const threaded = await events(readDesktopJsonFile(file, 0));
    // A message's extra fields cross from the thread as the JSON text they are stored as.
    expect(threaded.every((e) => e.kind !== 'message' || typeof e.message.rawJson === 'string')).toBe(true);
    const asStored = (list: ImportEvent[]) =>
      list.map((e) =>
        e.kind === 'message'
          ? {
              ...e,
              message: { ...e.message, raw: {}, rawJson: e.message.rawJson ?? stringifyJson(e.message.raw) },
            }
          : e,
      );
    expect(asStored(threaded)).toEqual(asStored(here));
  });

  it('keeps the order and the dates of a file many batches long', async () => {
    const file = writeExport('big.json', 5_000);
    const threaded = await events(readDesktopJsonFile(file, 0));
    const messages = threaded.flatMap((e) => (e.kind === 'message' ? [e.message] : []));
    expect(messages.map((m) => m.id)).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
    expect(messages[4_999]?.date).toEqual(new Date((1709287200 + 4_999) * 1000));
    expect(messages[7]?.reactions).toEqual([{ emoji: '👍', count: 2 }]);
    expect(threaded.at(0)?.kind).toBe('chat');
    expect(threaded.at(-1)?.kind).toBe('end');
  });

  it('refuses what the reader refuses, with the same ImportError', async () => {
    const broken = path.join(work, 'broken.json');
    writeFileSync(broken, '{"name": "x", "type": "personal_chat", "id": 5, "messages": [{"id": 1,');
    const empty = path.join(work, 'empty.json');
    writeFileSync(empty, '{"about": "nothing here"}');
    for (const file of [broken, empty]) {
      const here = await failure(readDesktopJson(file));
      const threaded = await failure(readDesktopJsonFile(file, 0));
      expect(threaded).toBeInstanceOf(ImportError);
      expect(threaded.message).toBe(here.message);
    }
  });

  it('lets its thread go when the caller stops early', async () => {
    const reader = readDesktopJsonFile(writeExport('stop.json', 20_000), 0);
    const first = await reader.next();
    expect(first.value).toMatchObject({ kind: 'chat' });
    // return() ends the thread (terminate) and settles; the next read finds the reader done.
    await reader.return(undefined);
    expect(await reader.next()).toEqual({ done: true, value: undefined });
  });
});
