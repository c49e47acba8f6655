/**
 * Media an export did not include ("File not included" in the desktop app's JSON) are recorded as not in
 * the export, not as files waiting for the backup: `status` counts them skipped, never pending, and the
 * page says why in words. Real samples: two JSON exports whose uploaders left files out.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipReasonText } from '../../../web/shared/skip-reasons';
import { cli, exportFolder, FIXTURES, tempDir } from './test-cli';

const work = tempDir();
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** How many media entries of a sample's messages say the file was not included. */
function notIncluded(sample: string, file: string): number {
  const data = JSON.parse(readFileSync(path.join(FIXTURES, sample, file), 'utf8'));
  const messages: Record<string, unknown>[] =
    data.messages ?? data.chats.list.flatMap((c: { messages: unknown[] }) => c.messages);
  return messages.filter((m) =>
    ['photo', 'file'].some((k) => typeof m[k] === 'string' && (m[k] as string).includes('File not included')),
  ).length;
}

describe.each([
  ['mlomb-chat-analytics', 'DM_2A_7M.json', 2],
  ['tkonverter-synthetic', 'result_group.json', 1],
])('importing %s/%s', (sample, file, expected) => {
  it('records the files the export left out as skipped, not pending', async () => {
    expect(notIncluded(sample, file)).toBe(expected);
    const env = {
      DATABASE_PATH: path.join(work, `${sample}.db`),
      BACKUP_PATH: path.join(work, `${sample}-media`),
      LOG_LEVEL: 'ERROR',
    };
    expect((await cli(['migrate'], env)).code).toBe(0);
    const imported = await cli(['import', '-p', exportFolder(sample, { [file]: 'result.json' })], env);
    expect(imported.code, imported.stderr).toBe(0);
    const status = JSON.parse((await cli(['status', '--json'], env)).stdout);
    expect(status.media).toMatchObject({ pending: 0, exhausted: 0 });
    expect(status.media.skipped).toBeGreaterThanOrEqual(expected);
  });
});

describe('the reasons in words', () => {
  it('says why a file is missing, never a code', () => {
    expect(skipReasonText('not_in_export')).toBe('the export did not include it');
    expect(skipReasonText('skipped_on_import')).toBe('left out when the export was imported');
    expect(skipReasonText('some_new_reason')).toBe('some new reason');
  });
});
