/**
 * Hashtags (`#release`) and cashtags (`$BTC`): the path parameter's rule, and whether a text carries a
 * tag. A tag matches case-insensitively where it stands alone: not glued to a word character before
 * it, and not continued by one after it (`#release` is not in `#release_notes` or `pre#release`).
 */
import { searchWords } from './search';

export interface ParsedTag {
  /** As given, with its sign. */
  tag: string;
  sign: '#' | '$';
  body: string;
  /** Lower-cased `sign + body`, the form compared against lower-cased text. */
  needle: string;
  /** The words of the body, for narrowing candidates with the full-text index. */
  words: string[];
}

const TAG = /^(#[^\s#$/?]{1,64}|\$[A-Za-z]{1,8})$/u;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

export function parseTag(tag: string): ParsedTag | null {
  if (!TAG.test(tag)) return null;
  const sign = tag[0] as '#' | '$';
  const body = tag.slice(1);
  return { tag, sign, body, needle: tag.toLowerCase(), words: searchWords(body) };
}

export function textHasTag(text: string | null | undefined, tag: ParsedTag): boolean {
  if (!text) return false;
  const haystack = text.toLowerCase();
  for (let at = haystack.indexOf(tag.needle); at >= 0; at = haystack.indexOf(tag.needle, at + 1)) {
    const before = Array.from(haystack.slice(Math.max(0, at - 2), at)).pop();
    const after = Array.from(haystack.slice(at + tag.needle.length, at + tag.needle.length + 2))[0];
    if ((!before || !WORD_CHAR.test(before)) && (!after || !WORD_CHAR.test(after))) return true;
  }
  return false;
}

/** Most messages a tag lookup examines before it reports `truncated`. */
export const TAG_SCAN_CAP = 5000;
