import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../common/logger';
import { start } from './main';
import { migrateArchive, NO_SCHEMA } from './store/migrate';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('archive', 'info', sink), text: () => lines.join('') };
}

describe('the archive viewer process', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-archive-main-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (file: string) => ({
    DATABASE_PATH: path.join(dir, file),
    VIEWER_USERNAME: 'reader',
    VIEWER_PASSWORD: 'a-long-enough-passphrase',
  });

  it('says at start that a database without the schema needs `archive-cli migrate`', async () => {
    const log = capture();
    const running = await start(env('empty.db'), { logger: log.logger, port: 0, passwordIterations: 1 });
    await running.close();
    expect(log.text()).toContain(NO_SCHEMA);
  });

  it('says nothing of it once the database is migrated', async () => {
    const config = {
      backend: 'sqlite',
      path: path.join(dir, 'migrated.db'),
      timeoutSeconds: 5,
      echo: false,
    } as const;
    await migrateArchive(config);
    const log = capture();
    const running = await start(env('migrated.db'), { logger: log.logger, port: 0, passwordIterations: 1 });
    await running.close();
    expect(log.text()).toContain('viewer listening');
    expect(log.text()).not.toContain(NO_SCHEMA);
  });
});
