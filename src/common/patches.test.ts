/** Every patch of an installed package names, in patches/README.md, what upstream would let it be deleted. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './services';

const DIR = path.join(ROOT, 'patches');

describe('patches/', () => {
  const patches = readdirSync(DIR).filter((name) => name.endsWith('.patch'));
  const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
  const rows = new Map(
    readme
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => [line.slice(3, line.indexOf('`', 3)), line] as const),
  );

  it('holds patches', () => {
    expect(patches.length).toBeGreaterThan(0);
  });

  it.each(patches)('%s has a row naming the upstream change that lets it be deleted', (patch) => {
    const row = rows.get(patch);
    expect(row, `no row for ${patch} in patches/README.md`).toBeDefined();
    // An upstream reference: owner/repo#number, or a release of the package.
    expect(row).toMatch(/[\w.-]+\/[\w.-]+#\d+|release \d+\.\d+/);
  });

  it('has no row for a patch that is gone', () => {
    expect([...rows.keys()].filter((name) => !patches.includes(name))).toEqual([]);
  });
});
