/**
 * JSON in and out with 64-bit ids kept exact (see domain/int64.ts): bodies holding a whole number
 * beyond 2^53 are read again from their text, so an id list stays exact and a number no 64-bit integer
 * holds is a 400; answers are written with every id list exact.
 */
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { ArchiveError } from '../domain/errors';
import {
  holdsLargeInteger,
  JsonNumberError,
  JsonTooDeepError,
  parseJson,
  stringifyJson,
} from '../model/int64';

const texts = new WeakMap<IncomingMessage, Buffer>();

/** express.json, keeping the text for the bodies that need a second, exact reading. */
export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, verify: (req, _res, buf) => texts.set(req, buf) });
  const exact: RequestHandler = (req, _res, next) => {
    const text = texts.get(req);
    texts.delete(req);
    if (text !== undefined) req.body = exactJson(text.toString('utf8'), req.body);
    next();
  };
  return [parse, exact];
}

/**
 * A body as JSON.parse read it, read again from its text when it holds a whole number beyond 2^53; a
 * number no 64-bit integer holds is a 400.
 */
export function exactJson(text: string, parsed: unknown): unknown {
  try {
    if (!holdsLargeInteger(parsed)) return parsed;
    return parseJson(text);
  } catch (error) {
    if (error instanceof JsonNumberError) {
      throw new ArchiveError('invalid', `${error.path || 'body'}: ${error.message}`);
    }
    if (error instanceof JsonTooDeepError) throw new ArchiveError('invalid', `body: ${error.message}`);
    throw error;
  }
}

/** `res.json` writing id lists exactly; the response validator still sees the same object first. */
export const exactJsonAnswers: RequestHandler = (_req, res, next) => {
  res.json = function json(body: unknown) {
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(stringifyJson(body));
  };
  next();
};
