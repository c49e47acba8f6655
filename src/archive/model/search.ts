/**
 * Turning a search box's text into full-text queries. Every word becomes a required prefix; words are
 * runs of letters and digits (what both index tokenizers keep), so nothing the user types can reach
 * the query syntax of either engine.
 */
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_WORDS = 32;

export function searchWords(query: string): string[] {
  return (query.match(WORD) ?? []).slice(0, MAX_WORDS);
}

const fts5String = (w: string) => `"${w.replaceAll('"', '""')}"`;

/**
 * FTS5 MATCH text requiring every word: `"w1"* AND "w2"*` (quoted prefixes), or where `terms` lists a
 * word's index words, those instead: `("w1" OR "w1a") AND "w2"*`. A word's list is never empty.
 */
export function fts5PrefixQuery(
  words: readonly string[],
  terms?: readonly (readonly string[] | null)[],
): string {
  return words
    .map((w, i) => {
      const list = terms?.[i];
      return list ? `(${list.map(fts5String).join(' OR ')})` : `${fts5String(w)}*`;
    })
    .join(' AND ');
}

/** FTS5 MATCH text for whole words (tags): `"w1" AND "w2"`. */
export function fts5WordQuery(words: readonly string[]): string {
  return words.map(fts5String).join(' AND ');
}

/** A LIKE pattern for "contains", with the wildcards of the input escaped by backslash. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
