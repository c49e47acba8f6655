import { describe, expect, it } from 'vitest';
import { parseTag, textHasTag } from './tags';

describe('tags', () => {
  it('accepts #hashtags and $CASHTAGS only', () => {
    expect(parseTag('#release')).toMatchObject({ sign: '#', body: 'release', needle: '#release' });
    expect(parseTag('$BTC')).toMatchObject({ sign: '$', words: ['BTC'] });
    for (const bad of [
      'release',
      '#',
      '$',
      '$BTC1',
      '$TOOLONGXX',
      '#a b',
      '#a#b',
      '#a/b',
      `#${'x'.repeat(65)}`,
    ]) {
      expect(parseTag(bad)).toBeNull();
    }
  });

  it('matches a tag standing alone, case-insensitively', () => {
    const tag = parseTag('#release');
    if (!tag) throw new Error('parse');
    expect(textHasTag('Ship it #Release!', tag)).toBe(true);
    expect(textHasTag('#release', tag)).toBe(true);
    expect(textHasTag('see #release_notes', tag)).toBe(false);
    expect(textHasTag('pre#release', tag)).toBe(false);
    expect(textHasTag('#releases and then #release.', tag)).toBe(true);
    expect(textHasTag(null, tag)).toBe(false);
    const cash = parseTag('$BTC');
    if (!cash) throw new Error('parse');
    expect(textHasTag('$btc, $BTCUSD', cash)).toBe(true);
    expect(textHasTag('$BTCUSD only', cash)).toBe(false);
  });
});
