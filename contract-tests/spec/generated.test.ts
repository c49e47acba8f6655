import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, ROOT } from '../../scripts/generate';

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    ),
  );
  return nested.flat().sort();
}

describe('generated/', () => {
  let fresh = '';
  afterAll(async () => {
    if (fresh) await rm(fresh, { recursive: true, force: true });
  });

  // The SDKs of other languages (generated/sdks/) take a Java run: the slow tier checks them
  // (sdks/generated.test.ts).
  it('is exactly what `npm run generate` writes from the documents', async () => {
    fresh = await mkdtemp(path.join(tmpdir(), 'specyard-generated-'));
    await generate(fresh, { sdks: false });
    const committed = path.join(ROOT, 'generated');
    const [want, have] = await Promise.all([
      listFiles(fresh),
      listFiles(committed).then((files) => files.filter((f) => !f.startsWith('sdks/'))),
    ]);
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
  }, 60_000);
});
