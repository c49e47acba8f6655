/**
 * No text of a request may hold U+0000: not a path parameter, a query parameter's name or value, nor a JSON
 * body's string or key. PostgreSQL's text cannot hold the character, so on that backend any such value
 * reaching a statement failed it (a search, a login, a setting answered 500), while SQLite took it;
 * refused at one place, every operation of the three services answers its documented 400 on either
 * backend. An operation that documents no 400 takes only path parameters (a chat's ref): such a path
 * names nothing, and it answers the service's 404. Bodies that are not JSON (files) are bytes and are not
 * read here. A hook that answers before the validator (a fast path) must leave such a body to it. The
 * documents state the rule.
 */
import type { RequestHandler } from 'express';
import { decoded, matchedOperation } from './matched-operation';

const NUL = '\u0000';

/** The validator's kind of path (`/query/search`, `/body/data/new_text`) of the first text holding NUL. */
export function nulTextAt(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? at : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulTextAt(value[i], `${at}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return `${at}/${key.replaceAll(NUL, '\\u0000')}`;
      const found = nulTextAt(item, `${at}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * After the validator: a request holding U+0000 in its text answers the service's own 400, or `notFound`
 * (the front door's 404) for an operation that documents no 400.
 */
export function refuseNulText(notFound: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const operation = matchedOperation(req);
    const params = Object.fromEntries(
      Object.entries(operation?.rawParams ?? {}).map(([name, raw]) => [name, decoded(raw) ?? '']),
    );
    const at =
      nulTextAt(params, '/path') ??
      nulTextAt(req.query, '/query') ??
      (req.is('json') ? nulTextAt(req.body, '/body') : undefined);
    if (at === undefined) return next();
    const responses = (operation?.operation as { responses?: Record<string, unknown> } | undefined)
      ?.responses;
    if (!responses?.['400']) return notFound(req, res, next);
    next({ status: 400, errors: [{ path: at, message: 'must not contain the character U+0000' }] });
  };
}
