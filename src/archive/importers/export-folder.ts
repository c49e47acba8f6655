/**
 * Files of an export folder, by their real paths: a symbolic link (tar and many zip tools keep them) is
 * followed only while its target stays inside the export folder, so a crafted export cannot bring a file
 * from elsewhere on the machine into the archive. The JSON and the HTML importer read every file through it.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where an export entry's file is: a regular file inside the export, absent, or a link leading out of it. */
export type ExportFile = { kind: 'file'; path: string } | { kind: 'missing' } | { kind: 'outside' };

/** The file an export entry points at (a path relative to the export folder). */
export function exportFile(dir: string, relative: string | null): ExportFile {
  if (!relative) return { kind: 'missing' };
  const root = realpathSync(dir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return { kind: 'outside' };
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // No such file, or a link to nothing: a link pointing outside is still refused, not merely missing.
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()
      ? { kind: 'outside' }
      : { kind: 'missing' };
  }
  if (!real.startsWith(root + path.sep)) return { kind: 'outside' };
  return statSync(real).isFile() ? { kind: 'file', path: real } : { kind: 'missing' };
}
