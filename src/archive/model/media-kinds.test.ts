import { describe, expect, it } from 'vitest';
import { FILELESS_TYPES, hasFile, mediaInWords } from './media-kinds';

describe('media kinds in words (the document’s x-labels of MessageMedia.type)', () => {
  it('names every kind the archive writes, with a file or without', () => {
    const withFile = ['photo', 'video', 'video_note', 'voice', 'audio', 'document', 'sticker', 'animation'];
    for (const type of [...withFile, ...FILELESS_TYPES]) expect(mediaInWords(type), type).not.toBe('Media');
    expect(withFile.every(hasFile)).toBe(true);
    expect(mediaInWords('voice')).toBe('Voice message');
  });

  it('says "Media" for a kind it does not know, the list being open', () => {
    expect(mediaInWords('hologram')).toBe('Media');
    expect(mediaInWords('__proto__')).toBe('Media');
  });
});
