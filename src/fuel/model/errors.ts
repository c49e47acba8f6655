import type { ValidationDetail } from '../../common/http/errors';

/** Bad input the schema validator cannot see (latitude of a [lon, lat] pair, bbox ranges). */
export class InvalidParameters extends Error {
  override name = 'InvalidParameters';
  constructor(readonly details: ValidationDetail[]) {
    super(details.map((d) => d.message).join('; '));
  }
}

/** An upstream (routing engine, geocoder, rate feed) failed; `message` is the documented 502 text. */
export class UpstreamFailure extends Error {
  override name = 'UpstreamFailure';
}

/** The database query failed; already logged where it happened. */
export class DatabaseFailure extends Error {
  override name = 'DatabaseFailure';
  constructor(cause: unknown) {
    super('database query failed', { cause });
  }
}

export class TooManyRequests extends Error {
  override name = 'TooManyRequests';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests');
  }
}

/** No station has the identity asked for; `message` is the documented 404 text. */
export class NotFound extends Error {
  override name = 'NotFound';
}
