/** Which words of a message's text the viewer links as tags: only those the tag route accepts. */
import { describe, expect, it } from 'vitest';
import { reactionShown, TOKEN } from './text';

const tags = (text: string) => [...text.matchAll(TOKEN)].map((m) => m[3]).filter(Boolean);

describe('tags in a text', () => {
  it('links hashtags and cashtags standing alone', () => {
    expect(tags('#release on $BTC, (#релиз) and #v2_0')).toEqual(['#release', '$BTC', '#релиз', '#v2_0']);
  });

  it('links no amount, no over-long tag and no tag glued to a word', () => {
    // "$1" had become a tag link whose view answered 400 (the route's pattern).
    expect(tags('over $1 million, $BTCUSDT2, $ABCDEFGHI, pre#release, #release_notes')).toEqual([
      '#release_notes',
    ]);
    expect(tags(`#${'a'.repeat(64)} #${'b'.repeat(65)}`)).toEqual([`#${'a'.repeat(64)}`]);
  });
});

describe('reactions', () => {
  it('shows paid and custom reactions by name, never by their codes', () => {
    expect(reactionShown('👍')).toEqual({ glyph: '👍', name: '👍' });
    expect(reactionShown('paid')).toEqual({ glyph: '⭐', name: 'paid stars' });
    for (const code of ['custom_1234567890123456789', 'custom:55'])
      expect(reactionShown(code)).toEqual({ glyph: '✧', name: 'custom emoji' });
  });
});
