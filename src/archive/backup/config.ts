/**
 * The backup's configuration, read once from the environment: the platform accounts, which chats to keep,
 * the deletion and rate-limit rules, where media files go. Only the backup side reads these; the
 * database settings come from the store's own configuration.
 */
import path from 'node:path';
import {
  boolVar,
  ConfigError,
  type Env,
  enumVar,
  intVar,
  numberVar,
  scopedEnv,
  stringVar,
} from '../../common/env';
import { chatIdList } from '../config';
import { archiveFolders, type DatabaseConfig, parseDatabaseConfig } from '../store/config';

export interface BackupAccount {
  /** N of MSGR_ACCOUNT_<N>_PHONE; 1 for the single legacy account (MSGR_PHONE). */
  index: number;
  phone: string;
  label: string | null;
  /** MSGR_ACCOUNT_<N>_CHAT_IDS: when set, only these chats of the account are backed up. */
  chatIds: number[] | null;
}

export interface BackupConfig {
  apiId: number | null;
  apiHash: string | null;
  accounts: BackupAccount[];
  /** CHAT_IDS: a global whitelist; EXCLUDE_CHAT_IDS: chats never backed up (our names for the seed's lists). */
  includeChatIds: number[] | null;
  excludeChatIds: number[] | null;
  deletionMode: 'soft' | 'hard';
  massDeletion: { threshold: number; windowSeconds: number; bufferDelaySeconds: number };
  mediaMaxAttempts: number;
  downloadMedia: boolean;
  maxFloodWaitSeconds: number;
  floodWaitLogThreshold: number;
  gapThreshold: number;
  fillGaps: boolean;
  enableListener: boolean;
  schedule: string;
  heartbeatFile: string;
  backupPath: string;
  sessionDir: string;
  database: DatabaseConfig;
}

function accounts(env: Env): BackupAccount[] {
  const found: BackupAccount[] = [];
  for (const [name, value] of Object.entries(env)) {
    const match = /^MSGR_ACCOUNT_(\d+)_PHONE$/.exec(name);
    if (!match || !value?.trim()) continue;
    const index = Number(match[1]);
    found.push({
      index,
      phone: value.trim(),
      label: stringVar(env, `MSGR_ACCOUNT_${index}_LABEL`)?.trim() || null,
      chatIds: chatIdList(env, `MSGR_ACCOUNT_${index}_CHAT_IDS`),
    });
  }
  const legacy = stringVar(env, 'MSGR_PHONE')?.trim();
  if (legacy && !found.some((a) => a.index === 1)) {
    found.push({ index: 1, phone: legacy, label: null, chatIds: chatIdList(env, 'MSGR_ACCOUNT_1_CHAT_IDS') });
  }
  return found.sort((a, b) => a.index - b.index);
}

export function loadBackupConfig(processEnv: Env = process.env): BackupConfig {
  const env = scopedEnv(processEnv, 'ARCHIVE_');
  const folders = archiveFolders(env);
  const apiId = stringVar(env, 'MSGR_API_ID');
  if (apiId !== undefined && !/^\d+$/.test(apiId.trim())) {
    throw new ConfigError(`MSGR_API_ID: invalid literal for int() with base 10: '${apiId}'`);
  }
  return {
    apiId: apiId === undefined ? null : Number(apiId),
    apiHash: stringVar(env, 'MSGR_API_HASH') ?? null,
    accounts: accounts(env),
    includeChatIds: chatIdList(env, 'CHAT_IDS'),
    excludeChatIds: chatIdList(env, 'EXCLUDE_CHAT_IDS'),
    deletionMode: enumVar(env, 'DELETION_MODE', ['soft', 'hard'] as const, 'soft'),
    massDeletion: {
      threshold: intVar(env, 'MASS_OPERATION_THRESHOLD', 10, { min: 1 }),
      windowSeconds: intVar(env, 'MASS_OPERATION_WINDOW_SECONDS', 30, { min: 1 }),
      bufferDelaySeconds: numberVar(env, 'MASS_OPERATION_BUFFER_DELAY', 2),
    },
    mediaMaxAttempts: intVar(env, 'MEDIA_MAX_DOWNLOAD_ATTEMPTS', 5, { min: 1 }),
    downloadMedia: boolVar(env, 'DOWNLOAD_MEDIA', true),
    maxFloodWaitSeconds: intVar(env, 'MAX_FLOOD_WAIT_SECONDS', 3600, { min: 0 }),
    floodWaitLogThreshold: intVar(env, 'FLOOD_WAIT_LOG_THRESHOLD', 10, { min: 0 }),
    gapThreshold: intVar(env, 'GAP_THRESHOLD', 50, { min: 1 }),
    fillGaps: boolVar(env, 'FILL_GAPS', false),
    enableListener: boolVar(env, 'ENABLE_LISTENER', false),
    schedule: stringVar(env, 'SCHEDULE', '0 */6 * * *'),
    heartbeatFile: stringVar(env, 'HEARTBEAT_FILE', path.join(folders.dataDir, 'backup.heartbeat')),
    backupPath: folders.mediaRoot,
    sessionDir: folders.sessionDir,
    database: parseDatabaseConfig(env),
  };
}
