/**
 * `POST /internal/push`, the backup's event path in SQLite mode: a hook of that operation (app.ts), run
 * after the access guard let the caller in and before the body parser.
 *
 * The backup posts every live event here, up to a thousand a second. Through the whole stack (two routers
 * of one layer per documented operation, the body parser, the request validator) each post cost the
 * viewer's thread about a millisecond on the 2-core machine, which capped the route near 700 events/s
 * (`scripts/bench/README.md`, archive decisions). This handler answers the ordinary post (an allowed caller,
 * a JSON body that the document's own schema accepts) with the same steps and the same answer, and hands
 * every other request, untouched or with its body already read, to the normal path, which then answers
 * it exactly as before: a refused caller, another content type, a body too large, a query, a body the
 * schema rejects, a type's missing field, a number beyond 2^53, text holding U+0000.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { operations } from '../../../generated/archive/types';
import { compileComponentSchema } from '../../common/documents';
import { writeContext } from '../../common/http/context';
import { nulTextAt } from '../../common/http/nul-text';
import type { Handlers } from '../../common/http/operations';
import { type LiveEventType, missingField, type WireEvent } from '../live/events';
import { RAW_BODY } from './context';
import { exactJson } from './json';

/** The JSON body limit of every archive route (`jsonBody('1mb')` in app.ts). */
const LIMIT = 1024 * 1024;

/** Whether the request is the ordinary post this handler answers (before its body is read). */
function ordinaryPost(req: Request): boolean {
  // The front door rewrote the URL to the document's spelling; a query takes the normal path.
  if (req.url.includes('?')) return false;
  const type = req.headers['content-type']?.toLowerCase().replace(/\s+/g, '');
  if (type !== 'application/json' && type !== 'application/json;charset=utf-8') return false;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= LIMIT;
}

function readBody(req: Request): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

export function internalPushFastPath(push: Handlers<operations>['pushInternalUpdate']): RequestHandler {
  // The document's schema of the body, compiled once; it may only accept less than the validator does.
  const validEvent = compileComponentSchema<WireEvent>('archive', 'InternalPushEvent');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!ordinaryPost(req)) return next();
    void (async () => {
      const text = await readBody(req);
      // As the body parser reads JSON (strict: an object or an array), and its error when it cannot.
      let body: unknown;
      try {
        if (!/^\s*[[{]/.test(text)) throw new SyntaxError('not an object or an array');
        body = JSON.parse(text);
      } catch (error) {
        throw Object.assign(error as Error, { type: 'entity.parse.failed', status: 400 });
      }
      // From here on the normal path answers with the body already read (the parser sees it finished).
      req.body = exactJson(text, body);
      if (
        !validEvent(req.body) ||
        missingField(req.body.type as LiveEventType, req.body.data) !== null ||
        nulTextAt(req.body, '/body') !== undefined
      ) {
        return next();
      }
      writeContext(res.req, RAW_BODY, req.body);
      await push(req as never, res as never, next);
    })().catch(next);
  };
}
