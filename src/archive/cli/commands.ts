/** The command table of `archive-cli`, in help order. */

import type { Command } from '../../common/cli/command';
import { backupCommands } from './backup-commands';
import { cleanupLegacyAvatars } from './cleanup-legacy-avatars';
import { config } from './config';
import { deduplicateMedia } from './deduplicate-media';
import { detectAlbums } from './detect-albums';
import { exportCommand } from './export';
import { generateDummyDb } from './generate-dummy-db';
import { healthcheckBackup } from './healthcheck-backup';
import { healthcheckViewer } from './healthcheck-viewer';
import { importCommand } from './import';
import { listChats } from './list-chats';
import { merge } from './merge';
import { migrate } from './migrate';
import { migrateMediaPaths } from './migrate-media-paths';
import { migrateSqliteToPostgres } from './migrate-sqlite-to-postgres';
import { normalizeGroupedIds } from './normalize-grouped-ids';
import { serve } from './serve';
import { stats } from './stats';
import { status } from './status';
import { updateMediaSizes } from './update-media-sizes';

export const COMMANDS: readonly Command[] = [
  serve,
  migrate,
  ...backupCommands,
  importCommand,
  exportCommand,
  stats,
  status,
  listChats,
  merge,
  config,
  healthcheckBackup,
  healthcheckViewer,
  migrateSqliteToPostgres,
  detectAlbums,
  deduplicateMedia,
  updateMediaSizes,
  normalizeGroupedIds,
  cleanupLegacyAvatars,
  migrateMediaPaths,
  generateDummyDb,
];
