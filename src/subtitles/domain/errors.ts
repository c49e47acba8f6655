/** A request the domain refuses: the HTTP layer answers 400 with the field and message. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The server is not in a state to do what was asked (409). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** The caller may not do this (403, an empty body as the media server answers). */
export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
}
