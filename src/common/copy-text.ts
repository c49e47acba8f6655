/**
 * Rows of PostgreSQL's COPY text format, as `COPY (…) TO STDOUT` writes them: one row per line, columns
 * separated by tabs; in a column, a backslash escapes itself, a tab, a line break and the other control
 * characters the format names, and `\N` is NULL. (The format's octal and hexadecimal escapes are only read
 * by COPY FROM; COPY TO never writes them.) 400,000 rows read this way cost about half what they cost as
 * query results (scripts/bench/README.md, fuel decisions).
 */

import { StringDecoder } from 'node:string_decoder';

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A column's text as it was before COPY escaped it (null for `\N`). */
export function unescapeCopyText(column: string): string | null {
  if (column === '\\N') return null;
  if (!column.includes('\\')) return column;
  return column.replace(/\\(.)/gs, (_, code: string) => ESCAPES[code] ?? code);
}

const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A column's text as COPY FROM reads it: a backslash, tab or line break escaped. */
export function escapeCopyText(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPED[c] ?? c) : text;
}

/**
 * Calls `row` with each line's columns, still escaped (a tab or line break inside a column is always
 * escaped, so splitting on them is exact). `columns` is how many each line has.
 */
export function forEachCopyRow(text: string, columns: number, row: (fields: string[]) => void): void {
  const fields = new Array<string>(columns);
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const lineEnd = end < 0 ? text.length : end;
    for (let i = 0; i < columns; i++) {
      const tab = i === columns - 1 ? lineEnd : text.indexOf('\t', at);
      if (tab < 0 || tab > lineEnd) throw new Error(`A COPY row has fewer than ${columns} columns`);
      fields[i] = text.slice(at, tab);
      at = tab + 1;
    }
    at = lineEnd + 1;
    row(fields);
  }
}

/**
 * forEachCopyRow over a stream of COPY output, read as it arrives: a chunk may end inside a row, or inside
 * a character of several bytes (the decoder keeps those bytes for the next chunk).
 */
export async function forEachStreamedCopyRow(
  chunks: AsyncIterable<Buffer>,
  columns: number,
  row: (fields: string[]) => void,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of chunks) {
    const text = rest + decoder.write(chunk);
    const whole = text.lastIndexOf('\n') + 1;
    forEachCopyRow(text.slice(0, whole), columns, row);
    rest = text.slice(whole);
  }
  forEachCopyRow(rest + decoder.end(), columns, row);
}
