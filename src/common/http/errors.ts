/**
 * What went wrong, in plain facts, so each API's error mapper can answer with its own documented body.
 * Validator internals never leave the server: mappers decide what a client sees.
 */
export interface ValidationDetail {
  path: string;
  message: string;
}

export type ClassifiedError =
  | { kind: 'invalid-json' }
  | { kind: 'body-too-large' }
  | { kind: 'invalid-request'; status: number; details: ValidationDetail[] }
  | { kind: 'invalid-response'; details: ValidationDetail[] }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed' }
  | { kind: 'unsupported-media-type' }
  | { kind: 'unexpected'; error: unknown };

interface ValidatorError {
  status: number;
  errors?: { path?: string; message?: string }[];
  type?: string;
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === 'object' && error !== null && typeof (error as ValidatorError).status === 'number';
}

export function classifyError(error: unknown): ClassifiedError {
  if (!isValidatorError(error)) return { kind: 'unexpected', error };
  if (error.type === 'entity.parse.failed') return { kind: 'invalid-json' };
  if (error.type === 'entity.too.large') return { kind: 'body-too-large' };
  const details = (error.errors ?? []).map((e) => ({ path: e.path ?? '', message: e.message ?? 'invalid' }));
  if (
    error.status === 500 &&
    details.some((d) => d.path.startsWith('/response') || d.path.startsWith('.response'))
  ) {
    return { kind: 'invalid-response', details };
  }
  if (error.status === 404) return { kind: 'not-found' };
  if (error.status === 405) return { kind: 'method-not-allowed' };
  if (error.status === 415) return { kind: 'unsupported-media-type' };
  if (error.status === 400) return { kind: 'invalid-request', status: 400, details };
  if (error.status >= 400 && error.status < 500)
    return { kind: 'invalid-request', status: error.status, details };
  return { kind: 'unexpected', error };
}
