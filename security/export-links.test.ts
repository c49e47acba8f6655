/**
 * Medium 2: `archive-cli import` and symbolic links. A crafted export links a file outside it (a secret
 * and the first-run logins) into its media and pages, by symbolic and by hard link; the import copies none
 * of them, says how many it skipped and why, and still takes a link whose target stays inside the export.
 * What it copies is readable by the archive's owner only.
 */
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../src/archive/cli/test-cli';

const SECRET = 'PASSWORDS-THAT-MUST-NOT-LEAK';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

describe('archive-cli import with links out of the export', () => {
  let work: string;
  let outside: string;
  let backups: string;
  const env = () => ({
    DATABASE_PATH: path.join(work, 'archive.db'),
    BACKUP_PATH: backups,
    LOG_LEVEL: 'WARNING',
  });

  beforeAll(async () => {
    work = tempDir();
    outside = path.join(work, 'elsewhere');
    backups = path.join(work, 'backups');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    writeFileSync(path.join(outside, 'first-run-demo.json'), JSON.stringify({ password: SECRET }));
    writeFileSync(
      path.join(outside, 'page.html'),
      `<html><body><div class="history"><div class="message default clearfix" id="message9"><div class="body"><div class="pull_right date details" title="01.01.2024 10:00:00">10:00</div><div class="from_name">Mallory</div><div class="text">${SECRET}</div></div></div></div></body></html>`,
    );
    expect((await cli(['migrate'], env())).code).toBe(0);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('a JSON export: links leading out are skipped and counted, a link inside is taken', async () => {
    const dir = path.join(work, 'json-export');
    mkdirSync(path.join(dir, 'files'), { recursive: true });
    writeFileSync(path.join(dir, 'files', 'real.txt'), 'an ordinary attachment');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'files', 'secret.txt'));
    symlinkSync(path.join(outside, 'first-run-demo.json'), path.join(dir, 'files', 'demo.json'));
    symlinkSync('../../elsewhere/secret.txt', path.join(dir, 'files', 'relative.txt'));
    symlinkSync('real.txt', path.join(dir, 'files', 'alias.txt'));
    // A hard link is the same file under another name, which may be anywhere on the disk.
    linkSync(path.join(outside, 'secret.txt'), path.join(dir, 'files', 'hard.txt'));
    const file = (id: number, name: string) => ({
      id,
      type: 'message',
      date: '2024-01-01T10:00:00',
      from: 'Mallory',
      from_id: 'user42',
      file: `files/${name}`,
      mime_type: 'text/plain',
      text: '',
    });
    writeFileSync(
      path.join(dir, 'result.json'),
      JSON.stringify({
        name: 'Crafted',
        type: 'private_group',
        id: 4242,
        messages: [
          file(1, 'secret.txt'),
          file(2, 'demo.json'),
          file(3, 'relative.txt'),
          file(4, 'alias.txt'),
          file(5, 'hard.txt'),
        ],
      }),
    );
    const result = await cli(['import', '-p', dir], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Media files skipped: 4 (symbolic links leading out of the export folder, files with several hard links)',
    );
    expect(result.stdout).toContain('Media files: 1');
    const copied = filesUnder(backups).filter((f) => statSync(f).isFile());
    expect(copied).toHaveLength(1);
    for (const f of copied) {
      expect(readFileSync(f, 'utf8')).toBe('an ordinary attachment');
      // The export's file was 0644; the archive's copy is its owner's alone.
      expect(statSync(f).mode & 0o777).toBe(0o600);
    }
  });

  it('an HTML export: a page that links out of the export is not read', async () => {
    const dir = path.join(work, 'html-export');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'messages.html'),
      '<html><body><div class="page_header"><div class="text bold">Crafted HTML</div></div><div class="history"><div class="message default clearfix" id="message1"><div class="body"><div class="pull_right date details" title="01.01.2024 09:00:00">09:00</div><div class="from_name">Eve</div><div class="text">hello</div></div></div></div></body></html>',
    );
    symlinkSync(path.join(outside, 'page.html'), path.join(dir, 'messages2.html'));
    const result = await cli(['import', '-p', dir, '-c', '-1009999'], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Messages: 1');
    const exported = path.join(work, 'export.json');
    expect((await cli(['export', '-o', exported], env())).code).toBe(0);
    expect(readFileSync(exported, 'utf8')).not.toContain(SECRET);
  });

  it('an export whose result.json itself links out is refused', async () => {
    const dir = path.join(work, 'linked-result');
    mkdirSync(dir);
    symlinkSync(path.join(outside, 'first-run-demo.json'), path.join(dir, 'result.json'));
    const result = await cli(['import', '-p', dir], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('result.json is a link leading out of the export folder');
  });
});
