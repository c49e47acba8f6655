import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseOutage, OUTAGE_RETRY_AFTER_SECONDS } from '../../common/databases';
import { classifyError, type ValidationDetail } from '../../common/http/errors';
import { BBOX_MESSAGE } from '../domain/coordinates';
import {
  DatabaseFailure,
  InvalidParameters,
  NotFound,
  TooManyRequests,
  UpstreamFailure,
} from '../model/errors';

type ErrorBody = { error: string; details?: ValidationDetail[] };

const INVALID = 'Invalid parameters';
const INTERNAL = 'Internal server error';

/** The validator's problems as `details`; any problem with `bbox` carries the seed's one message. */
function requestDetails(details: ValidationDetail[]): ValidationDetail[] {
  return details.map(({ path, message }) => ({
    path,
    message: path === '/query/bbox' || path === '.query.bbox' ? BBOX_MESSAGE : message,
  }));
}

function answer(err: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof InvalidParameters)
    return { status: 400, body: { error: INVALID, details: err.details } };
  if (err instanceof UpstreamFailure) return { status: 502, body: { error: err.message } };
  if (err instanceof TooManyRequests) {
    return {
      status: 429,
      body: { error: 'Too many requests' },
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
    };
  }
  if (isDatabaseOutage(err)) {
    return {
      status: 503,
      body: { error: 'Database temporarily unavailable' },
      headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
    };
  }
  if (err instanceof DatabaseFailure) return { status: 500, body: { error: INTERNAL } };
  if (err instanceof NotFound) return { status: 404, body: { error: err.message } };
  const classified = classifyError(err);
  switch (classified.kind) {
    case 'invalid-json':
      return { status: 400, body: { error: 'Invalid JSON' } };
    case 'body-too-large':
      return {
        status: 400,
        body: { error: INVALID, details: [{ path: '/body', message: 'request body is too large' }] },
      };
    case 'unsupported-media-type':
      return {
        status: 400,
        body: {
          error: INVALID,
          details: [{ path: '/headers/content-type', message: 'must be application/json' }],
        },
      };
    case 'invalid-request':
      return { status: 400, body: { error: INVALID, details: requestDetails(classified.details) } };
    case 'not-found':
      return { status: 404, body: { error: 'Not found' } };
    case 'method-not-allowed':
      return { status: 405, body: { error: 'Method not allowed' } };
    default:
      return { status: 500, body: { error: INTERNAL } };
  }
}

/** Every error as this API's `{error, details?}` body; a 5xx body never carries more than its message. */
export const fuelErrorMapper: ErrorRequestHandler = (err, req, res, _next) => {
  const { status, body, headers } = answer(err);
  if (err instanceof UpstreamFailure) {
    req.log.warn({ err: err.cause instanceof Error ? err.cause.message : err.cause }, err.message);
  } else if (status === 503) {
    req.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'database unreachable');
  } else if (status === 500 && !(err instanceof DatabaseFailure)) {
    const kind = classifyError(err).kind;
    req.log.error(
      { err, kind },
      kind === 'invalid-response' ? 'response does not match the document' : 'request failed',
    );
  }
  if (res.headersSent) {
    // A stream already started: its status cannot change any more.
    res.end();
    return;
  }
  res
    .status(status)
    .set(headers ?? {})
    .json(body);
};

/** A request target that cannot be read (front-door.ts): a `#`, a backslash, a byte outside ASCII. */
export const fuelBadTarget: RequestHandler = (_req, res) => {
  res.status(400).json({ error: 'Invalid request target' });
};

export const fuelNotFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'Not found' });
};

/** A method the document does not give a path it knows (`Allow` names those it does). */
export const fuelMethodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).json({ error: 'Method not allowed' });
};
