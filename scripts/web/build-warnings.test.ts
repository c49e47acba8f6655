/**
 * A page build made slow on purpose (about 4 s of a plugin's transforms, as a busy machine makes them):
 * the bundler's timing warning stays out of `npm start`'s output. In the slow tier for its time.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, createLogger, type InlineConfig, mergeConfig, type Plugin } from 'vite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { viteConfig } from './build-config';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'build-warnings-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a page build', () => {
  it('prints no bundler timing warning, even when a plugin holds most of its time', async () => {
    const warnings: string[] = [];
    const logger = createLogger('warn');
    logger.warn = (message) => {
      warnings.push(message);
    };
    logger.warnOnce = logger.warn;
    // A plugin as slow as a busy machine makes the page's transforms: seconds in all.
    const slow: Plugin = {
      name: 'slow-as-a-busy-machine',
      transform() {
        const until = Date.now() + 300;
        while (Date.now() < until);
        return null;
      },
    };
    const base = viteConfig('subtitles', { mode: 'production' });
    await build(
      mergeConfig(base, {
        customLogger: logger,
        plugins: [slow],
        build: { outDir: path.join(dir, 'out'), emptyOutDir: true },
      } satisfies InlineConfig),
    );
    expect(existsSync(path.join(dir, 'out', 'index.html'))).toBe(true);
    expect(warnings).toEqual([]);
  });
});
