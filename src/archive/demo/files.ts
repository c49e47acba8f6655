/**
 * The files of the fixture archive: small real files (media/, see its PROVENANCE.txt) for every
 * media type the fixture references, placed by `installFixtureFiles` exactly where the media layout
 * (domain/media-layout.ts) says the backup puts them, so every media URL of the demo archive answers.
 */
import { copyFile, mkdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatAvatarPath, mediaFilePath, sharedFilePath, userAvatarPath } from '../model/media-layout';

const SOURCE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'media');
const RELEASE_CREW = -1001234567890;
const STICKER_SHA256 = 'e59ffb48f2b79f0f9153bd6a3221f8f7addf81df77139084d9b75a1327462359';

interface FixtureFile {
  /** Name in media/. */
  source: string;
  /** Where it goes, relative to BACKUP_PATH. */
  path: string;
  size: number;
  sha256?: string;
  /** Stored once under media/_shared and linked from `path`. */
  shared?: boolean;
}

const rc = (messageId: number, type: string, ext: string) =>
  mediaFilePath(1, RELEASE_CREW, messageId, type, ext);

export const FIXTURE_FILES = {
  photo: { source: 'photo.jpg', path: rc(4182, 'photo', '.jpg'), size: 5591 },
  voice: { source: 'voice.ogg', path: rc(4181, 'voice', '.ogg'), size: 9484 },
  video: { source: 'video.mp4', path: rc(4140, 'video', '.mp4'), size: 6327 },
  round: { source: 'round.mp4', path: rc(4141, 'video_note', '.mp4'), size: 13030 },
  pdf: { source: 'checklist.pdf', path: rc(4142, 'document', '.pdf'), size: 596 },
  sticker: {
    source: 'sticker.webp',
    path: rc(4143, 'sticker', '.webp'),
    size: 7412,
    sha256: STICKER_SHA256,
    shared: true,
  },
  zip: { source: 'release-notes.zip', path: rc(4144, 'document', '.zip'), size: 185 },
  chatAvatar: {
    source: 'chat-avatar.jpg',
    path: chatAvatarPath(RELEASE_CREW, '5879443210987654321'),
    size: 1803,
  },
  olderChatAvatar: {
    source: 'chat-avatar-older.jpg',
    path: chatAvatarPath(RELEASE_CREW, '5512870036482915003'),
    size: 1519,
  },
  marta: { source: 'user-marta.jpg', path: userAvatarPath(582937461), size: 1610 },
  jonas: { source: 'user-jonas.jpg', path: userAvatarPath(771204583), size: 1629 },
  anna: { source: 'user-anna.jpg', path: userAvatarPath(305718226), size: 1806 },
} satisfies Record<string, FixtureFile>;

/** Media of filler messages in Release Crew, one of each remaining kind. */
export const RELEASE_CREW_FILES: {
  messageId: number;
  type: string;
  file: keyof typeof FIXTURE_FILES;
  fileName: string;
  mimeType: string;
  width?: number;
  height?: number;
  duration?: number;
}[] = [
  {
    messageId: 4140,
    type: 'video',
    file: 'video',
    fileName: 'standup.mp4',
    mimeType: 'video/mp4',
    width: 320,
    height: 240,
    duration: 2,
  },
  {
    messageId: 4141,
    type: 'video_note',
    file: 'round',
    fileName: 'round.mp4',
    mimeType: 'video/mp4',
    width: 240,
    height: 240,
    duration: 2,
  },
  {
    messageId: 4142,
    type: 'document',
    file: 'pdf',
    fileName: 'Checkliste Veröffentlichung 2.4.pdf',
    mimeType: 'application/pdf',
  },
  {
    messageId: 4143,
    type: 'sticker',
    file: 'sticker',
    fileName: 'sticker.webp',
    mimeType: 'image/webp',
    width: 512,
    height: 512,
  },
  {
    messageId: 4144,
    type: 'document',
    file: 'zip',
    fileName: 'release-notes.zip',
    mimeType: 'application/zip',
  },
];

/** Copies the fixture files into `backupPath` (replacing earlier copies); returns how many. */
export async function installFixtureFiles(backupPath: string): Promise<number> {
  const files: FixtureFile[] = Object.values(FIXTURE_FILES);
  for (const file of files) {
    const target = path.join(backupPath, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await unlink(target).catch(() => undefined);
    const from = path.join(SOURCE_DIR, file.source);
    if (file.shared && file.sha256) {
      const shared = path.join(backupPath, sharedFilePath(file.sha256));
      await mkdir(path.dirname(shared), { recursive: true });
      await copyFile(from, shared);
      await symlink(path.relative(path.dirname(target), shared), target);
    } else {
      await copyFile(from, target);
    }
  }
  return files.length;
}
