/**
 * Errors → the media server's answers: problem details for bad input and conflicts, empty bodies for
 * everything else (404, and a 500 that never shows what went wrong inside).
 */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { classifyError } from '../../common/http/errors';
import { ConflictError, ForbiddenError, InvalidInputError } from '../domain/errors';

const PROBLEM_TYPES: Record<number, string> = {
  400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
  409: 'https://tools.ietf.org/html/rfc9110#section-15.5.10',
};

function problem(res: Response, status: number, title: string, errors?: Record<string, string[]>): void {
  res
    .status(status)
    .type('application/problem+json')
    .send(JSON.stringify({ type: PROBLEM_TYPES[status], title, status, ...(errors ? { errors } : {}) }));
}

/** `/body/language` → `language`; `/query/name` → `name`; the root of the body → `body`. */
function fieldOf(pointer: string): string {
  const parts = pointer.split(/[/.]/).filter(Boolean);
  const [where, ...rest] = parts;
  if (where === 'body' || where === 'query' || where === 'params' || where === 'headers') {
    return rest.join('.') || 'body';
  }
  return parts.join('.') || 'body';
}

export const notFound: RequestHandler = (_req, res) => {
  res.status(404).end();
};

/**
 * A method the host does not take on a path it serves: 405 with `Allow` and no body, as the media server's
 * framework (ASP.NET Core endpoint routing) answers when a route matches the path but not the method.
 */
export const methodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).end();
};

/** A request target that cannot be read (front-door.ts): 400 with no body, as the media server's host answers. */
export const badTarget: RequestHandler = (_req, res) => {
  res.status(400).end();
};

export const errorMapper: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (error instanceof InvalidInputError) {
    problem(res, 400, 'One or more validation errors occurred.', { [error.field]: [error.message] });
    return;
  }
  if (error instanceof ConflictError) {
    problem(res, 409, error.message);
    return;
  }
  if (error instanceof ForbiddenError) {
    res.status(403).end();
    return;
  }
  const kind = classifyError(error);
  switch (kind.kind) {
    case 'invalid-json':
      problem(res, 400, 'One or more validation errors occurred.', { body: ['the body is not valid JSON'] });
      return;
    case 'body-too-large':
      problem(res, 400, 'One or more validation errors occurred.', { body: ['the body is too large'] });
      return;
    case 'unsupported-media-type':
      problem(res, 400, 'One or more validation errors occurred.', {
        body: ['send the body as application/json'],
      });
      return;
    case 'invalid-request': {
      const errors: Record<string, string[]> = {};
      for (const detail of kind.details) {
        const field = fieldOf(detail.path);
        errors[field] = [...(errors[field] ?? []), detail.message];
      }
      problem(res, 400, 'One or more validation errors occurred.', errors);
      return;
    }
    case 'not-found':
    case 'method-not-allowed':
      res.status(404).end();
      return;
    case 'invalid-response':
      req.log.error({ details: kind.details }, 'response does not match the document');
      res.status(500).end();
      return;
    default:
      req.log.error({ err: kind.error }, 'unexpected error');
      res.status(500).end();
  }
};
