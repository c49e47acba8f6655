/**
 * Ids are 64-bit integers in the document, but a JavaScript number holds integers exactly only up to
 * 2^53. A list of ids that goes beyond (`allowed_accounts`) is an IntegerList: its entries are numbers
 * (rounded beyond 2^53) for code, SQL and validators, and it keeps the exact digits, which
 * `stringifyJson` writes back. `parseJson` reads JSON text keeping such lists exact and refuses a
 * number that is a whole number beyond 2^53 yet no 64-bit integer (`5.5e21`, `1e19`, `2^63`).
 */
import { randomBytes } from 'node:crypto';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Raised for text that is not JSON, or for a number no 64-bit integer or double holds exactly. */
export class JsonNumberError extends Error {
  constructor(
    message: string,
    /** Where in the document, as `a.0.b` (empty for the top level). */
    readonly path: string,
  ) {
    super(message);
  }
}

// A per-process mark: placeholders carry it through JSON.stringify, and no client can send it.
const MARK = `\u0000int64:${randomBytes(8).toString('hex')}:`;
const PLACEHOLDER = new RegExp(`"\\\\u0000int64:${MARK.slice(7, -1)}:(-?\\d+)"`, 'g');

export class IntegerList extends Array<number> {
  static override get [Symbol.species]() {
    return Array;
  }

  #exact: (string | null)[] = [];

  /** From exact values: bigints (or digit strings) beyond 2^53, numbers otherwise. */
  static from64(values: readonly (number | bigint | string)[]): IntegerList {
    const list = new IntegerList();
    for (const value of values) {
      if (typeof value === 'number') {
        list.push(value);
        list.#exact.push(null);
        continue;
      }
      const big = BigInt(value);
      if (big < INT64_MIN || big > INT64_MAX) throw new RangeError(`${big} is not a 64-bit integer`);
      list.push(Number(big));
      list.#exact.push(Number.isSafeInteger(Number(big)) ? null : big.toString());
    }
    return list;
  }

  /** The exact values, as strings of digits. */
  exactValues(): string[] {
    return this.map((n, i) => this.#exact[i] ?? String(n));
  }

  toJSON(): unknown[] {
    return this.map((n, i) => {
      const exact = this.#exact[i];
      return exact ? `${MARK}${exact}` : n;
    });
  }
}

/** A JSON value already written as text (stringifyJson, on another thread): stored as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** JSON text with every IntegerList exact (for answers and stored JSON columns). */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text?.includes('\\u0000int64:') ? text.replace(PLACEHOLDER, '$1') : text;
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// A string token; JSON.parse then checks and unescapes it.
const STRING = /"(?:[^"\\]|\\.)*"/y;

/** JSON.parse, except that arrays with integers beyond 2^53 come back as exact IntegerLists. */
export function parseJson(text: string): unknown {
  let at = 0;
  const path: string[] = [];
  const fail = (message: string): never => {
    throw new JsonNumberError(message, path.join('.'));
  };
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const match = (re: RegExp) => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) at = re.lastIndex;
    return m;
  };
  const value = (inArray = false): unknown => {
    skip();
    const c = text[at];
    if (c === '{') {
      at++;
      const obj: Record<string, unknown> = {};
      skip();
      if (text[at] === '}') {
        at++;
        return obj;
      }
      for (;;) {
        skip();
        const key = match(STRING) ?? fail(`Invalid JSON at position ${at}`);
        const name = JSON.parse(key[0]) as string;
        skip();
        if (text[at++] !== ':') fail(`Invalid JSON at position ${at - 1}`);
        path.push(name);
        Object.defineProperty(obj, name, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        path.pop();
        skip();
        const next = text[at++];
        if (next === '}') return obj;
        if (next !== ',') fail(`Invalid JSON at position ${at - 1}`);
      }
    }
    if (c === '[') {
      at++;
      const items: unknown[] = [];
      let exact = false;
      skip();
      if (text[at] === ']') {
        at++;
        return items;
      }
      for (;;) {
        path.push(String(items.length));
        const item = value(true);
        path.pop();
        if (typeof item === 'bigint') exact = true;
        items.push(item);
        skip();
        const next = text[at++];
        if (next === ']') break;
        if (next !== ',') fail(`Invalid JSON at position ${at - 1}`);
      }
      if (!exact) return items;
      if (items.some((i) => typeof i !== 'number' && typeof i !== 'bigint')) {
        // A mixed list: keep it plain with rounded numbers (no id list mixes types).
        return items.map((i) => (typeof i === 'bigint' ? Number(i) : i));
      }
      return IntegerList.from64(items as (number | bigint)[]);
    }
    if (c === '"') {
      const s = match(STRING) ?? fail(`Invalid JSON at position ${at}`);
      return JSON.parse(s[0]);
    }
    const n = match(NUMBER);
    if (n) {
      const number = Number(n[0]);
      if (!Number.isInteger(number) || Number.isSafeInteger(number)) return number;
      // Only a list's whole numbers within 64 bits are kept exact (id lists); any other number is read as
      // JSON.parse reads it (a field of another type, a setting's value, an unknown field), and the
      // document's schema decides what it may be.
      const plain = n[1] === undefined && n[2] === undefined;
      const big = inArray && plain ? BigInt(n[0]) : null;
      return big !== null && big >= INT64_MIN && big <= INT64_MAX ? big : number;
    }
    for (const literal of ['true', 'false', 'null'] as const) {
      if (text.startsWith(literal, at)) {
        at += literal.length;
        return JSON.parse(literal);
      }
    }
    return fail(`Invalid JSON at position ${at}`);
  };
  const result = value();
  skip();
  if (at !== text.length) fail(`Invalid JSON at position ${at}`);
  return result;
}

/** How deep a JSON body may nest: no document schema comes near it, and the exact reading recurses. */
export const MAX_JSON_DEPTH = 64;

/** A body nested deeper than MAX_JSON_DEPTH. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/**
 * Whether a value parsed by JSON.parse holds a whole number beyond 2^53 (then parseJson is needed). Walks
 * without recursion, so any depth JSON.parse accepts is looked at; deeper than MAX_JSON_DEPTH is refused.
 */
export function holdsLargeInteger(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let found = false;
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item === 'number') {
      if (Number.isInteger(item) && !Number.isSafeInteger(item)) found = true;
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw new JsonTooDeepError();
      for (const child of Object.values(item)) stack.push([child, depth + 1]);
    }
  }
  return found;
}

/**
 * The position of the first id of a list that is no exact 64-bit integer (read rounded: beyond 64 bits, or
 * with a fraction), or -1. The reader keeps a list's whole numbers within 64 bits exact and reads any
 * other number as JSON does; an id list must hold only the former.
 */
export function inexactId(list: readonly number[]): number {
  const exact = list instanceof IntegerList ? list.exactValues() : null;
  return list.findIndex((n, i) => !Number.isSafeInteger(n) && (exact === null || exact[i] === String(n)));
}
