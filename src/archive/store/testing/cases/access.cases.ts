/** The archive's figures and status, and the viewer's access data. */
import { beforeAll, describe, expect } from 'vitest';
import { FIXTURE } from '../../../demo/dataset';
import { IntegerList } from '../../../model/int64';
import { ALL_VISIBLE, type ArchiveDatabase, StoreConflictError } from '../../store';
import { type CaseIt, only, type StoreUnderTest } from './common';

export function accessCases(it: CaseIt, under: StoreUnderTest): void {
  let db: ArchiveDatabase;
  const backend = under.backend;
  beforeAll(() => {
    ({ db } = under);
  });

  describe('figures and status', () => {
    it('sums cached figures over the visible chats', async () => {
      expect(await db.getArchiveFigures(ALL_VISIBLE)).toEqual({
        chats: 6,
        messages: 74,
        media_files: 7,
        total_size_bytes: 42_625,
        total_size_mb: 0.04,
        stats_calculated_at: '2026-03-14T06:04:51Z',
        last_backup_time: '2026-03-14T06:00:12Z',
      });
      const anna = await db.getArchiveFigures(only({ chatRefs: [FIXTURE.anna.ref] }));
      expect([anna.chats, anna.messages, anna.media_files]).toEqual([1, 4, 0]);
    });

    it('reports backup, listener, media and database state', async () => {
      await db.setMetadata('listener_heartbeat_at', '2026-03-14T10:00:00.000Z');
      await db.setMetadata('listener_active_since', '2026-03-10T18:04:40.000Z');
      const status = await db.getArchiveStatus({
        maxDownloadAttempts: 2,
        now: new Date('2026-03-14T10:02:00Z'),
      });
      expect(status.backup).toEqual({ last_run: '2026-03-14T06:00:12Z', in_progress: false });
      expect(status.listeners).toEqual([
        { account_id: 1, active: true, active_since: '2026-03-10T18:04:40Z' },
        { account_id: 2, active: false, active_since: null },
      ]);
      expect(status.media).toEqual({ downloaded: 7, pending: 0, exhausted: 1, skipped: 1 });
      expect(status.database.backend).toBe(backend);
      expect(status.database.size_bytes).toBeGreaterThan(0);
      expect(await db.getRuntimeFlags(new Date('2026-03-14T10:02:00Z'))).toEqual({
        backupInProgress: false,
        listeners: status.listeners,
      });
      const later = await db.getArchiveStatus({
        maxDownloadAttempts: 5,
        now: new Date('2026-03-14T10:03:01Z'),
      });
      expect(later.listeners[0]?.active).toBe(false);
      expect(later.media.pending).toBe(1);
      expect(await db.probe()).toBe(true);
    });
  });

  describe('viewer access data', () => {
    it('creates, updates and deletes viewer accounts, ending their sessions', async () => {
      const alice = await db.createViewerAccount({
        username: 'alice',
        passwordHash: 'h1',
        salt: 's1',
        allowedAccounts: null,
        allowedChatRefs: [FIXTURE.anna.ref],
        isActive: true,
        noDownload: false,
        createdBy: 'admin',
      });
      expect(alice).toMatchObject({
        username: 'alice',
        allowed_chat_refs: [FIXTURE.anna.ref],
        is_active: true,
      });
      await expect(
        db.createViewerAccount({
          ...{ username: 'alice', passwordHash: 'x', salt: 'y' },
          allowedAccounts: null,
          allowedChatRefs: null,
          isActive: true,
          noDownload: false,
          createdBy: null,
        }),
      ).rejects.toBeInstanceOf(StoreConflictError);
      expect((await db.findViewerAccountByUsername('alice'))?.password_hash).toBe('h1');
      const s = await db.createSession({
        username: 'alice',
        role: 'viewer',
        allowedAccounts: null,
        allowedChatRefs: [FIXTURE.anna.ref],
        noDownload: false,
        viewerAccountId: alice.id,
        lifetimeMs: 86_400_000,
      });
      const same = await db.updateViewerAccount(alice.id, { isActive: true });
      expect(same?.changed).toEqual([]);
      expect(await db.getSession(s.key)).not.toBeNull();
      const changed = await db.updateViewerAccount(alice.id, { noDownload: true, allowedChatRefs: [] });
      expect(changed?.changed.sort()).toEqual(['allowed_chat_refs', 'no_download']);
      expect(changed?.account).toMatchObject({ no_download: true, allowed_chat_refs: [] });
      expect(changed?.ended.map((e) => e.id)).toEqual([s.session.id]);
      expect(await db.getSession(s.key)).toBeNull();
      await db.createViewerAccount({
        username: 'bob',
        passwordHash: 'h',
        salt: 's',
        allowedAccounts: [1],
        allowedChatRefs: null,
        isActive: true,
        noDownload: false,
        createdBy: 'admin',
      });
      await expect(db.updateViewerAccount(alice.id, { username: 'bob' })).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      expect(await db.updateViewerAccount(99999, { isActive: false })).toBeNull();
      expect((await db.listViewerAccounts()).map((a) => a.username)).toEqual(['alice', 'bob']);
      expect((await db.deleteViewerAccount(alice.id))?.account.username).toBe('alice');
      expect(await db.getViewerAccount(alice.id)).toBeNull();
    });

    it('stores id lists beyond 2^53 exactly', async () => {
      const ids = IntegerList.from64([1, 1152921504606846977n, 9223372036854775807n]);
      const exact = ['1', '1152921504606846977', '9223372036854775807'];
      const wide = await db.createViewerAccount({
        username: 'wide-ids',
        passwordHash: 'h',
        salt: 's',
        allowedAccounts: ids,
        allowedChatRefs: null,
        isActive: true,
        noDownload: false,
        createdBy: 'admin',
      });
      const reread = (await db.getViewerAccount(wide.id))?.allowed_accounts;
      expect(reread).toBeInstanceOf(IntegerList);
      expect((reread as IntegerList).exactValues()).toEqual(exact);
      const unchanged = await db.updateViewerAccount(wide.id, { allowedAccounts: ids });
      expect(unchanged?.changed).toEqual([]);
      const next = IntegerList.from64([1152921504606846978n]);
      const changed = await db.updateViewerAccount(wide.id, { allowedAccounts: next });
      expect(changed?.changed).toEqual(['allowed_accounts']);
      expect((changed?.account.allowed_accounts as IntegerList | undefined)?.exactValues()).toEqual([
        '1152921504606846978',
      ]);
      const session = await db.createSession({
        username: 'wide-ids',
        role: 'viewer',
        allowedAccounts: ids,
        allowedChatRefs: null,
        noDownload: false,
        lifetimeMs: 60_000,
      });
      expect(
        ((await db.getSession(session.key))?.allowedAccounts as IntegerList | undefined)?.exactValues(),
      ).toEqual(exact);
      // As a visibility: the ids beyond 2^53 match no account and break no query on either backend.
      const vis = only({ accounts: ids });
      expect((await db.listAccounts(vis)).map((a) => a.id)).toEqual([1]);
      expect((await db.listChats(vis, { limit: 50, offset: 0 })).total).toBeGreaterThan(0);
      await db.endSession(session.key);
      await db.deleteViewerAccount(wide.id);
    });

    it('keeps at most ten sessions per user, ending the oldest', async () => {
      const keys: string[] = [];
      const base = Date.parse('2026-03-14T10:00:00Z');
      let evicted: string[] = [];
      for (let i = 0; i < 11; i++) {
        const s = await db.createSession({
          username: 'carol',
          role: 'master',
          allowedAccounts: null,
          allowedChatRefs: null,
          noDownload: false,
          lifetimeMs: 30 * 86_400_000,
          now: new Date(base + i * 1000),
        });
        keys.push(s.key);
        evicted = s.evicted.map((e) => e.id);
        expect(s.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }
      const now = new Date(base + 60_000);
      expect(await db.getSession(keys[0] as string, now)).toBeNull();
      expect(evicted).toHaveLength(1);
      expect(await db.getSession(keys[1] as string, now)).not.toBeNull();
      expect(await db.getSession(keys[10] as string, now)).toMatchObject({
        username: 'carol',
        role: 'master',
      });
      expect(await db.getSession(keys[10] as string, new Date(base + 31 * 86_400_000))).toBeNull();
      const ended = await db.endSession(keys[10] as string);
      expect(ended?.username).toBe('carol');
      expect(await db.endSession(keys[10] as string)).toBeNull();
      expect(await db.endSessionsOfUser('carol')).toHaveLength(9);
    });

    it('ends every session but the kept one, and reports which are still live', async () => {
      const make = (username: string) =>
        db.createSession({
          username,
          role: 'viewer',
          allowedAccounts: null,
          allowedChatRefs: null,
          noDownload: false,
          lifetimeMs: 3_600_000,
        });
      const mine = await make('dave');
      const other = await make('erin');
      const third = await make('dave');
      expect((await db.liveSessionIds([mine.session.id, other.session.id, 'nope'])).sort()).toEqual(
        [mine.session.id, other.session.id].sort(),
      );
      // Other tests of this suite may have left sessions in the database: what is proved here holds
      // whatever they left (every session but the kept one ends, whoever created it).
      const ended = await db.endAllSessions({ keepKey: mine.key });
      const endedIds = ended.map((e) => e.id);
      expect(endedIds).toEqual(expect.arrayContaining([other.session.id, third.session.id]));
      expect(endedIds).not.toContain(mine.session.id);
      expect(await db.endAllSessions({ keepKey: mine.key })).toEqual([]);
      expect(await db.getSession(mine.key)).not.toBeNull();
      expect(await db.liveSessionIds([other.session.id])).toEqual([]);
      const expired = await db.purgeExpiredSessions(new Date(Date.now() + 7_200_000));
      expect(expired.map((e) => e.id)).toContain(mine.session.id);
    });

    it('stores share tokens hashed, counts uses, and ends sessions on scope changes', async () => {
      const created = await db.createShareToken({
        label: '  family ',
        allowedChatRefs: [FIXTURE.releaseCrew.ref],
        noDownload: true,
        expiresAt: new Date('2026-12-31T23:59:59Z'),
        createdBy: 'admin',
      });
      expect(created.token).toMatch(/^[0-9a-f]{64}$/);
      expect(created.label).toBe('family');
      expect(JSON.stringify(await db.listShareTokens())).not.toContain(created.token);
      const used = await db.redeemShareToken(created.token, new Date('2026-03-14T10:00:00Z'));
      expect(used).toMatchObject({ id: created.id, use_count: 1, last_used_at: '2026-03-14T10:00:00Z' });
      expect(await db.redeemShareToken(created.token, new Date('2027-01-01T00:00:00Z'))).toBeNull();
      expect(await db.redeemShareToken('0'.repeat(64))).toBeNull();
      expect(await db.redeemShareToken('not hex')).toBeNull();
      const session = await db.createSession({
        username: `token:${created.label}`,
        role: 'token',
        allowedAccounts: null,
        allowedChatRefs: created.allowed_chat_refs,
        noDownload: true,
        sourceTokenId: created.id,
        lifetimeMs: 3_600_000,
      });
      const relabel = await db.updateShareToken(created.id, { label: 'kin' });
      expect(relabel).toMatchObject({ changed: ['label'], ended: [] });
      const revoke = await db.updateShareToken(created.id, { isRevoked: true });
      expect(revoke?.ended.map((e) => e.id)).toEqual([session.session.id]);
      expect(await db.redeemShareToken(created.token, new Date('2026-03-15T00:00:00Z'))).toBeNull();
      expect((await db.getShareToken(created.id))?.use_count).toBe(1);
      expect((await db.deleteShareToken(created.id))?.token.id).toBe(created.id);
      expect(await db.deleteShareToken(created.id)).toBeNull();
    });

    it('appends and filters the audit log, stores settings and metadata', async () => {
      await db.appendAudit({
        username: 'admin',
        role: 'master',
        action: 'viewer_created',
        endpoint: '/api/admin/viewers',
      });
      await db.appendAudit({
        username: 'admin',
        role: 'master',
        action: 'setting_updated:theme',
        endpoint: '/api/admin/settings/theme',
      });
      await db.appendAudit({
        username: 'other',
        role: 'master',
        action: 'viewer_created',
        endpoint: null,
        ipAddress: '10.0.0.2',
      });
      const all = await db.listAudit({ limit: 10, offset: 0 });
      expect(all.map((e) => e.action)).toEqual(['viewer_created', 'setting_updated:theme', 'viewer_created']);
      expect(
        (await db.listAudit({ limit: 10, offset: 0, username: 'admin', action: 'viewer_created' })).length,
      ).toBe(1);
      expect((await db.listAudit({ limit: 1, offset: 1 }))[0]?.action).toBe('setting_updated:theme');
      await db.appendAudit({
        username: 'admin',
        role: 'master',
        action: 'token_created:2',
        endpoint: null,
      });
      await db.appendAudit({
        username: 'admin',
        role: 'master',
        action: 'Token_created:3',
        endpoint: null,
      });
      await db.appendAudit({ username: 'admin', role: 'master', action: 'token_creat%', endpoint: null });
      const actions = async (action: string) =>
        (await db.listAudit({ limit: 10, offset: 0, action })).map((e) => e.action);
      // A prefix, case as given, with no wildcard characters on either backend.
      expect(await actions('token_created')).toEqual(['token_created:2']);
      expect(await actions('token_creat%')).toEqual(['token_creat%']);
      expect(await actions('token_creat_')).toEqual([]);
      expect(await actions('setting')).toEqual(['setting_updated:theme']);
      expect(await actions('viewer_created:')).toEqual([]);
      expect(await db.setSetting('theme', 'midnight')).toEqual({ key: 'theme', value: 'midnight' });
      await db.setSetting('theme', 'daylight');
      expect(await db.getSettings()).toEqual({ theme: 'daylight' });
      expect(await db.getSetting('missing')).toBeNull();
      await db.setMetadata('vapid_public_key', 'BPk');
      expect(await db.getMetadata('vapid_public_key')).toBe('BPk');
      expect(await db.deletePushSubscriptionsOfUser('nobody')).toBe(0);
    });
  });
}
