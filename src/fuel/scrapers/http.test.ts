import { describe, expect, it } from 'vitest';
import { decodeText } from './http';

describe('decodeText', () => {
  it('reads UTF-8 with or without its mark, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(Buffer.from('Rótulo €', 'utf8'))).toBe('Rótulo €');
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Año', 'utf8')]))).toBe(
      'Año',
    );
    // "Año €" in Windows-1252: ñ is 0xF1, € is 0x80; its quotes, dashes and Œ/Ÿ too, and 0x81 (unassigned).
    expect(decodeText(Buffer.from([0x41, 0xf1, 0x6f, 0x20, 0x80]))).toBe('Año €');
    expect(decodeText(Buffer.from([0x93, 0x96, 0x94, 0x8c, 0x9f, 0x81]))).toBe(
      '\u201c\u2013\u201d\u0152\u0178\u0081',
    );
  });

  it('fails a body longer than one text can hold with that said, in either encoding', () => {
    const limit = 3 * 2 ** 20;
    const ascii = Buffer.alloc(limit + 1, 0x61);
    expect(() => decodeText(ascii, limit)).toThrow(
      'feed answer of 3 MiB is longer than the 3 MiB one text can hold',
    );
    const latin = Buffer.alloc(limit + 1, 0xf1);
    expect(() => decodeText(latin, limit)).toThrow(/longer than the 3 MiB one text can hold/);
    // At the limit it is read.
    expect(decodeText(ascii.subarray(0, limit), limit)).toHaveLength(limit);
  });
});
