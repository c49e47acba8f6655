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

/** A term of an FTS5 query, quoted (its double quotes doubled), so no character of it is syntax. */
export const fts5Term = (w: string) => `"${w.replaceAll('"', '""')}"`;

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
      return list ? `(${list.map(fts5Term).join(' OR ')})` : `${fts5Term(w)}*`;
    })
    .join(' AND ');
}

/** FTS5 MATCH text for whole words (tags): `"w1" AND "w2"`. */
export function fts5WordQuery(words: readonly string[]): string {
  return words.map(fts5Term).join(' AND ');
}

/**
 * The trigrams of code points of `needle`, as a trigram tokenizer cuts a text (every run of three, spaces
 * and punctuation included), each once; null when it has fewer than three code points (no trigram: an
 * index of trigrams cannot narrow anything). A text holding the needle holds each of them.
 */
export function needleTrigrams(needle: string): string[] | null {
  const points = Array.from(needle);
  if (points.length < 3) return null;
  return [...new Set(points.slice(0, -2).map((_, i) => points.slice(i, i + 3).join('')))];
}

/** What reading one entry of an index's list of a trigram costs, against checking one candidate row. */
const POSTING_COST = 1;
const ROW_COST = 25;

/**
 * Which of a needle's trigrams to ask a trigram index for, from how many texts hold each (`docs`, null
 * where not known) among `total`: asking for a trigram costs reading its list; leaving it out costs the
 * candidates it would have removed (each a row read and checked). The rarest is always asked; each next
 * one, rarest first, while it removes more (by the independence estimate) than it costs. Trigrams no text
 * is known to hold cost nothing and are all asked (a trigram written since the counts were taken is rare);
 * with no counts at all, every trigram is asked. Any subset finds a superset of the texts holding the
 * needle, so the choice changes only the time.
 */
export function pickTrigrams(
  counts: readonly { term: string; docs: number | null }[],
  total: number,
): string[] {
  const unknown = counts.filter((c) => c.docs === null || c.docs === 0).map((c) => c.term);
  const known = counts
    .filter((c): c is { term: string; docs: number } => c.docs !== null && c.docs > 0)
    .sort((a, b) => a.docs - b.docs);
  if (total <= 0) return counts.map((c) => c.term);
  if (unknown.length > 0) return unknown;
  const [rarest, ...rest] = known;
  if (!rarest) return [];
  const picked = [rarest.term];
  let candidates = rarest.docs;
  for (const next of rest) {
    const left = candidates * Math.min(1, next.docs / total);
    if (next.docs * POSTING_COST >= (candidates - left) * ROW_COST) break;
    picked.push(next.term);
    candidates = left;
  }
  return picked;
}

/** FTS5 MATCH text requiring every one of `trigrams` (for a table tokenized 'trigram case_sensitive 1'). */
export function trigramMatch(trigrams: readonly string[]): string {
  return trigrams.map(fts5Term).join(' AND ');
}

/** A LIKE pattern for "contains", with the wildcards of the input escaped by backslash. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
