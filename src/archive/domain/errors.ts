/**
 * What went wrong in a use case, in the archive's own words. The HTTP error mapper turns each kind into
 * its documented status; `detail` is the documented message and is sent as is.
 */
export type ArchiveErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-many-requests'
  | 'unavailable'
  | 'not-configured'
  /** A request for something the target's type does not allow (415). */
  | 'unsupported-type'
  /** A 500 whose detail the seed names (the token login's 'Database not available'). */
  | 'internal';

export class ArchiveError extends Error {
  override name = 'ArchiveError';
  constructor(
    readonly kind: ArchiveErrorKind,
    readonly detail: string,
    /** Seconds a client should wait (rate limit). */
    readonly retryAfter?: number,
  ) {
    super(detail);
  }
}

export const invalid = (detail: string) => new ArchiveError('invalid', detail);
export const notFound = (detail: string) => new ArchiveError('not-found', detail);
export const conflict = (detail: string) => new ArchiveError('conflict', detail);
export const forbidden = (detail: string) => new ArchiveError('forbidden', detail);
export const unsupportedType = (detail: string) => new ArchiveError('unsupported-type', detail);

export const NOT_AUTHENTICATED = 'Not authenticated';
export const INVALID_CREDENTIALS = 'Invalid credentials';
export const INVALID_TOKEN = 'Invalid or expired token';
export const ADMIN_REQUIRED = 'Admin access required';
export const CROSS_SITE_REFUSED = 'Cross-site request refused: this origin may not act with the viewer login';
export const CHAT_NOT_FOUND = 'Chat not found';
export const AUTH_NOT_CONFIGURED = 'Viewer authentication is not configured';
export const DATABASE_UNAVAILABLE = 'Database temporarily unavailable';
export const DOWNLOADS_DISABLED = 'Downloads disabled for this account';
export const MEDIA_NOT_FOUND = 'Media not found';
export const AVATAR_NOT_FOUND = 'Avatar not found';
export const INTERNAL_ERROR = 'Internal server error';
