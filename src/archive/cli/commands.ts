/** The command table of `archive-cli`, in help order. */
import type { Command } from './command';
import { config } from './config';
import { exportCommand } from './export';
import { healthcheckBackup } from './healthcheck-backup';
import { healthcheckViewer } from './healthcheck-viewer';
import { importCommand } from './import';
import { listChats } from './list-chats';
import { merge } from './merge';
import { migrate } from './migrate';
import { serve } from './serve';
import { stats } from './stats';
import { status } from './status';

export const COMMANDS: readonly Command[] = [
  serve,
  migrate,
  importCommand,
  exportCommand,
  stats,
  status,
  listChats,
  merge,
  config,
  healthcheckBackup,
  healthcheckViewer,
];
