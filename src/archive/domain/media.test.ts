import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPicture, isInline, parseMediaKey } from '../model/media-kinds';
import {
  chatFolder,
  mediaFilePath,
  resolveInside,
  sharedFilePath,
  thumbnailPath,
} from '../model/media-layout';
import { exportFileName, exportWindow } from './export';
import { contentDisposition, dispositionOf } from './media';

describe('media layout', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'layout-'));
    await mkdir(path.join(root, '-100', 'sub'), { recursive: true });
    await writeFile(path.join(root, '-100', 'a.jpg'), 'x');
    await writeFile(path.join(tmpdir(), 'layout-outside.txt'), 'x');
    await symlink(path.join(tmpdir(), 'layout-outside.txt'), path.join(root, 'out.txt'));
    await symlink(path.join(root, '-100', 'a.jpg'), path.join(root, 'in.jpg'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('names files from the storage media id, per chat and account', () => {
    expect(mediaFilePath(1, -100123, 7, 'photo', '.jpg')).toBe('-100123/-100123_7_photo.jpg');
    expect(chatFolder(2, 55)).toBe('55_account_2');
    expect(sharedFilePath('ab'.repeat(32))).toBe(`media/_shared/ab/${'ab'.repeat(32)}`);
    expect(() => sharedFilePath('../x')).toThrow();
    expect(thumbnailPath('/b/-1/x.mp4', 400)).toBe('/b/-1/.thumbs/400/x.mp4.webp');
  });

  it('resolves only existing files inside the root, links followed', async () => {
    expect(await resolveInside(root, '-100/a.jpg')).toBe(path.join(root, '-100', 'a.jpg'));
    expect(await resolveInside(root, 'in.jpg')).toBe(path.join(root, 'in.jpg'));
    for (const bad of [
      'out.txt',
      '../layout-outside.txt',
      '-100/../../x',
      '/etc/passwd',
      '-100/missing',
      '',
      'a\0b',
    ]) {
      expect(await resolveInside(root, bad), bad).toBeNull();
    }
  });
});

describe('media kinds and headers', () => {
  it('parses media keys strictly', () => {
    expect(parseMediaKey('4182_photo')).toEqual({ messageId: 4182, type: 'photo' });
    expect(parseMediaKey('977_video_note')).toEqual({ messageId: 977, type: 'video_note' });
    for (const bad of ['photo', '_photo', '12_', '12_../x', '12_Photo', '99999999999999999999_photo']) {
      expect(parseMediaKey(bad), bad).toBeNull();
    }
  });

  it('decides inline display and pictures by type', () => {
    expect(['image/jpeg', 'audio/ogg', 'video/mp4', 'application/pdf', 'text/plain'].every(isInline)).toBe(
      true,
    );
    expect(['application/zip', 'image/svg+xml', 'text/html'].some(isInline)).toBe(false);
    expect(dispositionOf('image/jpeg', true)).toBe('attachment');
    expect(hasPicture('voice', 'audio/ogg')).toBe(false);
    expect(hasPicture('sticker', 'application/x-tgsticker')).toBe(false);
    expect(hasPicture('document', 'image/png')).toBe(true);
  });

  it('writes RFC 6266 dispositions with an ASCII fallback and a UTF-8 name', () => {
    expect(contentDisposition('inline', 'a.jpg')).toBe('inline; filename="a.jpg"');
    expect(contentDisposition('attachment', 'say "hi"\\.txt')).toBe(
      `attachment; filename="say _hi__.txt"; filename*=UTF-8''say%20%22hi%22_.txt`,
    );
    expect(contentDisposition('attachment', 'Åsa’s (1).pdf')).toBe(
      `attachment; filename="_sa_s (1).pdf"; filename*=UTF-8''%C3%85sa%E2%80%99s%20%281%29.pdf`,
    );
  });
});

describe('export window and name', () => {
  it('reads a bare `to` date as the whole day and a timestamp as exclusive', () => {
    expect(exportWindow({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-04-01T00:00:00Z'),
    });
    expect(exportWindow({ to: '2026-03-31T12:00:00+02:00' })).toEqual({
      to: new Date('2026-03-31T10:00:00Z'),
    });
    expect(exportWindow({})).toEqual({});
    expect(() => exportWindow({ from: '2026-03-02', to: '2026-03-01' })).toThrow(
      "'from' must be before 'to'",
    );
    expect(() => exportWindow({ from: '2026-03-01T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toThrow();
  });

  it('keeps letters, digits, spaces, - and _ in the file name', () => {
    expect(exportFileName({ title: 'Release Crew', name: null, username: null, ref: 'r' })).toBe(
      'Release Crew_export.json',
    );
    expect(exportFileName({ title: '../../etc/passwd', name: null, username: null, ref: 'r' })).toBe(
      'etcpasswd_export.json',
    );
    expect(exportFileName({ title: '🎉', name: null, username: 'crew_2', ref: 'r' })).toBe(
      'crew_2_export.json',
    );
    expect(exportFileName({ title: null, name: null, username: null, ref: 'Abc' })).toBe('Abc_export.json');
  });
});
