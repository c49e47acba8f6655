/**
 * The command blocks of the project's documents (README.md, sdks/README.md), each with the mark that says
 * how the README runner (run.test.ts) runs it: an HTML comment on the line before the block,
 *
 *     <!-- readme: scratch | demo | skip [; option]... -->
 *
 * - `scratch`: in a folder of its own beside the repository (its own `data/`), no service running;
 * - `demo`: after `npm start` in such a folder (the three services on their ports, the demo data, the
 *   logins its banner prints standing in for the block's `<password>` and `<key>` placeholders);
 * - `skip because <reason>`: not run here (a Docker engine, the internet, a user's own files), counted.
 *
 * Options: `because <reason>`; `expect "<text>"` (the block's output holds it); `serves "<part>" until
 * "<text>"` (the line holding <part> starts a server: run alone until its output holds <text>, then
 * stopped with SIGTERM); `fails "<part>" with "<text>"` (the line exits non-zero saying <text>); `omits
 * "<part>" because <reason>` (the line is not run, counted).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';

export type State = 'scratch' | 'demo' | 'skip';

export interface LineRule {
  part: string;
  text: string;
}

export interface Mark {
  state: State;
  because?: string;
  expect: string[];
  /** A placeholder of the block and the pattern whose last match in what ran before stands in for it. */
  with: { placeholder: string; pattern: RegExp }[];
  /** A path the block names and the repository folder copied there first. */
  given: { path: string; from: string }[];
  /** A line that starts a server kept running for the later blocks of its state. */
  keeps: LineRule[];
  serves: LineRule[];
  fails: LineRule[];
  omits: LineRule[];
}

export interface Block {
  /** `README.md:42`: the document and the line of the opening fence. */
  where: string;
  language: string;
  code: string;
  mark: Mark | null;
  /** Why the mark could not be read, when it could not. */
  problem?: string;
}

const MARK = /^<!--\s*readme:\s*([\s\S]*?)\s*-->\s*$/;

/** Each option's form and what it adds to the mark. */
const CLAUSES: [RegExp, (mark: Mark, m: string[]) => void][] = [
  [/^because (.+)$/s, (mark, [reason]) => (mark.because = reason?.trim())],
  [/^expect "([^"]+)"$/, (mark, [text]) => mark.expect.push(text as string)],
  [
    /^with "(<[^"]+>)" = \/(.+)\/([a-z]*)$/,
    (mark, [placeholder, source, flags]) =>
      mark.with.push({
        placeholder: placeholder as string,
        pattern: new RegExp(source as string, `${flags ?? ''}g`),
      }),
  ],
  [
    /^given "([^"]+)" = "([^"]+)"$/,
    (mark, [where, from]) => mark.given.push({ path: where as string, from: from as string }),
  ],
  [
    /^keeps "([^"]+)" until "([^"]+)"$/,
    (mark, [part, text]) => mark.keeps.push({ part: part as string, text: text as string }),
  ],
  [
    /^serves "([^"]+)" until "([^"]+)"$/,
    (mark, [part, text]) => mark.serves.push({ part: part as string, text: text as string }),
  ],
  [
    /^fails "([^"]+)" with "([^"]+)"$/,
    (mark, [part, text]) => mark.fails.push({ part: part as string, text: text as string }),
  ],
  [
    /^omits "([^"]+)" because (.+)$/s,
    (mark, [part, reason]) => mark.omits.push({ part: part as string, text: (reason as string).trim() }),
  ],
];

/** Reads one mark's text (`demo; expect "x"`); throws with what is wrong. */
export function parseMark(text: string): Mark {
  // Clauses are separated by `; ` outside quotes and patterns.
  const [head = '', ...options] = splitClauses(text);
  const [state, ...rest] = head.trim().split(/\s+/);
  if (state !== 'scratch' && state !== 'demo' && state !== 'skip') {
    throw new Error(`unknown state "${state}" (scratch, demo or skip)`);
  }
  const mark: Mark = { state, expect: [], with: [], given: [], keeps: [], serves: [], fails: [], omits: [] };
  const clauses = [rest.join(' '), ...options].map((c) => c.trim()).filter(Boolean);
  for (const clause of clauses) {
    const form = CLAUSES.find(([pattern]) => pattern.test(clause));
    if (!form) throw new Error(`unknown option "${clause}"`);
    const [pattern, add] = form;
    add(mark, (pattern.exec(clause) ?? []).slice(1) as string[]);
  }
  if (mark.state === 'skip' && !mark.because) throw new Error('skip needs "because <reason>"');
  return mark;
}

function splitClauses(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let pattern = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && pattern) {
      current += c + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"' && !pattern) quoted = !quoted;
    else if (c === '/' && !quoted && (pattern || /=\s*$/.test(current))) pattern = !pattern;
    if (c === ';' && !quoted && !pattern) {
      out.push(current.trim());
      current = '';
    } else current += c;
  }
  out.push(current.trim());
  return out.filter(Boolean);
}

/** Every fenced block of a Markdown document (relative to the repository), with its mark. */
export function blocksOf(root: string, document: string): Block[] {
  const source = readFileSync(path.join(root, document), 'utf8');
  const tokens = new MarkdownIt({ html: true }).parse(source, {});
  const lines = source.split('\n');
  const blocks: Block[] = [];
  for (const token of tokens) {
    if (token.type !== 'fence' || !token.map) continue;
    const start = token.map[0];
    const before = lines[start - 1]?.trim() ?? '';
    const block: Block = {
      where: `${document}:${start + 1}`,
      language: token.info.trim().split(/\s+/)[0] ?? '',
      code: token.content,
      mark: null,
    };
    const mark = MARK.exec(before);
    if (mark) {
      try {
        block.mark = parseMark(mark[1] ?? '');
      } catch (error) {
        block.problem = (error as Error).message;
      }
    }
    blocks.push(block);
  }
  return blocks;
}

/** The documents whose blocks the runner reads. */
export const DOCUMENTS = ['README.md', 'sdks/README.md'] as const;

/** Blocks that are no commands: output shown as an example, plain text. */
export const isCommandBlock = (block: Block) => block.language !== '' && block.language !== 'text';

/**
 * The logical lines of a shell block: a line ending in `\` joined with the next, blank lines and whole-
 * line comments kept as they are (bash reads them).
 */
export function shellLines(code: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const line of code.split('\n')) {
    if (pending) pending += `\n${line}`;
    else pending = line;
    if (!/\\$/.test(line)) {
      out.push(pending);
      pending = '';
    }
  }
  if (pending) out.push(pending);
  return out.filter((line) => line.trim() !== '');
}

/** The placeholders (`<key>`, `<token from the answer above>`) a line holds, outside quotes' meaning. */
export const placeholdersIn = (line: string) =>
  [...line.replace(/#.*$/, '').matchAll(/<[a-z][^<>\n]*>/gi)].map((m) => m[0]);
