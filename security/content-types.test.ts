/**
 * Low 9: a stored media type with a line break (an old row, or one written by another tool) once made
 * that item answer 500 forever. Media types are cleaned on the way out (the file is served as
 * application/octet-stream, no header is injected) and on the way in (the row keeps no such value).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../src/archive/http/test-viewer';
import { mediaTypeOf } from '../src/archive/model/content-type';

const RC = FIXTURE.releaseCrew;
const EVIL = 'image/jpeg\r\nX-Injected: yes\r\n\r\n<script>';

describe('media types from the database', () => {
  let viewer: TestViewer;
  let cookie: string;
  beforeAll(async () => {
    viewer = await startTestViewer(PASSWORD_ENV);
    cookie = await login(viewer.url, MASTER.username, MASTER.password);
  });
  afterAll(() => viewer.close());

  it('serves an item whose stored type holds a line break, as bytes, with no injected header', async () => {
    if (viewer.database.backend !== 'sqlite') throw new Error('the test viewer runs on SQLite');
    const raw = new Database(viewer.database.path);
    raw
      .prepare('UPDATE media SET mime_type = ? WHERE message_id = ? AND type = ?')
      .run(EVIL, FIXTURE.photoMessageId, 'photo');
    raw.close();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${viewer.url}/media/${RC.ref}/${FIXTURE.photoMediaKey}`, {
        headers: { cookie: `viewer_auth=${cookie}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('x-injected')).toBeNull();
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const page = await call(viewer.url, `/api/chats/${RC.ref}/messages?limit=100`, { cookie });
    const photo = page.body.find((m: { id: number }) => m.id === FIXTURE.photoMessageId);
    expect(photo.media.mime_type).toBeNull();
  });

  it('keeps no such value when an import or the backup writes it', async () => {
    await viewer.db.upsertMedia({
      accountId: RC.accountId,
      chatId: RC.id,
      messageId: 4101,
      type: 'document',
      fileName: 'notes.txt',
      mimeType: 'text/plain\r\nSet-Cookie: viewer_auth=planted',
      downloaded: false,
    } as never);
    const item = await viewer.db.getMediaItem(
      { accountId: RC.accountId, chatId: RC.id } as never,
      4101,
      'document',
    );
    expect(item?.mimeType).toBeNull();
  });

  it.each([
    ['IMAGE/PNG', 'image/png'],
    ['text/plain; charset=utf-8', 'text/plain'],
    [' video/mp4 ', 'video/mp4'],
    ['image/png\nX: y', null],
    ['image/ png', null],
    ['no-slash', null],
    ['a/b/c', null],
    [42, null],
  ])('mediaTypeOf(%j) is %j', (value, expected) => {
    expect(mediaTypeOf(value)).toBe(expected);
  });
});
