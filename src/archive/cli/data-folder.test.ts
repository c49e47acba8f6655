/**
 * One data folder for the viewer and every command: with only `DATA_DIR` set (as the image sets it, and
 * as `./data` is the default in a checkout), `migrate` and `import` write the database and the media files
 * under it, and the viewer started on the same setting serves the imported files.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, login, MASTER, PASSWORD_ENV, startViewerOn } from '../http/test-viewer';
import { archiveFolders } from '../store/config';
import { cli, exportFolder, tempDir } from './test-cli';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('one data folder', () => {
  it('resolves DATA_DIR, BACKUP_PATH, MEDIA_PATH and SESSION_DIR one way', () => {
    expect(archiveFolders({})).toEqual({
      dataDir: './data',
      mediaRoot: path.join('./data', 'backups'),
      sessionDir: path.join('./data', 'session'),
    });
    expect(archiveFolders({ DATA_DIR: '/data' })).toEqual({
      dataDir: '/data',
      mediaRoot: '/data/backups',
      sessionDir: '/data/session',
    });
    expect(archiveFolders({ DATA_DIR: '/data', BACKUP_PATH: '/b' }).mediaRoot).toBe('/b');
    expect(archiveFolders({ DATA_DIR: '/data', BACKUP_PATH: '/b', MEDIA_PATH: '/m' }).mediaRoot).toBe('/m');
  });

  it('imports into DATA_DIR, and the viewer on the same DATA_DIR serves the imported files', async () => {
    const data = tempDir();
    cleanup.push(data);
    const env = { DATA_DIR: data, LOG_LEVEL: 'WARNING' };
    expect((await cli(['migrate'], env)).code).toBe(0);
    const dir = exportFolder('tg2md-channel', { 'result.json': 'result.json' }, [
      'photos',
      'files',
      'voice_messages',
    ]);
    cleanup.push(dir);
    const imported = await cli(['import', '-p', dir], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(existsSync(path.join(data, 'archive.db'))).toBe(true);
    const voice = path.join(data, 'backups', '-1001292077344', '-1001292077344_7_voice.ogg');
    expect(existsSync(voice)).toBe(true);

    const viewer = await startViewerOn(
      { backend: 'sqlite', path: path.join(data, 'archive.db'), timeoutSeconds: 5, echo: false },
      { ...PASSWORD_ENV, DATA_DIR: data },
    );
    try {
      const cookie = await login(viewer.url, MASTER.username, MASTER.password);
      const chats = await call(viewer.url, '/api/chats', { cookie });
      const ref = (chats.body as { chats: { ref: string }[] }).chats[0]?.ref as string;
      const page = await call(viewer.url, `/api/chats/${ref}/messages?limit=50`, { cookie });
      const messages = page.body as { id: number; media?: { url: string | null } }[];
      const url = messages.find((m) => m.id === 7)?.media?.url;
      expect(url).toBeTruthy();
      const file = await fetch(`${viewer.url}${url}`, { headers: { cookie: `viewer_auth=${cookie}` } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(readFileSync(voice));
    } finally {
      await viewer.close();
    }
  });
});
