/**
 * The library entry point on the fake platform: every account in turn (throwing only when all fail), or
 * only a given connected session's account; `media/_shared` left alone, no listener started.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../common/logger';
import { FakePlatform, loadBackupConfig, runBackup } from './index';
import type { ArchiveSqlStore } from './store/archive-store';
import { sql } from './store/sql';
import { openTestStore } from './store/testing/databases';

const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-archive-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runBackup(config, client?)', () => {
  it('backs up every account, fails only when all fail, and backs up only a given client’s account', async () => {
    const t = await openTestStore('sqlite', { seed: false });
    try {
      const backups = path.join(dir, 'backups');
      mkdirSync(path.join(backups, 'media', '_shared'), { recursive: true });
      writeFileSync(path.join(backups, 'media', '_shared', 'loose-file'), 'x');
      const config = {
        ...loadBackupConfig({ MSGR_ACCOUNT_1_PHONE: '+1001', MSGR_ACCOUNT_2_PHONE: '+1002' }),
        database: t.config,
        backupPath: backups,
      };
      const platform = new FakePlatform();
      for (const [phone, id, chat] of [
        ['+1001', 11, 501],
        ['+1002', 12, 502],
      ] as const) {
        platform.addAccount(phone, { id });
        platform.addChat(phone, { id: chat, type: 'private', firstName: 'P' });
        platform.putMessages(phone, chat, [{ chatId: chat, id: 1, date: new Date(Date.UTC(2026, 0, 1)) }]);
      }
      const options = { platform, logger: silentLogger() };
      const chats = async () =>
        (await (t.db as ArchiveSqlStore).driver.all(sql`SELECT chat_id FROM messages ORDER BY chat_id`)).map(
          (r) => Number(r.chat_id),
        );

      platform.failingAccounts.add('+1002');
      await expect(runBackup(config, null, options)).resolves.toBeUndefined();
      expect(await chats()).toEqual([501]);
      platform.failingAccounts.add('+1001');
      await expect(runBackup(config, null, options)).rejects.toMatchObject({ name: 'RuntimeError' });
      platform.failingAccounts.clear();

      const session = await platform.connect({ index: 2, phone: '+1002' });
      await runBackup(config, session, { logger: silentLogger() });
      expect(await chats()).toEqual([501, 502]);
      expect(platform.connections).toBe(1);
      expect(await session.me()).toMatchObject({ id: 12 });
      expect(existsSync(path.join(backups, 'media', '_shared', 'loose-file'))).toBe(true);
      expect(platform.account('+1002').listeners.size).toBe(0);
      await session.disconnect();
    } finally {
      await t.close();
    }
  });
});
