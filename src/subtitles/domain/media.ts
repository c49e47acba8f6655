import { existsSync, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConflictError, InvalidInputError } from './errors';

export const MEDIA_EXTENSIONS = new Set([
  '.mkv',
  '.mp4',
  '.m4v',
  '.avi',
  '.mov',
  '.webm',
  '.wmv',
  '.ts',
  '.mp3',
  '.m4a',
  '.mka',
  '.flac',
  '.ogg',
  '.opus',
  '.wav',
]);

/** The display name of a media file: its name without the extension. */
export const itemName = (file: string) => path.basename(file, path.extname(file));

/** `<folder>/<name>.<language>.srt` beside the media file. */
export const subtitlePath = (file: string, language: string) =>
  path.join(path.dirname(file), `${itemName(file)}.${language}.srt`);

function realMediaDir(mediaDir: string): string {
  try {
    return realpathSync(mediaDir);
  } catch {
    throw new InvalidInputError('path', `the media folder ${mediaDir} does not exist`);
  }
}

const inside = (dir: string, file: string) => file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** A media path as a client sends it (relative to the media folder, or absolute inside it) → its real path. */
export function resolveMediaFile(mediaDir: string, requested: string): string {
  const root = realMediaDir(mediaDir);
  const candidate = path.resolve(root, requested);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    throw new InvalidInputError('path', `no such file in the media folder: ${requested}`);
  }
  if (!inside(root, real)) throw new InvalidInputError('path', 'the file must be inside the media folder');
  if (!statSync(real).isFile()) throw new InvalidInputError('path', `not a file: ${requested}`);
  return real;
}

const MAX_DEPTH = 16;
const MAX_FILES = 100_000;

/** Media files under the media folder (hidden folders and files skipped), in name order. */
export async function findMediaFiles(mediaDir: string): Promise<string[]> {
  let root: string;
  try {
    root = realpathSync(mediaDir);
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new ConflictError(
      `The media folder ${mediaDir} does not exist or is not a folder. Set SUBTITLES_MEDIA_DIR to the library folder.`,
    );
  }
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || found.length >= MAX_FILES) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(full, depth + 1);
      else if (entry.isFile() && MEDIA_EXTENSIONS.has(path.extname(entry.name).toLowerCase()))
        found.push(full);
    }
  };
  await walk(root, 0);
  return found;
}

export const hasSubtitle = (file: string, language: string) => existsSync(subtitlePath(file, language));
