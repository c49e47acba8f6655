/** A unique value is taken (a viewer username). Maps to 409. */
export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}

/** The database cannot be reached, or stayed locked past its timeout. Maps to 503. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}
