/**
 * Dredd against the live viewer: every example of the archive document is sent to the real server,
 * started in this process on a seeded SQLite archive. The fixture archive carries the document's
 * example ids; the accounts, tokens and settings the other examples address are created first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd } from '../lib/dredd';
import type { Target } from '../lib/target';
import {
  LIVE_PUSH_SECRET,
  LIVE_WEBHOOK_SECRET,
  liveMasterCookie,
  seedExampleTargets,
  startLiveArchive,
} from './live-target';

describe('Dredd on the live archive viewer', () => {
  let target: Target;
  let cookie: string;
  beforeAll(async () => {
    target = await startLiveArchive();
    cookie = await liveMasterCookie(target.url);
    await seedExampleTargets(target.url, cookie);
  });
  afterAll(() => target?.stop());

  it('passes every transaction it can produce', async () => {
    const { code, output } = await runDredd(
      'archive',
      target.url,
      // The bearer is for /internal/push; every other route ignores it.
      { Cookie: `viewer_auth=${cookie}`, Authorization: `Bearer ${LIVE_PUSH_SECRET}` },
      { DREDD_TARGET: 'live', DREDD_WEBHOOK_SECRET: LIVE_WEBHOOK_SECRET },
    );
    const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
    expect(summary, output).not.toBeNull();
    expect(Number(summary?.[1]), output).toBeGreaterThan(40);
    expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
      failing: '0',
      errors: '0',
      code: 0,
    });
  }, 120_000);
});
