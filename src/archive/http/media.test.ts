/**
 * Media, thumbnails, avatars, the gallery, the open commands and the export through HTTP, on the demo
 * archive with its real files in the media layout.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../demo/files';
import { call, FIXTURE, login, MASTER, PASSWORD_ENV, startTestViewer, type TestViewer } from './test-viewer';

const RC = FIXTURE.releaseCrew.ref;
const SOURCES = path.join(import.meta.dirname, '..', 'demo', 'media');

describe('media over HTTP', () => {
  let viewer: TestViewer;
  let master: string;
  let looker: string;
  let bin: string;

  beforeAll(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'archive-open-'));
    // The stand-in opener writes each argument it got on its own line.
    await writeFile(path.join(bin, 'opener'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${bin}/args"\n`);
    await writeFile(path.join(bin, 'failing'), '#!/bin/sh\nexit 3\n');
    await chmod(path.join(bin, 'opener'), 0o755);
    await chmod(path.join(bin, 'failing'), 0o755);
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      MEDIA_OPEN_CMD: path.join(bin, 'opener'),
      MEDIA_OPEN_PATH_CMD: path.join(bin, 'failing'),
    });
    master = await login(viewer.url, MASTER.username, MASTER.password);
    const created = await call(viewer.url, '/api/admin/viewers', {
      cookie: master,
      body: { username: 'looker', password: 'looker-password', no_download: true },
    });
    expect(created.status).toBe(201);
    looker = await login(viewer.url, 'looker', 'looker-password');
  });
  afterAll(async () => {
    await viewer.close();
    await rm(bin, { recursive: true, force: true });
  });

  const fetchAs = (cookie: string, route: string, headers: Record<string, string> = {}) =>
    fetch(`${viewer.url}${route}`, { headers: { cookie: `viewer_auth=${cookie}`, ...headers } });
  const get = (route: string, headers: Record<string, string> = {}) => fetchAs(master, route, headers);
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
  const source = (name: string) => readFile(path.join(SOURCES, name));
  const addMessage = (id: number) =>
    viewer.db.upsertMessages([
      {
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        id,
        date: new Date('2026-03-01T00:00:00Z'),
        text: null,
      },
    ]);
  const dropMessage = (messageId: number) =>
    viewer.db.deleteMessage({ accountId: 1, chatId: FIXTURE.releaseCrew.id, messageId });

  describe('files', () => {
    it.each([
      ['4182_photo', 'photo.jpg', 'image/jpeg', 'inline', 'IMG_20260314_092107.jpg'],
      ['4181_voice', 'voice.ogg', 'audio/ogg', 'inline', 'voice_2026-03-14.ogg'],
      ['4140_video', 'video.mp4', 'video/mp4', 'inline', 'standup.mp4'],
      ['4141_video_note', 'round.mp4', 'video/mp4', 'inline', 'round.mp4'],
      ['4143_sticker', 'sticker.webp', 'image/webp', 'inline', 'sticker.webp'],
      ['4144_document', 'release-notes.zip', 'application/zip', 'attachment', 'release-notes.zip'],
    ])('serves %s with its type, disposition and bytes', async (key, file, type, disposition, name) => {
      const res = await get(`/media/${RC}/${key}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`${disposition}; filename="${name}"`);
      expect(res.headers.get('cache-control')).toBe('private');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await bytes(res)).equals(await source(file))).toBe(true);
    });

    it('names a UTF-8 file per RFC 6266 and forces an attachment with download=1', async () => {
      const pdf = await get(`/media/${RC}/4142_document`);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(
        `inline; filename="Checkliste Ver_ffentlichung 2.4.pdf"; filename*=UTF-8''Checkliste%20Ver%C3%B6ffentlichung%202.4.pdf`,
      );
      const photo = await get(`/media/${RC}/4182_photo?download=1`);
      expect(photo.headers.get('content-disposition')).toBe('attachment; filename="IMG_20260314_092107.jpg"');
      expect((await get(`/media/${RC}/4182_photo?download=2`)).status).toBe(400);
    });

    it('answers ranges with 206 and 416 so players can seek', async () => {
      const whole = await source('video.mp4');
      const part = await get(`/media/${RC}/4140_video`, { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
      expect((await bytes(part)).equals(whole.subarray(100, 200))).toBe(true);
      const tail = await get(`/media/${RC}/4140_video`, { range: 'bytes=-50' });
      expect((await bytes(tail)).equals(whole.subarray(whole.length - 50))).toBe(true);
      const beyond = await get(`/media/${RC}/4140_video`, { range: `bytes=${whole.length + 10}-` });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
      expect(await beyond.json()).toEqual({ detail: 'Range not satisfiable' });
    });

    it('validates with ETag and Last-Modified (304)', async () => {
      const first = await get(`/media/${RC}/4182_photo`);
      const etag = first.headers.get('etag') ?? '';
      const modified = first.headers.get('last-modified') ?? '';
      expect(etag).not.toBe('');
      expect(new Date(modified).getTime()).toBeGreaterThan(0);
      // A browser revalidates with max-age=0 (fetch() would otherwise add no-cache, which forbids a 304).
      const revalidate = { 'cache-control': 'max-age=0' };
      const again = await get(`/media/${RC}/4182_photo`, { ...revalidate, 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect((await bytes(again)).length).toBe(0);
      const since = await get(`/media/${RC}/4182_photo`, { ...revalidate, 'if-modified-since': modified });
      expect(since.status).toBe(304);
      const other = await get(`/media/${RC}/4182_photo`, { ...revalidate, 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
      const avatar = await get(`/media/avatar/${RC}`);
      const cachedAvatar = await get(`/media/avatar/${RC}`, {
        ...revalidate,
        'if-none-match': avatar.headers.get('etag') ?? '',
      });
      expect(cachedAvatar.status).toBe(304);
    });

    it('answers 404, never 500, for keys it cannot serve and files missing on disk', async () => {
      for (const key of ['4182_video', '9999_photo', 'photo', '4182_photo.jpg', '300_document']) {
        const res = await call(viewer.url, `/media/${RC}/${key}`, { cookie: master });
        expect([key, res.status, res.body]).toEqual([key, 404, { detail: 'Media not found' }]);
      }
      const skipped = await call(viewer.url, `/media/${FIXTURE.news.ref}/300_document`, { cookie: master });
      expect(skipped).toMatchObject({ status: 404, body: { detail: 'Media not found' } });
      const voice = path.join(viewer.backupPath, FIXTURE_FILES.voice.path);
      await unlink(voice);
      try {
        const gone = await call(viewer.url, `/media/${RC}/4181_voice`, { cookie: master });
        expect(gone).toMatchObject({ status: 404, body: { detail: 'Media not found' } });
      } finally {
        await writeFile(voice, await source('voice.ogg'));
      }
    });

    it('cannot be led outside the backup folder by a key, a ref or a stored path', async () => {
      for (const route of [
        `/media/${RC}/..%2F..%2F..%2Fetc%2Fpasswd`,
        `/media/${RC}/%2e%2e%2f4182_photo`,
        `/media/..%2F${RC}/4182_photo`,
        `/media/%2e%2e/4182_photo`,
        `/media/thumb/200/${RC}/..%2F..%2Fetc%2Fpasswd`,
      ]) {
        const res = await call(viewer.url, route, { cookie: master });
        expect([route, res.status]).toEqual([route, 404]);
        expect(JSON.stringify(res.body)).not.toContain('root:');
      }
      // A key ending in U+0000 (which a C path would end at) names no file: the route's 400.
      const nul = await call(viewer.url, `/media/${RC}/4182_photo%00`, { cookie: master });
      expect([nul.status, nul.body]).toEqual([
        400,
        { detail: 'media_key: must not contain the character U+0000' },
      ]);
      const outside = await mkdtemp(path.join(tmpdir(), 'archive-outside-'));
      await writeFile(path.join(outside, 'secret.txt'), 'secret');
      await symlink(path.join(outside, 'secret.txt'), path.join(viewer.backupPath, 'escape.txt'));
      const paths = ['../../../../etc/passwd', '/etc/passwd', 'escape.txt', `${outside}/secret.txt`];
      for (const [i, filePath] of paths.entries()) {
        const messageId = 5000 + i;
        await addMessage(messageId);
        await viewer.db.upsertMedia({
          accountId: 1,
          chatId: FIXTURE.releaseCrew.id,
          messageId,
          type: 'document',
          filePath,
          mimeType: 'text/plain',
          downloaded: true,
        });
        const res = await call(viewer.url, `/media/${RC}/${messageId}_document`, { cookie: master });
        expect([filePath, res.status, res.body]).toEqual([filePath, 404, { detail: 'Media not found' }]);
        await dropMessage(messageId);
      }
      await rm(outside, { recursive: true, force: true });
    });

    it('refuses no-download logins the bytes and thumbnails but keeps avatars and a URL-free gallery', async () => {
      for (const route of [`/media/${RC}/4140_video`, `/media/thumb/400/${RC}/4140_video`]) {
        const res = await fetchAs(looker, route);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ detail: 'Downloads disabled for this account' });
      }
      expect((await fetchAs(looker, `/media/avatar/${RC}`)).status).toBe(200);
      expect((await fetchAs(looker, `/media/avatar/${RC}/4182`)).status).toBe(200);
      const gallery = await call(viewer.url, `/api/chats/${RC}/media`, { cookie: looker });
      expect(gallery.status).toBe(200);
      for (const item of gallery.body.items) {
        expect(item).toMatchObject({ thumb_url: null, media_url: null, downloaded: false });
      }
      const [photo] = (await call(viewer.url, `/api/chats/${RC}/messages?limit=1`, { cookie: looker })).body;
      expect(photo.media).toMatchObject({ url: null, thumb_url: null, file_path: null, downloaded: false });
      expect(photo.sender_avatar_url).toBe(`/media/avatar/${RC}/4182`);
    });
  });

  describe('thumbnails', () => {
    const thumb = async (size: number, key: string) => {
      const res = await get(`/media/thumb/${size}/${RC}/${key}`);
      expect(res.status, key).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
      const meta = await sharp(await bytes(res)).metadata();
      return [meta.format, meta.width, meta.height];
    };

    it('makes WebP pictures of photos, stickers and first video frames, longest side 200 or 400', async () => {
      expect(await thumb(200, '4182_photo')).toEqual(['webp', 200, 150]);
      expect(await thumb(400, '4182_photo')).toEqual(['webp', 400, 300]);
      expect(await thumb(200, '4140_video')).toEqual(['webp', 200, 150]);
      expect(await thumb(200, '4141_video_note')).toEqual(['webp', 200, 200]);
      expect(await thumb(400, '4143_sticker')).toEqual(['webp', 400, 400]);
    });

    it('answers 404 for a type without a picture and 400 for another size', async () => {
      for (const key of ['4181_voice', '4142_document', '4144_document', '9999_photo']) {
        const res = await call(viewer.url, `/media/thumb/200/${RC}/${key}`, { cookie: master });
        expect([key, res.status, res.body]).toEqual([key, 404, { detail: 'Media not found' }]);
      }
      expect((await get(`/media/thumb/300/${RC}/4182_photo`)).status).toBe(400);
    });

    it('caches beside the original, remakes it when the original changes, and makes it once under load', async () => {
      const { thumbnails } = viewer.wiring;
      const route = `/media/thumb/200/${RC}/4141_video_note`;
      expect((await get(route)).status).toBe(200);
      const before = thumbnails.generations;
      expect((await get(route)).status).toBe(200);
      expect(thumbnails.generations).toBe(before);
      const cached = path.join(
        viewer.backupPath,
        path.dirname(FIXTURE_FILES.round.path),
        '.thumbs',
        '200',
        `${path.basename(FIXTURE_FILES.round.path)}.webp`,
      );
      expect((await readFile(cached)).subarray(8, 12).toString()).toBe('WEBP');
      const original = path.join(viewer.backupPath, FIXTURE_FILES.round.path);
      const later = new Date(Date.now() + 60_000);
      await utimes(original, later, later);
      expect((await get(route)).status).toBe(200);
      expect(thumbnails.generations).toBe(before + 1);

      const fresh = `/media/thumb/400/${RC}/4140_video`;
      const start = thumbnails.generations;
      const answers = await Promise.all(Array.from({ length: 6 }, () => get(fresh)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const sizes = await Promise.all(answers.map(async (r) => (await bytes(r)).length));
      expect(new Set(sizes).size).toBe(1);
      expect(thumbnails.generations).toBe(start + 1);
    });
  });

  describe('avatars', () => {
    it('serves the current chat photo, an older one by photo_id, and senders at a message', async () => {
      const current = await get(`/media/avatar/${RC}`);
      expect(current.status).toBe(200);
      expect(current.headers.get('content-type')).toBe('image/jpeg');
      expect(current.headers.get('cache-control')).toBe('private, max-age=86400');
      expect((await bytes(current)).equals(await source('chat-avatar.jpg'))).toBe(true);
      const older = await get(`/media/avatar/${RC}?photo_id=5512870036482915003`);
      expect((await bytes(older)).equals(await source('chat-avatar-older.jpg'))).toBe(true);
      expect((await get(`/media/avatar/${RC}?photo_id=42`)).status).toBe(404);
      expect((await get(`/media/avatar/${FIXTURE.anna.ref}`)).status).toBe(404);
      const marta = await get(`/media/avatar/${RC}/4182`);
      expect((await bytes(marta)).equals(await source('user-marta.jpg'))).toBe(true);
      const none = await call(viewer.url, `/media/avatar/${RC}/999999`, { cookie: master });
      expect(none).toMatchObject({ status: 404, body: { detail: 'Avatar not found' } });
    });

    it('links avatars in payloads only when the file exists', async () => {
      const chats = (await call(viewer.url, '/api/chats', { cookie: master })).body.chats;
      const byRef = new Map(
        chats.map((c: { ref: string; avatar_url: string | null }) => [c.ref, c.avatar_url]),
      );
      expect(byRef.get(RC)).toBe(`/media/avatar/${RC}`);
      expect(byRef.get(FIXTURE.anna.ref)).toBeNull();
      const messages = (await call(viewer.url, `/api/chats/${RC}/messages?limit=50`, { cookie: master }))
        .body;
      const avatarOf = (id: number) => messages.find((m: { id: number }) => m.id === id)?.sender_avatar_url;
      expect(avatarOf(4182)).toBe(`/media/avatar/${RC}/4182`);
      // The owner's photo is not in the archive: no URL that could only 404.
      const own = messages.find((m: { sender_id: number }) => m.sender_id === FIXTURE.users.owner);
      expect(own.sender_avatar_url).toBeNull();
      const found = (await call(viewer.url, '/api/search/messages?q=photos', { cookie: master })).body;
      expect(found.results[0].chat.avatar_url).toBe(`/media/avatar/${RC}`);
      for (const url of [byRef.get(RC), avatarOf(4182)]) expect((await get(String(url))).status).toBe(200);
    });
  });

  it('answers 200 for every media, thumbnail and avatar URL the demo archive hands out', async () => {
    const urls = new Set<string>();
    const chats = (await call(viewer.url, '/api/chats', { cookie: master })).body.chats;
    for (const chat of chats) {
      if (chat.avatar_url) urls.add(chat.avatar_url);
      for (const a of (await call(viewer.url, `/api/chats/${chat.ref}/avatars`, { cookie: master })).body) {
        if (a.available) urls.add(a.url);
      }
      const messages = (
        await call(viewer.url, `/api/chats/${chat.ref}/messages?limit=500`, { cookie: master })
      ).body;
      for (const m of messages) {
        for (const url of [m.sender_avatar_url, m.media?.url, m.media?.thumb_url]) if (url) urls.add(url);
      }
    }
    expect(urls.size).toBeGreaterThan(15);
    for (const url of urls) {
      const res = await get(url);
      expect([url, res.status]).toEqual([url, 200]);
      await res.arrayBuffer();
    }
  });

  describe('gallery and counts', () => {
    it('pages with media keys, filters types and links files and thumbnails', async () => {
      const page = await call(viewer.url, `/api/chats/${RC}/media?limit=2`, { cookie: master });
      expect(page.body.has_more).toBe(true);
      expect(page.body.items[0]).toMatchObject({
        id: '4182_photo',
        message_id: 4182,
        type: 'photo',
        thumb_url: `/media/thumb/200/${RC}/4182_photo`,
        media_url: `/media/${RC}/4182_photo`,
        downloaded: true,
      });
      expect(page.body.items[1]).toMatchObject({ id: '4181_voice', thumb_url: null });
      const next = await call(viewer.url, `/api/chats/${RC}/media?limit=2&before_id=4181_voice`, {
        cookie: master,
      });
      expect(next.body.items.map((i: { id: string }) => i.id)).toEqual(['4144_document', '4143_sticker']);
      const back = await call(viewer.url, `/api/chats/${RC}/media?limit=2&after_id=4144_document`, {
        cookie: master,
      });
      expect(back.body.items.map((i: { id: string }) => i.id)).toEqual(['4182_photo', '4181_voice']);
      const videos = await call(viewer.url, `/api/chats/${RC}/media?types=video,video_note`, {
        cookie: master,
      });
      expect(videos.body).toMatchObject({ has_more: false });
      expect(videos.body.items.map((i: { id: string }) => i.id)).toEqual(['4141_video_note', '4140_video']);
      for (const item of (await call(viewer.url, `/api/chats/${RC}/media`, { cookie: master })).body.items) {
        expect((await get(item.media_url)).status, item.id).toBe(200);
        if (item.thumb_url) expect((await get(item.thumb_url)).status, item.id).toBe(200);
      }
    });

    it('rejects both cursors and a large limit, and gives an empty page for an unknown cursor', async () => {
      const both = await call(viewer.url, `/api/chats/${RC}/media?before_id=4182_photo&after_id=4140_video`, {
        cookie: master,
      });
      expect(both).toMatchObject({ status: 400, body: { detail: 'Send before_id or after_id, not both' } });
      expect((await call(viewer.url, `/api/chats/${RC}/media?limit=201`, { cookie: master })).status).toBe(
        400,
      );
      const unknown = await call(viewer.url, `/api/chats/${RC}/media?before_id=1_photo`, { cookie: master });
      expect(unknown.body).toEqual({ items: [], has_more: false });
    });

    it('counts media per type', async () => {
      const counts = await call(viewer.url, `/api/chats/${RC}/media/counts`, { cookie: master });
      expect(counts.body).toEqual({ document: 2, photo: 1, sticker: 1, video: 1, video_note: 1, voice: 1 });
      expect(
        (await call(viewer.url, `/api/chats/${FIXTURE.anna.ref}/media/counts`, { cookie: master })).body,
      ).toEqual({});
    });
  });

  describe('open commands', () => {
    const post = (route: string, cookie = master) => call(viewer.url, route, { cookie, method: 'POST' });

    it('runs the command with the file as its one argument, never through a shell', async () => {
      const weird = '-1001234567890/odd $(touch pwned) ; name `id`.jpg';
      await writeFile(path.join(viewer.backupPath, weird), await source('photo.jpg'));
      await addMessage(5100);
      await viewer.db.upsertMedia({
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        messageId: 5100,
        type: 'photo',
        filePath: weird,
        mimeType: 'image/jpeg',
        downloaded: true,
      });
      expect(await post(`/media/open/${RC}/5100_photo`)).toMatchObject({ status: 200, body: { ok: true } });
      await dropMessage(5100);
      const args = (await readFile(path.join(bin, 'args'), 'utf8')).split('\n').filter(Boolean);
      expect(args).toEqual([path.join(viewer.backupPath, weird)]);
      await expect(readFile(path.join(process.cwd(), 'pwned'))).rejects.toThrow();
      expect(await post(`/media/open/${RC}/4182_photo`)).toMatchObject({ status: 200 });
    });

    it('refuses non-inline types on open, odd names, failures and unset commands', async () => {
      expect(await post(`/media/open/${RC}/4144_document`)).toMatchObject({
        status: 415,
        body: { detail: 'This media type cannot be opened inline' },
      });
      expect(await post(`/media/open-path/${RC}/4144_document`)).toMatchObject({
        status: 500,
        body: { detail: 'Internal server error' },
      });
      const newline = '-1001234567890/two\nlines.jpg';
      await mkdir(path.join(viewer.backupPath, '-1001234567890'), { recursive: true });
      await writeFile(path.join(viewer.backupPath, newline), 'x');
      await addMessage(5101);
      await viewer.db.upsertMedia({
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        messageId: 5101,
        type: 'photo',
        filePath: newline,
        mimeType: 'image/jpeg',
        downloaded: true,
      });
      expect(await post(`/media/open/${RC}/5101_photo`)).toMatchObject({
        status: 400,
        body: { detail: 'File name cannot be passed to the command' },
      });
      await dropMessage(5101);
      expect((await post(`/media/open/${RC}/4182_photo`, looker)).status).toBe(403);
      const plain = await startTestViewer({ ...PASSWORD_ENV, MEDIA_OPEN_PATH_CMD: '/nonexistent/opener' });
      try {
        const cookie = await login(plain.url, MASTER.username, MASTER.password);
        const open = await call(plain.url, `/media/open/${RC}/4182_photo`, { cookie, method: 'POST' });
        expect(open).toMatchObject({ status: 404, body: { detail: 'Not configured' } });
        const missing = await call(plain.url, `/media/open-path/${RC}/4182_photo`, {
          cookie,
          method: 'POST',
        });
        expect(missing).toMatchObject({ status: 500, body: { detail: 'Internal server error' } });
      } finally {
        await plain.close();
      }
    });
  });

  describe('export', () => {
    const exportOf = async (query: string) => {
      const res = await get(`/api/chats/${RC}/export${query}`);
      // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them.
      const body: any = await res.json();
      return { res, body };
    };

    it('streams the whole chat as a named attachment without filters', async () => {
      const { res, body } = await exportOf('');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="Release Crew_export.json"');
      expect(body.chat).toEqual({
        id: FIXTURE.releaseCrew.id,
        ref: RC,
        type: 'supergroup',
        title: 'Release Crew',
        username: 'releasecrew',
      });
      expect(body).not.toHaveProperty('filters');
      expect(body.messages).toHaveLength(FIXTURE.releaseCrewMessages);
      expect(body.message_versions).toHaveLength(1);
      expect(JSON.stringify(body)).not.toContain('/media/');
    });

    it('includes the whole day of a bare `to` date, but a `to` timestamp is exclusive', async () => {
      const day = await exportOf('?from=2026-03-14&to=2026-03-14');
      expect(day.body.filters).toEqual({ from: '2026-03-14', to: '2026-03-14' });
      const ids = day.body.messages.map((m: { id: number }) => m.id);
      expect(ids).toContain(4182);
      expect(day.body.message_versions.map((v: { message_id: number }) => v.message_id)).toEqual([4182]);
      const stamp = await exportOf('?from=2026-03-14&to=2026-03-14T09:21:07Z');
      const stampIds = stamp.body.messages.map((m: { id: number }) => m.id);
      expect(stampIds).not.toContain(4182);
      expect(stampIds).toEqual(ids.filter((id: number) => id !== 4182));
      const before = await exportOf('?to=2026-03-13');
      expect(before.body.filters).toEqual({ from: null, to: '2026-03-13' });
      expect(before.body.message_versions).toEqual([]);
    });

    it('rejects a window that does not run forwards', async () => {
      for (const query of [
        '?from=2026-03-14&to=2026-03-13',
        '?from=2026-03-14T10:00:00Z&to=2026-03-14T10:00:00Z',
      ]) {
        const { res, body } = await exportOf(query);
        expect([res.status, body]).toEqual([400, { detail: "'from' must be before 'to'" }]);
      }
      expect((await exportOf('?from=yesterday')).res.status).toBe(400);
    });

    it('gives a chat without a usable name a safe file name', async () => {
      await viewer.db.upsertChat({
        accountId: 1,
        id: FIXTURE.family.id,
        type: 'group',
        title: '../Fämily "2026" \r\n/ 🎉',
        ref: FIXTURE.family.ref,
      });
      const res = await get(`/api/chats/${FIXTURE.family.ref}/export`);
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="F_mily 2026_export.json"; filename*=UTF-8''F%C3%A4mily%202026_export.json`,
      );
      await res.arrayBuffer();
    });
  });
});
