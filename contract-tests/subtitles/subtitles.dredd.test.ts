/**
 * Dredd (contract-tests/dredd/subtitles.yml and its hooks) against the real server, as CI runs it: every
 * example request sent with the admin key, 0 failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd } from '../lib/dredd';
import { type LiveSubtitles, startLiveSubtitles } from './live';

describe('Dredd on the live subtitles server', () => {
  let live: LiveSubtitles;
  beforeAll(async () => {
    live = await startLiveSubtitles();
  });
  afterAll(() => live?.target.stop());

  it('passes every example with the admin key', async () => {
    // The client fields make the same header fit the sign-in, which needs them (and ignores the token).
    const { code, output } = await runDredd(
      'subtitles',
      live.target.url,
      {
        Authorization: `MediaServer Client="Dredd", Device="ci", DeviceId="dredd", Version="14.1.0", Token="${live.adminKey}"`,
      },
      { DREDD_TARGET: 'live' },
    );
    const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
    expect(summary, output).not.toBeNull();
    // One success per operation but the two of SUBTITLES_LIVE_SKIPS and the socket (31), plus the 401 of
    // each one that needs credentials.
    expect(Number(summary?.[1]), output).toBeGreaterThanOrEqual(50);
    expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
      failing: '0',
      errors: '0',
      code: 0,
    });
  }, 120_000);
});
