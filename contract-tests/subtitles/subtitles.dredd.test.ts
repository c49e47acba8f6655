/**
 * Dredd (contract-tests/dredd/subtitles.yml and its hooks) against the real server, as CI runs it: every
 * example request sent with the admin key, 0 failing.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../lib/document';
import { type LiveSubtitles, startLiveSubtitles } from './live';

function runDredd(endpoint: string, headers: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
        'scripts/dredd.ts',
        'subtitles',
        '--endpoint',
        endpoint,
      ],
      { cwd: ROOT, env: { ...process.env, DREDD_HEADERS: JSON.stringify(headers) } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('Dredd on the live subtitles server', () => {
  let live: LiveSubtitles;
  beforeAll(async () => {
    live = await startLiveSubtitles();
  });
  afterAll(() => live?.target.stop());

  it('passes every example with the admin key', async () => {
    const { code, output } = await runDredd(live.target.url, {
      Authorization: `MediaServer Token="${live.adminKey}"`,
    });
    const summary = output.match(/complete: (\d+) passing, (\d+) failing, (\d+) errors/);
    expect(summary, output).not.toBeNull();
    // One success per operation plus the 401 of each secured one.
    expect(Number(summary?.[1]), output).toBeGreaterThanOrEqual(17);
    expect({ failing: summary?.[2], errors: summary?.[3], code }, output).toEqual({
      failing: '0',
      errors: '0',
      code: 0,
    });
  }, 120_000);
});
