/**
 * Data files are the owner's only: the archive holds every message, password hashes and the VAPID private
 * key; the other databases hold keys and logins. Every entry point (`npm start`, each service's command
 * line, the image) calls `privateFileModes()` first, so whatever it creates is 0600 (files) and 0700
 * (folders); the SQLite opener also tightens a database file created before, and its journal files.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Files and folders this process creates from now on: 0600 and 0700. */
export function privateFileModes(): void {
  process.umask(0o077);
}

/** Creates a folder (and its parents) 0700; an existing one of this user's is tightened to 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
}

/** Creates an empty file 0600 when missing; an existing one of this user's is tightened to 0600. */
export function privateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  tighten(file, 0o600);
}

/** Takes group and other bits away from a path this user owns (another user's file is left alone). */
export function tighten(file: string, mode: number): void {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat || (stat.mode & 0o077) === 0) return;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return;
  chmodSync(file, mode);
}
