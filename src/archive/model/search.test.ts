import { describe, expect, it } from 'vitest';
import {
  containsPattern,
  fts5PrefixQuery,
  needleTrigrams,
  pickTrigrams,
  searchWords,
  trigramMatch,
} from './search';

describe('search words', () => {
  it('keeps runs of letters and digits only', () => {
    expect(searchWords('release party')).toEqual(['release', 'party']);
    expect(searchWords('"rel" OR part* NEAR(x)')).toEqual(['rel', 'OR', 'part', 'NEAR', 'x']);
    expect(searchWords('café-au-lait v2.4 日本語')).toEqual(['café', 'au', 'lait', 'v2', '4', '日本語']);
    expect(searchWords('$ % !')).toEqual([]);
  });

  it('quotes every word as a required prefix', () => {
    expect(fts5PrefixQuery(['rel', 'OR'])).toBe('"rel"* AND "OR"*');
  });

  it('spells out a prefix as the index words it was given, and keeps the others as prefixes', () => {
    expect(fts5PrefixQuery(['rel', 'pa'], [['relay', 'release'], null])).toBe(
      '("relay" OR "release") AND "pa"*',
    );
    expect(fts5PrefixQuery(['a"b'], [['a"bc']])).toBe('("a""bc")');
  });

  it('escapes LIKE wildcards', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('a needle for the trigram index', () => {
  it('is cut into trigrams of code points, spaces and punctuation included, each once', () => {
    expect(needleTrigrams('zanzibar')).toEqual(['zan', 'anz', 'nzi', 'zib', 'iba', 'bar']);
    expect(needleTrigrams('a 😀b')).toEqual(['a 😀', ' 😀b']);
    expect(needleTrigrams('aaaa')).toEqual(['aaa']);
    expect(needleTrigrams('ab')).toBeNull();
    expect(needleTrigrams('😀😀')).toBeNull();
  });

  it('asks for the rarest trigram, then each next while it removes more candidates than it costs', () => {
    const counts = [
      { term: 'aaa', docs: 900_000 },
      { term: 'bbb', docs: 1_000 },
      { term: 'ccc', docs: 50_000 },
      { term: 'ddd', docs: 999_000 },
    ];
    // bbb alone leaves 1,000 candidates; ccc would remove 950 of them for 50,000 entries read: not worth it.
    expect(pickTrigrams(counts, 1_000_000)).toEqual(['bbb']);
    const common = [
      { term: 'aaa', docs: 100_000 },
      { term: 'bbb', docs: 120_000 },
      { term: 'ccc', docs: 900_000 },
    ];
    // 100,000 candidates; bbb cuts them to 12,000 for 120,000 entries; ccc then removes too few.
    expect(pickTrigrams(common, 1_000_000)).toEqual(['aaa', 'bbb']);
  });

  it('asks for every trigram no count knows (written since), and for all when nothing was counted', () => {
    const counts = [
      { term: 'aaa', docs: 10 },
      { term: 'new', docs: null },
      { term: 'nil', docs: 0 },
    ];
    expect(pickTrigrams(counts, 1_000)).toEqual(['new', 'nil']);
    expect(pickTrigrams(counts, 0)).toEqual(['aaa', 'new', 'nil']);
  });

  it('is asked for as FTS5 terms, all required, quotes doubled', () => {
    expect(trigramMatch(['a"b', 'xyz'])).toBe('"a""b" AND "xyz"');
  });
});
