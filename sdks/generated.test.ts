/**
 * generated/sdks/ is exactly what `npm run generate` writes from the bundled documents (openapi-generator
 * in a Java run, so in the slow tier; the fast tier checks the rest of generated/).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSdks } from '../scripts/generate-sdks';
import { ROOT } from '../src/common/services';

/** Every file under `dir`, but Python's bytecode caches (written by whoever imports a package, not by the generator). */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.name !== '__pycache__');
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    ),
  );
  return nested.flat().sort();
}

describe('generated/sdks/', () => {
  let fresh = '';
  afterAll(async () => {
    if (fresh) await rm(fresh, { recursive: true, force: true });
  });

  it('is exactly what `npm run generate` writes from the bundled documents', async () => {
    fresh = await mkdtemp(path.join(tmpdir(), 'specyard-sdks-'));
    await generateSdks(path.join(ROOT, 'generated'), fresh);
    const committed = path.join(ROOT, 'generated/sdks');
    const [want, have] = await Promise.all([listFiles(fresh), listFiles(committed)]);
    expect(have, 'file list (run `npm run generate`)').toEqual(want);
    const stale: string[] = [];
    for (const file of want) {
      const [a, b] = await Promise.all([
        readFile(path.join(fresh, file), 'utf8'),
        readFile(path.join(committed, file), 'utf8'),
      ]);
      if (a !== b) stale.push(file);
    }
    expect(stale, 'stale files (run `npm run generate`)').toEqual([]);
  }, 180_000);

  it('commits the bash wrappers executable, as the README runs them', () => {
    const modes = execFileSync('git', ['ls-files', '-s', 'generated/sdks/bash'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => /\/specyard-[a-z]+$/.test(line))
      .map((line) => line.split(/\s+/)[0]);
    expect(modes).toEqual(['100755', '100755', '100755']);
  });
});
