/**
 * Files of an export folder, by their real paths: a symbolic link (tar and many zip tools keep them) is
 * followed only while its target stays inside the export folder, so a crafted export cannot bring a file
 * from elsewhere on the machine into the archive. A file with more than one hard link is refused the same
 * way: its other name may be anywhere on the same disk, and nothing tells where. The JSON and the HTML
 * importer read every file through it.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where an export entry's file is: a regular file inside the export, absent, or a link that may lead out. */
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
  const stats = statSync(real);
  if (!stats.isFile()) return { kind: 'missing' };
  return stats.nlink > 1 ? { kind: 'outside' } : { kind: 'file', path: real };
}
