/**
 * The demo archive comes from the backup engine: after both runs the archive holds what the demo
 * platform holds (every message, every media file downloaded, the edit, the soft deletion, the refs of
 * the fixture archive).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { FIXTURE } from '../demo/dataset';
import type { ArchiveSqlStore } from '../store/archive-store';
import { backupState } from '../store/backup-state';
import { sql } from '../store/sql';
import { ALL_VISIBLE } from '../store/store';
import { openTestStore } from '../store/testing/databases';
import { loadBackupConfig } from './config';
import { DEMO_MEDIA, demoPlatform, fillDemoArchive } from './demo-platform';

const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo archive', () => {
  it('is what the engine writes from the demo platform', async () => {
    const t = await openTestStore('sqlite', { seed: false });
    try {
      const driver = (t.db as ArchiveSqlStore).driver;
      const demo = demoPlatform((kind) => Buffer.from(`bytes of ${kind}`), Buffer.from('avatar'));
      const config = { ...loadBackupConfig({}), database: t.config, backupPath: path.join(dir, 'b') };
      await fillDemoArchive(
        { config, store: t.db, state: backupState(driver), logger: silentLogger() },
        demo,
      );
      let platformMessages = 0;
      for (const account of demo.platform.accounts.values()) {
        for (const chat of account.chats.values()) platformMessages += chat.messages.size;
      }
      const rows = await driver.all(sql`SELECT is_deleted FROM messages`);
      const deleted = rows.filter((r) => Number(r.is_deleted) === 1).length;
      expect(rows.length - deleted).toBe(platformMessages);
      expect(deleted).toBe(1);
      const media = await driver.all(sql`SELECT type, downloaded FROM media ORDER BY type`);
      expect(media.map((m) => m.type)).toEqual(DEMO_MEDIA.map((m) => m.kind).sort());
      expect(media.every((m) => Number(m.downloaded) === 1)).toBe(true);
      const found = await t.db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref);
      expect(found?.chat.title).toBe('Release Crew');
      const versions = await driver.all(sql`SELECT message_id FROM message_versions`);
      expect(versions.map((v) => Number(v.message_id))).toContain(4140);
    } finally {
      await t.close();
    }
  });
});
