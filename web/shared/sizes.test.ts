import { describe, expect, it } from 'vitest';
import { formatBytes } from './sizes';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [900, '900 bytes'],
    [42_625, '42 KB'],
    [3_565_158, '3.4 MB'],
    [21_510_875_791, '20 GB'],
    [5 * 1024 ** 5, '5,120 TB'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
