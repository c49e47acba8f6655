/** A unique value is taken (a viewer username). Maps to 409. */
export class StoreConflictError extends Error {
  override name = 'StoreConflictError';
}

/** The database cannot be reached, or stayed locked past its timeout. Maps to 503. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const FULL = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);
const READ_ONLY = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_READONLY_DIRECTORY',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
]);

/**
 * A storage failure in words that say what to do (a full disk, a folder the database cannot be written
 * in), or undefined for any other error. `where` names the database or folder it concerns.
 */
export function storageProblem(error: unknown, where: string): string | undefined {
  let code: unknown;
  // The driver's own error may carry the system's as its cause.
  for (let e = error as { code?: unknown; cause?: unknown } | null; e && code === undefined; ) {
    code = e.code;
    e = e.cause as typeof e;
  }
  if (typeof code !== 'string') return undefined;
  if (FULL.has(code)) return `the disk is full (${where}; ${code})`;
  if (READ_ONLY.has(code)) return `cannot write ${where}: it or its folder is read-only or missing (${code})`;
  return undefined;
}
