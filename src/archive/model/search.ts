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

/** FTS5 MATCH text: `"w1"* "w2"*` (implicit AND of quoted prefixes). */
export function fts5PrefixQuery(words: readonly string[]): string {
  return words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' ');
}

/** FTS5 MATCH text for whole words (tags): `"w1" "w2"`. */
export function fts5WordQuery(words: readonly string[]): string {
  return words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' ');
}

/** A LIKE pattern for "contains", with the wildcards of the input escaped by backslash. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
