/**
 * One SQL text for both backends: a template tag whose values become bound parameters (`?` for SQLite,
 * `$n` for PostgreSQL), fragments that nest, and values converted per backend (booleans are 0/1 in
 * SQLite, timestamps ISO strings there; arrays and objects are stored as JSON text, id lists beyond 2^53
 * exactly).
 */
import { JsonText, stringifyJson } from '../model/int64';

export type Dialect = 'sqlite' | 'postgresql';

export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
    /** Set by `prepared`: the name PostgreSQL keeps the statement's plan under, per connection. */
    readonly name?: string,
  ) {}
}

/**
 * A statement whose text never changes, run as a named prepared statement on PostgreSQL: it is planned
 * once per connection, and after five runs PostgreSQL keeps one plan for every value (it chooses so only
 * when that plan costs about what each run's own would). For a statement run on every search keystroke
 * whose planning costs more than its execution. SQLite caches every statement by its text already.
 */
export function prepared(name: string, query: Sql): Sql {
  return new Sql(query.strings, query.values, name);
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** Trusted SQL text (identifiers, keywords); never user input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/**
 * A count (LIMIT, OFFSET) written into the text rather than bound: SQLite plans a search page's
 * LIMITs as constants twice as fast (0.28 against 0.15 ms a page, scripts/bench/README.md). Only
 * non-negative safe integers pass.
 */
export function count(n: number): Sql {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a count: ${n}`);
  return raw(String(n));
}

export function join(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return raw('');
  const strings = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) strings[strings.length - 1] += separator;
    values.push(part);
    strings.push('');
  });
  return new Sql(strings, values);
}

/** `(v1, v2, ...)` for IN; an empty list matches nothing. */
export function list(values: readonly unknown[]): Sql {
  if (values.length === 0) return raw('(NULL)');
  return sql`(${join(values.map((v) => sql`${v}`))})`;
}

/** A JSON value (arrays and objects are converted anyway; this also wraps strings and null). */
export class JsonValue {
  constructor(readonly value: unknown) {}
}
export const json = (value: unknown) =>
  value === null || value === undefined ? null : value instanceof JsonText ? value : new JsonValue(value);

function convert(value: unknown, dialect: Dialect): unknown {
  // Numbers and strings first: most of a bulk write's values, each otherwise tested against every class.
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? 1 : 0) : value;
  if (value instanceof Date) return dialect === 'sqlite' ? value.toISOString() : value;
  if (value instanceof JsonValue) return stringifyJson(value.value);
  if (value instanceof JsonText) return value.text;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'object') return stringifyJson(value);
  return value;
}

export interface Compiled {
  text: string;
  params: unknown[];
}

/**
 * SQLite's text of a fragment with no fragment inside, kept per template: a bulk write's rows share one
 * template, and joining its pieces once instead of row by row took a tenth of an import's own time.
 */
const flatTexts = new WeakMap<readonly string[], string>();

function flatText(q: Sql): string | null {
  if (q.values.some((v) => v instanceof Sql)) return null;
  let text = flatTexts.get(q.strings);
  if (text === undefined) {
    text = q.strings.join('?');
    // A template's strings are one frozen array per call site; other fragments are joined each time.
    if (Object.isFrozen(q.strings)) flatTexts.set(q.strings, text);
  }
  return text;
}

export function compile(query: Sql, dialect: Dialect): Compiled {
  const params: unknown[] = [];
  let text = '';
  const walk = (q: Sql) => {
    const flat = dialect === 'sqlite' ? flatText(q) : null;
    if (flat !== null) {
      text += flat;
      for (const value of q.values) params.push(convert(value, dialect));
      return;
    }
    q.strings.forEach((s, i) => {
      text += s;
      if (i >= q.values.length) return;
      const value = q.values[i];
      if (value instanceof Sql) {
        walk(value);
      } else {
        params.push(convert(value, dialect));
        text += dialect === 'sqlite' ? '?' : `$${params.length}`;
      }
    });
  };
  walk(query);
  return { text, params };
}
