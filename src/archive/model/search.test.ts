import { describe, expect, it } from 'vitest';
import { containsPattern, fts5PrefixQuery, searchWords } from './search';

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
