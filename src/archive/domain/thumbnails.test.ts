import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { thumbnailPath } from '../model/media-layout';
import { Thumbnailer } from './thumbnails';

const PHOTO = path.join(path.dirname(fileURLToPath(import.meta.url)), '../demo/media/photo.jpg');

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the thumbnailer', () => {
  it('settles once every thumbnail being made is written, including ones nobody waits for', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'thumbs-'));
    const sources = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const source = path.join(dir, `photo-${i}.jpg`);
        await copyFile(PHOTO, source);
        return source;
      }),
    );
    const thumbnails = new Thumbnailer();
    // Started and let go, as when the browser that asked went away.
    for (const source of sources) void thumbnails.get({ source, size: 200, video: false });
    await thumbnails.settled();
    expect(thumbnails.generations).toBe(3);
    for (const source of sources) {
      const target = thumbnailPath(source, 200);
      const names = await readdir(path.dirname(target));
      expect(names).toContain(path.basename(target));
      expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }
    await expect(thumbnails.settled()).resolves.toBeUndefined();
  });
});
