import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeCopyText, forEachCopyRow, forEachStreamedCopyRow, unescapeCopyText } from './copy-text';
import { createTestDatabase, type TestDatabase } from './testing/postgres';

/** Texts COPY has to escape, and some it leaves alone. */
const AWKWARD = [
  'plain',
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash',
  '\\N',
  '\\',
  'ends with a backslash\\',
  'bell\b form\f vertical\v',
  'Estación Ñandú 京都 🚗',
  '',
];

describe('COPY text rows', () => {
  it('reads columns and gives back escaped text', () => {
    const rows: string[][] = [];
    forEachCopyRow('a\\tb\t1\t\\N\nc\t2\t\\\\N\n', 3, (fields) => rows.push([...fields]));
    expect(rows).toEqual([
      ['a\\tb', '1', '\\N'],
      ['c', '2', '\\\\N'],
    ]);
    expect(rows.map(([a, , c]) => [unescapeCopyText(a as string), unescapeCopyText(c as string)])).toEqual([
      ['a\tb', null],
      ['c', '\\N'],
    ]);
  });

  it('reads a stream cut anywhere, inside a row or inside a character of several bytes', async () => {
    const bytes = Buffer.from('Ñandú\t1\n京都\t2\nback\\\\slash 🚗\t3\n', 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      async function* chunks() {
        yield bytes.subarray(0, cut);
        yield bytes.subarray(cut);
      }
      const rows: string[][] = [];
      await forEachStreamedCopyRow(chunks(), 2, (fields) =>
        rows.push(fields.map((f) => unescapeCopyText(f) ?? '')),
      );
      expect(rows, `cut at byte ${cut}`).toEqual([
        ['Ñandú', '1'],
        ['京都', '2'],
        ['back\\slash 🚗', '3'],
      ]);
    }
  });

  it('refuses a line with fewer columns than asked for', () => {
    expect(() => forEachCopyRow('a\tb\nc\n', 2, () => undefined)).toThrow('fewer than 2 columns');
  });

  describe('as PostgreSQL writes them', () => {
    let db: TestDatabase;
    let client: pg.Client;
    beforeAll(async () => {
      db = await createTestDatabase('specyard_copy_text');
      client = new pg.Client({ connectionString: db.url });
      await client.connect();
    });
    afterAll(async () => {
      await client?.end();
      await db?.drop();
    });

    it('reads back every text exactly, and NULL', async () => {
      await client.query('CREATE TEMP TABLE awkward (n int, t text)');
      await client.query(
        'INSERT INTO awkward SELECT n, t FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)',
        [AWKWARD],
      );
      const stream = client.query(
        copyTo(
          'COPY (SELECT n, t, CASE WHEN n % 2 = 0 THEN NULL ELSE t END FROM awkward ORDER BY n) TO STDOUT',
        ),
      );
      // Read the way the store reads its deleted prices: as the stream arrives.
      const read: [number, string | null, string | null][] = [];
      await forEachStreamedCopyRow(stream, 3, ([n, t, odd]) =>
        read.push([Number(n), unescapeCopyText(t as string), unescapeCopyText(odd as string)]),
      );
      expect(read).toEqual(AWKWARD.map((t, i) => [i + 1, t, (i + 1) % 2 === 0 ? null : t]));
    });

    it('writes every text so that COPY FROM stores it exactly', async () => {
      await client.query('CREATE TEMP TABLE written (n int, t text)');
      const lines = AWKWARD.map((t, i) => `${i + 1}\t${escapeCopyText(t)}\n`).join('');
      await pipeline(Readable.from([lines]), client.query(copyFrom('COPY written FROM STDIN')));
      const { rows } = await client.query<{ t: string }>('SELECT t FROM written ORDER BY n');
      expect(rows.map((r) => r.t)).toEqual(AWKWARD);
    });
  });
});
