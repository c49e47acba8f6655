import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isMainModule } from './main-module';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const linked = mkdtempSync(path.join(tmpdir(), 'linked-checkout-'));
symlinkSync(path.join(ROOT, 'scripts'), path.join(linked, 'scripts'));
afterAll(() => rmSync(linked, { recursive: true, force: true }));

describe('the script Node was started with', () => {
  it('is this module, however the path to it is spelled', () => {
    const real = path.join(ROOT, 'scripts', 'api-cli.ts');
    const url = pathToFileURL(real).href;
    expect(isMainModule(url, real)).toBe(true);
    expect(isMainModule(url, path.join(linked, 'scripts', 'api-cli.ts'))).toBe(true);
    expect(isMainModule(url, path.join(ROOT, 'scripts', 'mock.ts'))).toBe(false);
    expect(isMainModule(url, undefined)).toBe(false);
  });

  it('runs a command line started through a symbolic link (npm run api listed nothing, exit 0)', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(linked, 'scripts', 'api-cli.ts'), 'fuel'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(out).toMatch(/^listStations +GET +\/api\/stations$/m);
  });
});
