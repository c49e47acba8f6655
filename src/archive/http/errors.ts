import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../common/databases';
import { classifyError, type ValidationDetail } from '../../common/http/errors';
import { ArchiveError, type ArchiveErrorKind, DATABASE_UNAVAILABLE } from '../domain/errors';

const STATUS: Record<ArchiveErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many-requests': 429,
  unavailable: 503,
  'not-configured': 503,
  'unsupported-type': 415,
  internal: 500,
};

/** Answers the seed gives for some fields, instead of the validator's wording. */
const FIELD_MESSAGES: Record<string, string> = {
  '/body/token': 'token is required (the share token, 64 hexadecimal characters)',
  '/body/allowed_chat_ids': 'allowed_chat_ids is no longer accepted; send allowed_chat_refs',
  '/body/chat_id': 'chat_id is no longer accepted; send chat_ref',
  '/body/allowed_chat_refs': 'allowed_chat_refs is required (list of chat refs)',
};

/** Route-specific wordings, which win over FIELD_MESSAGES on that route. */
const ROUTE_FIELD_MESSAGES: Record<string, Record<string, string>> = {
  '/internal/push': { '/body/chat_id': "chat_id must be the platform's integer chat id" },
};

const fieldName = (path: string) => path.split('/').filter(Boolean).slice(1).join('.') || 'body';

const ONE_OF = 'must match exactly one schema in oneOf';
const ONE_VALUE = /^must be equal to one of the allowed values: ([^,]+)$/;

/**
 * A body that is one of several shapes chosen by a field (`oneOf` on `type`: the internal push events)
 * fails every shape but its own; the findings that only say "not this shape" (the other shapes' `type`,
 * and the `oneOf` itself) are left out when the body's own shape says what is wrong. When no shape takes
 * its `type`, they become one line naming every allowed value.
 */
function withoutOtherShapes(details: ValidationDetail[]): ValidationDetail[] {
  if (!details.some((d) => d.message === ONE_OF)) return details;
  const shapes = details.filter((d) => d.path === '/body/type' && ONE_VALUE.test(d.message));
  const shapeTypes = shapes.length >= 2 ? shapes : [];
  const rest = details.filter((d) => d.message !== ONE_OF && !shapeTypes.includes(d));
  if (rest.length > 0) return rest;
  if (shapeTypes.length === 0) return details;
  const values = shapeTypes.map((d) => ONE_VALUE.exec(d.message)?.[1]).join(', ');
  return [{ path: '/body/type', message: `must be equal to one of the allowed values: ${values}` }];
}

/** One readable line from the validator's findings: `limit: must be <= 500`, `Missing field: password`. */
export function describeInvalidRequest(details: ValidationDetail[], route = ''): string {
  const lines = withoutOtherShapes(details).map((d) => {
    const special = ROUTE_FIELD_MESSAGES[route]?.[d.path] ?? FIELD_MESSAGES[d.path];
    if (special) return special;
    // The update body's pattern (at least 8 characters, or empty) would otherwise be quoted as a regex.
    if (d.path === '/body/password' && /pattern|fewer than/.test(d.message)) {
      return 'password: must be at least 8 characters';
    }
    const required = /must have required property '([^']+)'/.exec(d.message);
    // The validator's path names the field, a nested one with its parents (`data.new_text`).
    if (required)
      return `Missing field: ${d.path.endsWith(`/${required[1]}`) ? fieldName(d.path) : required[1]}`;
    return `${fieldName(d.path)}: ${d.message}`;
  });
  return [...new Set(lines)].join('; ') || 'Invalid request';
}

export interface ErrorMapperOptions {
  logger: Logger;
  /** Whether an error means the database cannot be reached (503 instead of 500). */
  isDatabaseDown: (error: unknown) => boolean;
}

/** Every error becomes `{detail}` with the seed's status; a 500 never says more than that. */
export function errorMapper({ logger, isDatabaseDown }: ErrorMapperOptions): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const send = (status: number, detail: string) => {
      if (!res.headersSent) res.status(status).json({ detail });
      else res.end();
    };
    if (error instanceof ArchiveError) {
      if (error.retryAfter) res.setHeader('Retry-After', String(error.retryAfter));
      send(STATUS[error.kind], error.detail);
      return;
    }
    if (isDatabaseDown(error)) {
      (req.log ?? logger).warn({ err: error }, 'database unreachable');
      if (!res.headersSent) res.setHeader('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      send(503, DATABASE_UNAVAILABLE);
      return;
    }
    const classified = classifyError(error);
    switch (classified.kind) {
      case 'invalid-json':
        send(400, 'Request body is not valid JSON');
        return;
      case 'unsupported-media-type':
        send(400, 'Request body must be JSON (Content-Type: application/json)');
        return;
      case 'body-too-large':
        send(413, 'Payload too large');
        return;
      case 'invalid-request':
        send(400, describeInvalidRequest(classified.details, req.path));
        return;
      case 'not-found':
        send(404, 'Not Found');
        return;
      case 'method-not-allowed':
        send(405, 'Method Not Allowed');
        return;
      case 'invalid-response':
        (req.log ?? logger).error(
          { details: classified.details, path: req.path },
          'response breaks the document',
        );
        send(500, 'Internal server error');
        return;
      default:
        (req.log ?? logger).error({ err: error }, 'unexpected error');
        send(500, 'Internal server error');
    }
  };
}

/** A request target that cannot be read (front-door.ts): a `#`, a backslash, a byte outside ASCII. */
export const badTargetHandler: RequestHandler = (_req, res) => {
  res.status(400).json({ detail: 'Invalid request target' });
};

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: 'Not Found' });
};

/** A method the document does not give a path it knows (`Allow` names those it does). */
export const methodNotAllowedHandler: RequestHandler = (_req, res) => {
  res.status(405).json({ detail: 'Method Not Allowed' });
};
