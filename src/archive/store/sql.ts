/**
 * One SQL text for both backends: a template tag whose values become bound parameters (`?` for SQLite,
 * `$n` for PostgreSQL), fragments that nest, and values converted per backend (booleans are 0/1 in
 * SQLite, timestamps ISO strings there; arrays and objects are stored as JSON text, id lists beyond 2^53
 * exactly).
 */
import { stringifyJson } from '../model/int64';

export type Dialect = 'sqlite' | 'postgresql';

export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** Trusted SQL text (identifiers, keywords); never user input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
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
export const json = (value: unknown) => (value === null || value === undefined ? null : new JsonValue(value));

function convert(value: unknown, dialect: Dialect): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? 1 : 0) : value;
  if (value instanceof Date) return dialect === 'sqlite' ? value.toISOString() : value;
  if (value instanceof JsonValue) return stringifyJson(value.value);
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'object') return stringifyJson(value);
  return value;
}

export interface Compiled {
  text: string;
  params: unknown[];
}

export function compile(query: Sql, dialect: Dialect): Compiled {
  const params: unknown[] = [];
  let text = '';
  const walk = (q: Sql) => {
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
