/** Running `archive-cli` in-process for the suites: captured output, an environment per database. */
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../../common/env';
import type { ArchiveSqlStore } from '../store/archive-store';
import type { DatabaseConfig } from '../store/config';
import { sql } from '../store/sql';
import type { ArchiveDatabase } from '../store/store';
import { FIXTURES_DIR } from './fixtures-dir';
import { runCli } from './run';

export const FIXTURES = FIXTURES_DIR;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], env: Env): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    {
      out: (text) => {
        stdout += `${text}\n`;
      },
      err: (text) => {
        stderr += `${text}\n`;
      },
      errWrite: (chunk) => {
        stderr += chunk;
      },
    },
    env,
  );
  return { code, stdout, stderr };
}

export function databaseEnv(config: DatabaseConfig): Env {
  return config.backend === 'sqlite' ? { DATABASE_PATH: config.path } : { DATABASE_URL: config.url };
}

export const tempDir = (prefix = 'specyard-archive-cli-') => mkdtempSync(path.join(os.tmpdir(), prefix));

/**
 * An export folder as the desktop app writes it, from a fixture: `files` maps fixture file names to the
 * export's own names (uploaders renamed some: index.html was messages.html, sample.json was result.json).
 */
export function exportFolder(
  sample: string,
  files: Record<string, string>,
  withFolders: string[] = [],
): string {
  const dir = tempDir('specyard-archive-export-');
  for (const [from, to] of Object.entries(files))
    copyFileSync(path.join(FIXTURES, sample, from), path.join(dir, to));
  for (const folder of withFolders) {
    mkdirSync(path.join(dir, folder), { recursive: true });
    cpSync(path.join(FIXTURES, sample, folder), path.join(dir, folder), { recursive: true });
  }
  return dir;
}

/**
 * The fixture archive as another archive would be: its own random chat refs (both test archives are
 * seeded with the fixture's, and a chat held under the same ref marks an account merged before).
 */
export async function mintOwnRefs(
  db: ArchiveDatabase,
  which: (chat: { ref: string }) => boolean = () => true,
): Promise<void> {
  const driver = (db as ArchiveSqlStore).driver;
  for (const chat of (await db.listAdminChats()).filter(which)) {
    const ref = randomBytes(16).toString('base64url').slice(0, 22);
    // One ref per chat ever: the old row steps aside, the chat takes the new ref, the old row goes.
    await driver.run(sql`UPDATE chat_refs SET chat_id = 0 WHERE ref = ${chat.ref}`);
    await driver.run(
      sql`INSERT INTO chat_refs (ref, account_id, chat_id) VALUES (${ref}, ${chat.account_id}, ${chat.id})`,
    );
    await driver.run(
      sql`UPDATE chats SET ref = ${ref} WHERE account_id = ${chat.account_id} AND id = ${chat.id}`,
    );
    await driver.run(sql`DELETE FROM chat_refs WHERE ref = ${chat.ref}`);
  }
}
